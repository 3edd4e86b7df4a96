/**
 * The conveyor story shows preSolve's tangentSpeed as a user sees it: the boxes on the belts
 * move at the belts' speed, and at the new speed after a control change.
 */
import { expect, it } from 'vitest';
import { waitForReadout } from './readout';
import { openedStory, updateStoryArgs } from './storybook-page';

const ID = 'scenes-conveyor-belts--zigzag';
const READING = /boxes on the belts: (\d+) · their median speed along the belt: (-?[\d.]+) m\/s \(belt speed ([\d.]+) m\/s\)/;

const story = openedStory(ID);

/** At least three boxes on the belts, moving along them at `speed` within 2% (the median: some have just landed). */
const carriedAt = (speed: number) => (m: RegExpMatchArray) => Number(m[3]) === speed && Number(m[1]) >= 3 && Math.abs(Number(m[2]) / speed - 1) <= 0.02;

it('boxes on the belts are carried at the belt speed, 2 m/s', async () => {
  const m = await waitForReadout(story.opened.page, 'conveyor-readings', READING, carriedAt(2));
  expect(carriedAt(2)(m), m[0]).toBe(true);
  story.opened.assertNoErrors(ID);
});

it('and at 4 m/s once the control says so', async () => {
  await updateStoryArgs(story.opened, ID, { speed: 4 });
  const m = await waitForReadout(story.opened.page, 'conveyor-readings', READING, carriedAt(4));
  expect(carriedAt(4)(m), m[0]).toBe(true);
  story.opened.assertNoErrors(ID);
});
