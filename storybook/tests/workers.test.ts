/**
 * The workers story on the static Storybook, which is served cross-origin isolated (COOP and
 * COEP, packages/browser-testing's static server, as the dev server and the examples are):
 * `<Physics workers={2}>` starts up to two Web Workers from the engine's own source text (at most
 * one fewer than the page's cores), and the pile steps with them.
 */
import { expect, it } from 'vitest';
import { waitForReadout } from './readout';
import { openedStory } from './storybook-page';

const ID = 'scenes-workers--two-workers';
const READINGS = 'workers-readings';

const story = openedStory(ID);

it('runs the workers it asks for (two, at most one fewer than the cores) on a cross-origin-isolated page, and steps with them', async () => {
  const m = await waitForReadout(story.opened.page, READINGS, /^(\d+) of 2 workers running( \(\d+ cores: at most one fewer workers than cores start\))? · cross-origin isolated: yes · steps: (\d+)$/, (m) => Number(m[3]) >= 60, 30_000);
  const cores = await story.opened.page.evaluate(() => navigator.hardwareConcurrency);
  expect(Number(m[1])).toBe(Math.min(2, cores - 1));
  // Fewer than asked for: the readout says why.
  expect(m[2] !== undefined, m[0]).toBe(Number(m[1]) < 2);
  story.opened.assertNoErrors(ID);
});
