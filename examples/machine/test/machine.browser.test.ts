/**
 * The built machine app in Chromium: it loads cleanly, draws and moves; a light load on the
 * hook breaks nothing and the scene comes to rest (then renders nothing); the heavy load snaps
 * at least one weld, which the "joints broken" counter shows.
 * The steps share one page and run in order.
 */
import { canvasStats, countRenderedFrames, drawnThenChanged, readProbe, waitForProbe, openStaticSite, type OpenedSite } from '@fulcrum/browser-testing';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const DIST = fileURLToPath(new URL('../dist', import.meta.url));
let opened: OpenedSite;

beforeAll(async () => {
  opened = await openStaticSite(DIST);
});
afterAll(() => opened?.close());

describe('machine example', () => {
  it('loads, draws the scene, and the pulley lift moves', async () => {
    const { page } = opened;
    await waitForProbe(page, (p) => p.frames > 0 && p.brokenJoints === 0 && typeof p.bodies === 'number');
    // The counterweighted bucket sinks and lifts the other one (measured from the first picture).
    const { stats, changed } = await drawnThenChanged(page, 'canvas', 400, { artifact: 'machine-start.png' });
    expect(stats.differing).toBeGreaterThan(500);
    expect(changed).toBeGreaterThan(20);
  });

  it('holds a light load, comes to rest, and then renders no frames', async () => {
    const { page } = opened;
    const before = (await readProbe(page))!.bodies as number;
    await page.getByRole('button', { name: /light load/ }).click();
    await waitForProbe(page, (p, n) => p.bodies === n + 1, { arg: before });
    await waitForProbe(page, (p) => p.awakeBodies === 0, { timeout: 40_000 });
    expect((await readProbe(page))!.brokenJoints).toBe(0);
    // Frames already requested when the last island fell asleep may still be drawn.
    await page.waitForTimeout(300);
    expect(await countRenderedFrames(page, 2000)).toBe(0);
    await canvasStats(page, 'canvas', { artifact: 'machine-light-load.png' });
  });

  it('breaks welds under the heavy load and counts them', async () => {
    const { page } = opened;
    await page.getByRole('button', { name: /heavy load/ }).click();
    const probe = await waitForProbe(page, (p) => (p.brokenJoints as number) > 0, { timeout: 20_000 });
    expect(probe.brokenJoints).toBeGreaterThan(0);
    await expect(page.getByTestId('broken-count').textContent()).resolves.toBe(String(probe.brokenJoints));
    await page.waitForTimeout(1000); // let the collapse show in the artifact
    await canvasStats(page, 'canvas', { artifact: 'machine-broken.png' });
  });

  it('reported no console errors or page errors', () => {
    opened.assertNoErrors('machine example');
  });
});
