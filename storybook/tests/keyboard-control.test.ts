/**
 * The keyboard recipe under frameloop="demand": once the box sleeps and nothing is drawn, real key
 * presses (playwright's keyboard) wake it, frames are rendered again, and it moves the way the
 * arrows say; then it sleeps again.
 */
import { countRenderedFrames, readProbe } from '@fulcrum/browser-testing';
import { expect, it } from 'vitest';
import { waitForReadout } from './readout';
import { openedStory, waitForRest } from './storybook-page';

const ID = 'recipes-keyboard-control--arrow-keys';
const READING = /box at x = (-?[\d.]+) m · key presses: (\d+) · (asleep|awake)/;

const story = openedStory(ID);

/**
 * The box's x once it sleeps again (the readout is written after every step), after the story has
 * counted `presses` key presses: on a loaded machine the page takes the presses some frames after
 * playwright sends them, and a scene still at rest from before them would otherwise be read.
 */
async function xAtRest(presses: number): Promise<number> {
  await waitForReadout(story.opened.page, 'keyboard-readings', READING, (r) => Number(r[2]) === presses);
  await waitForRest(story.opened);
  const m = await waitForReadout(story.opened.page, 'keyboard-readings', READING, (r) => r[3] === 'asleep');
  return Number(m[1]);
}

it('at rest, the scene renders nothing', async () => {
  await waitForRest(story.opened);
  expect(await countRenderedFrames(story.opened.page, 1500)).toBe(0);
});

it('→ pressed three times wakes the box and pushes it right, then it sleeps again', async () => {
  const page = story.opened.page;
  const x0 = await xAtRest(0);
  const frames0 = ((await readProbe(page)) as { frames: number }).frames;
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
  const x1 = await xAtRest(3);
  expect(((await readProbe(page)) as { frames: number }).frames, 'frames rendered after the key presses').toBeGreaterThan(frames0 + 10);
  expect(x1 - x0, 'metres the box moved right').toBeGreaterThan(1);
  story.opened.assertNoErrors(ID);
});

it('← pushes it back left', async () => {
  const page = story.opened.page;
  const x0 = await xAtRest(3);
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowLeft');
  const x1 = await xAtRest(6);
  expect(x0 - x1, 'metres the box moved left').toBeGreaterThan(1);
  story.opened.assertNoErrors(ID);
});
