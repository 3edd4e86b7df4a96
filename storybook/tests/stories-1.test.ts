/**
 * Every story in the built Storybook gets the checks of story-checks.ts, in four quarters
 * (stories-1 … stories-4.test.ts, each its own Chromium) that run side by side: most of a story's
 * checks wait in real time for scenes to fall and settle, and leave the cores idle. This file
 * takes the stories at places 0, 4, 8, … in index.json. A new story is tested automatically.
 */
import { expect, it } from 'vitest';
import { describeStories } from './story-checks';
import { listStories, storiesInQuarter } from './storybook-page';

const stories = listStories();

it('finds the stories in index.json', () => {
  expect(stories.length).toBeGreaterThanOrEqual(14);
  expect(stories.filter((s) => s.tags.includes('joint')).map((s) => s.title)).toEqual(
    expect.arrayContaining(['Joints/Pivot', 'Joints/Weld', 'Joints/Angle', 'Joints/Distance', 'Joints/Line', 'Joints/Motor', 'Joints/Pulley', 'Joints/UserConstraint', 'Joints/SymbolicConstraint']),
  );
});

describeStories(storiesInQuarter(stories, 0));
