/**
 * The ray-cast picking recipe: the ray from the turret hits the first body along it, reported
 * with the exact hit point, and follows the pointer (R3F pointer events on a plane behind the
 * scene) to another body.
 */
import { canvasBox } from '@fulcrum/browser-testing';
import { expect, it } from 'vitest';
import { readout, waitForReadout } from './readout';
import { CANVAS, openedStory, waitForRest } from './storybook-page';

const ID = 'recipes-ray-cast-picking--follow-the-pointer';
const story = openedStory(ID);
/** StoryFrame's default camera: 40 px per metre, the world origin at the canvas centre. */
const ZOOM = 40;

it('hits the low crate level with the turret, on its left face', async () => {
  const page = story.opened.page;
  await waitForRest(story.opened);
  // The crate, 1 m wide at x 5 on the ground (top at y −4), is hit at x 4.5, level with the turret.
  const m = (await readout(page, 'ray-pick')).match(/^ray hits: low crate at \((-?[\d.]+), (-?[\d.]+)\)$/);
  expect(m).not.toBeNull();
  expect(Number(m![1])).toBeCloseTo(4.5, 1);
  expect(Number(m![2])).toBeCloseTo(-3.5, 2);
});

it('follows the pointer to the crate on the shelf', async () => {
  const page = story.opened.page;
  await waitForRest(story.opened);
  const box = await canvasBox(page, CANVAS);
  const toPixel = (x: number, y: number) => [box.x + box.width / 2 + x * ZOOM, box.y + box.height / 2 - y * ZOOM] as const;
  const [px, py] = toPixel(5, 1.15);
  await page.mouse.move(px, py, { steps: 5 });
  const m = await waitForReadout(page, 'ray-pick', /^ray hits: (.+) at \((-?[\d.]+), (-?[\d.]+)\)$/, (r) => r[1] === 'high crate');
  // Its left face, x 4.5, between its bottom and top.
  expect(Number(m[2])).toBeCloseTo(4.5, 2);
  expect(Number(m[3])).toBeGreaterThan(0.65);
  expect(Number(m[3])).toBeLessThan(1.65);
  story.opened.assertNoErrors(ID);
});
