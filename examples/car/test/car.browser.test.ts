/**
 * The built car app in Chromium: it loads cleanly, draws, drives right while → is held, and
 * once the car has rolled to a stop and fallen asleep, demand mode renders nothing.
 * The steps share one page and run in order.
 */
import { canvasStats, countRenderedFrames, framesDiffer, readProbe, waitForProbe, openStaticSite, type OpenedSite } from '@fulcrum/browser-testing';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

interface CarProbe {
  car: { x: number; y: number; speed: number; sleeping: boolean };
  awakeBodies: number;
}

const DIST = fileURLToPath(new URL('../dist', import.meta.url));
let opened: OpenedSite;

beforeAll(async () => {
  opened = await openStaticSite(DIST);
});
afterAll(() => opened?.close());

describe('car example', () => {
  it('loads, steps and draws the scene', async () => {
    const { page } = opened;
    await waitForProbe(page, (p) => p.frames > 0 && typeof p.car === 'object' && typeof p.steps === 'number' && (p.steps as number) > 0);
    await expect(page.getByRole('heading', { name: 'Car' }).isVisible()).resolves.toBe(true);
    const stats = await canvasStats(page, 'canvas', { artifact: 'car-start.png' });
    expect(stats.differing).toBeGreaterThan(500);
  });

  it('drives right while the right arrow is held, and the picture moves', async () => {
    const { page } = opened;
    const before = (await readProbe(page)) as unknown as CarProbe;
    await page.keyboard.down('ArrowRight');
    try {
      expect(await framesDiffer(page, 'canvas', 400, { artifact: 'car-driving' })).toBe(true);
      await waitForProbe(page, (p, x0) => (p.car as CarProbe['car']).x > x0 + 3, { arg: before.car.x, timeout: 20_000 });
    } finally {
      await page.keyboard.up('ArrowRight');
    }
    const after = (await readProbe(page)) as unknown as CarProbe;
    expect(after.car.x).toBeGreaterThan(before.car.x + 3);
    // Still upright on its wheels: the chassis is about 0.9 m above the flat ground.
    expect(after.car.y).toBeGreaterThan(0.5);
  });

  it('rolls to a stop, sleeps, and then renders no frames', async () => {
    const { page } = opened;
    await waitForProbe(page, (p) => p.awakeBodies === 0 && (p.car as CarProbe['car']).sleeping, { timeout: 30_000 });
    // Frames already requested when the car fell asleep may still be drawn.
    await page.waitForTimeout(300);
    expect(await countRenderedFrames(page, 2000)).toBe(0);
    // The stats overlay shows the resting state.
    await expect(page.locator('[data-stat="awakeIslands"]').textContent()).resolves.toBe('0');
  });

  it('reported no console errors or page errors', () => {
    opened.assertNoErrors('car example');
  });
});
