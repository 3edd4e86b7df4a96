/**
 * The rope recipe is a rope: the ball falls slack from near the hook, the rope goes taut, and
 * the distance from the hook never goes past the rope's length (read under the canvas after
 * every step, as the longest distance since the start).
 */
import { expect, it } from 'vitest';
import { waitForReadout } from './readout';
import { openedStory, waitForRest } from './storybook-page';

const ID = 'recipes-rope--ball-on-a-rope';
const READING = /rope ([\d.]+) m · distance now ([\d.]+) m · longest ([\d.]+) m · shortest ([\d.]+) m/;

const story = openedStory(ID);

it('slack at first, then taut, and never longer than its 4 m (within 0.5%)', async () => {
  // Swinging until it sleeps: the longest distance covers the jerk when the rope goes taut.
  await waitForRest(story.opened);
  const m = await waitForReadout(story.opened.page, 'rope-readings', READING);
  const [length, , longest, shortest] = [Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4])];
  expect(length).toBe(4);
  expect(shortest, 'the rope was slack (a rod would hold 4 m)').toBeLessThan(0.5 * length);
  expect(longest, 'the rope went taut').toBeGreaterThan(0.99 * length);
  expect(longest, 'the rope never stretched').toBeLessThanOrEqual(1.005 * length);
  story.opened.assertNoErrors(ID);
});
