/**
 * The concave-shape story shows Polygon.decompose as a user sees it: the arch is several convex
 * pieces of one body, and it comes to rest over the pile with boxes inside its notch (under its
 * convex hull), where a convex body could not let them in.
 */
import { expect, it } from 'vitest';
import { waitForReadout } from './readout';
import { openedStory, waitForRest } from './storybook-page';

const ID = 'scenes-concave-shape--dropped-on-a-pile';
const READING = /arch: a 22-point outline in (\d+) convex pieces · pile corners in its notches: (\d+) · at y = (-?[\d.]+) m, at rest/;

const story = openedStory(ID);

it('the arch, in convex pieces, comes to rest on the pile with boxes in its notch', async () => {
  await waitForRest(story.opened, 60_000);
  const m = await waitForReadout(story.opened.page, 'concave-readings', READING);
  expect(Number(m[1]), 'convex pieces').toBeGreaterThan(1);
  expect(Number(m[2]), 'pile corners in the notch').toBeGreaterThanOrEqual(2);
  // On the pile (its feet above the bottom row's top, y = −4), not on the floor.
  expect(Number(m[3])).toBeGreaterThan(-4);
  story.opened.assertNoErrors(ID);
});
