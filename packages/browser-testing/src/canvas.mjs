import { saveArtifact } from './artifacts.mjs';
import { countChangedPixels, imageStats } from './pixels.mjs';
import { decodePng } from './png.mjs';

/** The page-pixel box `{ x, y, width, height }` of the first element matching `selector`. */
export async function canvasBox(page, selector = 'canvas') {
  const locator = page.locator(selector).first();
  await locator.waitFor({ state: 'visible' });
  const box = await locator.boundingBox();
  if (!box || box.width < 1 || box.height < 1) throw new Error(`canvasBox: ${selector} has no visible box`);
  return box;
}

/**
 * A screenshot of the element's box (what the user sees, composited), decoded to RGBA.
 * With `artifact: 'name.png'` the PNG is also saved to the artifacts folder.
 */
export async function canvasScreenshot(page, selector = 'canvas', { artifact } = {}) {
  const box = await canvasBox(page, selector);
  const png = await page.screenshot({ clip: box, animations: 'allow', caret: 'initial' });
  if (artifact) saveArtifact(artifact, png);
  return decodePng(png);
}

/**
 * `{ width, height, dominant, differing }` for the canvas: `differing` counts pixels that are
 * not the dominant (clear) colour. A canvas "draws" when `differing > 500`.
 */
export async function canvasStats(page, selector = 'canvas', options = {}) {
  return imageStats(await canvasScreenshot(page, selector, options));
}

/** How many pixels of the canvas changed between two screenshots taken `ms` apart. */
export async function changedPixelsOver(page, selector = 'canvas', ms = 700, { artifact } = {}) {
  const before = await canvasScreenshot(page, selector, { artifact: artifact && `${artifact}-a.png` });
  await page.waitForTimeout(ms);
  const after = await canvasScreenshot(page, selector, { artifact: artifact && `${artifact}-b.png` });
  return countChangedPixels(before, after);
}

/**
 * What a "draws and moves" check needs, measured from one first screenshot: `stats` (as
 * canvasStats) of the picture now, and `changed`, how many pixels differ from it `ms` later.
 * Take it right after a scene starts: a scene that settles within a second or two still shows
 * its motion even when the host is slow (two fresh screenshots might both come after it).
 * With `atLeast`, later screenshots are taken every `ms` until more than `atLeast` pixels
 * differ or `within` ms have passed, and `changed` is the most seen: a page that draws a frame
 * only every few hundred milliseconds under load still shows its motion.
 * With `artifact: 'name.png'` the first picture is saved.
 */
export async function drawnThenChanged(page, selector = 'canvas', ms = 400, { artifact, atLeast, within = ms } = {}) {
  const first = await canvasScreenshot(page, selector, { artifact });
  const deadline = Date.now() + within;
  let changed = 0;
  do {
    await page.waitForTimeout(ms);
    changed = Math.max(changed, countChangedPixels(first, await canvasScreenshot(page, selector)));
  } while (atLeast !== undefined && changed <= atLeast && Date.now() < deadline);
  return { stats: imageStats(first), changed };
}

/**
 * How many pixels of the canvas differ from `picture`, screenshot after screenshot every `ms`
 * until more than `atLeast` do or `within` ms have passed (the most seen). For a change that
 * shows a frame or two after it is made (a React state update, then a render), under any load.
 */
export async function changedFrom(page, picture, selector = 'canvas', { atLeast = 0, within = 5000, ms = 200, artifact } = {}) {
  const deadline = Date.now() + within;
  let changed = 0;
  for (;;) {
    const shot = await canvasScreenshot(page, selector, { artifact });
    changed = Math.max(changed, countChangedPixels(picture, shot));
    if (changed > atLeast || Date.now() >= deadline) return changed;
    await page.waitForTimeout(ms);
  }
}

/** True when two screenshots `ms` apart differ in more than `minPixels` pixels. */
export async function framesDiffer(page, selector = 'canvas', ms = 700, { minPixels = 20, artifact } = {}) {
  return (await changedPixelsOver(page, selector, ms, { artifact })) > minPixels;
}

/**
 * A real mouse drag in page pixels: move to `from`, press, move to `to` in `steps` moves,
 * hold for `holdMs`, call `whileHeld()` if given (to look at the page mid-drag), release.
 * Points are `{ x, y }` or `[x, y]`. With `pressed`, it is asked right after the press whether
 * the press took (say, grabbed the body meant): when it resolves to false, the mouse is released
 * where it pressed, without moving, and the drag resolves to false (a moving target may have
 * left the point read a moment before, and a caller can read it again and retry). Resolves to
 * true when the drag was made.
 */
export async function dragCanvas(page, from, to, { steps = 15, holdMs = 300, whileHeld, pressed } = {}) {
  const [fx, fy] = toXY(from, 'from');
  const [tx, ty] = toXY(to, 'to');
  await page.mouse.move(fx, fy);
  await page.mouse.down();
  try {
    if (pressed && !(await pressed())) return false;
    await page.mouse.move(tx, ty, { steps });
    if (holdMs > 0) await page.waitForTimeout(holdMs);
    await whileHeld?.();
    return true;
  } finally {
    await page.mouse.up();
  }
}

function toXY(point, name) {
  const xy = Array.isArray(point) ? point : [point?.x, point?.y];
  if (!Number.isFinite(xy[0]) || !Number.isFinite(xy[1])) {
    throw new Error(`dragCanvas: ${name} must be { x, y } or [x, y] with finite numbers, got ${JSON.stringify(point)}`);
  }
  return xy;
}
