/**
 * The speed-caps story shows what it says: with its low caps, the falling ball holds at
 * maxLinearSpeed, the plain box at maxRotationPerSubstep × 4 substeps × 60 steps a second, and the
 * box with allowFastRotation at its motor's rate (read from the readings under the canvas).
 */
import { expect, it } from 'vitest';
import { openedStory } from './storybook-page';

const story = openedStory('scenes-speed-caps--caps');

it('the ball falls at 4 m/s, the plain box turns at 4.8 rad/s, the allowFastRotation box at its motor rate of 12 rad/s', async () => {
  // The ball reaches the cap after 0.4 s and lands after about 2.7 s; the motors spin the boxes up within a second.
  const handle = await story.opened.page.waitForFunction(
    () => {
      const text = document.querySelector('[data-testid="speed-readings"]')?.textContent ?? '';
      return /falling ball: 4\.0 m\/s .* box: 4\.8 rad\/s .* allowFastRotation: 12\.0 rad\/s/.test(text) ? text : null;
    },
    undefined,
    { timeout: 30_000 },
  );
  expect(await handle.jsonValue()).toContain('(cap 4 m/s)');
  story.opened.assertNoErrors('scenes-speed-caps--caps');
});
