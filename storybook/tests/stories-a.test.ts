/**
 * Every story in the built Storybook gets the checks of story-checks.ts; this file takes the
 * stories at even places in index.json, stories-b.test.ts the others, so that the two halves run
 * side by side. A new story is tested automatically.
 */
import { expect, it } from 'vitest';
import { describeStories } from './story-checks';
import { listStories } from './storybook-page';

const stories = listStories();

it('finds the stories in index.json', () => {
  expect(stories.length).toBeGreaterThanOrEqual(14);
  expect(stories.filter((s) => s.tags.includes('joint')).map((s) => s.title)).toEqual(
    expect.arrayContaining(['Joints/Pivot', 'Joints/Weld', 'Joints/Angle', 'Joints/Distance', 'Joints/Line', 'Joints/Motor', 'Joints/Pulley', 'Joints/UserConstraint', 'Joints/SymbolicConstraint']),
  );
});

describeStories(stories.filter((_, i) => i % 2 === 0));
