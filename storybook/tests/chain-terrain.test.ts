/**
 * The chain-terrain story shows what it says: the ball rolls over the 200-vertex chain, stays on
 * it, and its speed never jumps in a step by more than gravity allows (a snag at a vertex would).
 */
import { expect, it } from 'vitest';
import { waitForReadout } from './readout';
import { openedStory } from './storybook-page';

const ID = 'scenes-chain-terrain--rolling-ball';
const READING = /ball at x (-?[\d.]+) m, ([\d.]+) m\/s · worst speed jump in a step beyond g·dt: ([\d.]+) m\/s · on the chain: (yes|no)/;

const story = openedStory(ID);

it('the ball rolls across the terrain without a snag: no speed jump beyond g·dt, still on the chain', async () => {
  // Started at x = −9 at 4 m/s to the right: it has crossed the middle within a few seconds.
  const m = await waitForReadout(story.opened.page, 'chain-readings', READING, (m) => Number(m[1]) > 0);
  expect(Number(m[3]), 'worst speed jump beyond g·dt (m/s)').toBeLessThan(0.05);
  expect(m[4]).toBe('yes');
  story.opened.assertNoErrors(ID);
});
