/**
 * The moving-platform story shows setVelocityFromTarget as a user sees it: the kinematic
 * platform goes its full 8 m there and back, and the four boxes ride on it, held by friction,
 * without sliding along it.
 */
import { expect, it } from 'vitest';
import { waitForReadout } from './readout';
import { openedStory } from './storybook-page';

const ID = 'scenes-moving-platform--carried-boxes';
const READING = /travel ([\d.]+) m, turned (\d+) times · boxes on the platform: (\d+) \/ 4 · the most a box slipped on it: ([\d.]+) m/;

const story = openedStory(ID);

it('after a trip there and back, the four boxes are still on the platform, having slipped less than 10 cm', async () => {
  // A 6 s period: it turns at the far end after 3 s and back at the start after 6 s.
  const m = await waitForReadout(story.opened.page, 'platform-readings', READING, (m) => Number(m[2]) >= 2, 40_000);
  expect(Number(m[1]), 'travel (m)').toBeGreaterThan(7.9);
  expect(Number(m[3]), 'boxes on the platform').toBe(4);
  expect(Number(m[4]), 'slip (m)').toBeLessThan(0.1);
  story.opened.assertNoErrors(ID);
});
