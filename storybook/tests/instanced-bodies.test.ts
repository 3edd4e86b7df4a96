/**
 * The instanced-bodies story's `workers` arg, on the static Storybook (served cross-origin
 * isolated, as the Workers story's test says): by default no worker is asked for, and the line
 * under the canvas says so; with `workers:2` in the URL, up to two workers start (one fewer than the cores at most) and the 2000 boxes go
 * on stepping with them. (The story's other checks are story-checks.ts's, as for every story.)
 */
import { launchBrowser, openPage, readProbe, serveStatic, waitForProbe, type OpenedPage, type StaticServer } from '@fulcrum/browser-testing';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { waitForReadout } from './readout';
import { STATIC_DIR, storyUrl, type SceneProbe } from './storybook-page';

const ID = 'scenes-instanced-bodies--two-thousand-boxes';
const READINGS = 'instanced-workers';

let browser: Browser;
let server: StaticServer;
beforeAll(async () => {
  server = await serveStatic(STATIC_DIR);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function open(args: string): Promise<OpenedPage> {
  const opened = await openPage(browser, storyUrl(server.url, ID, args));
  await waitForProbe(opened.page, (p, id) => p.storyId === id && (p.frames as number) > 2 && (p.bodies as number) > 2000, { arg: ID, timeout: 60_000 });
  return opened;
}

it('asks for no workers by default, and says so', async () => {
  const opened = await open('');
  try {
    await waitForReadout(opened.page, READINGS, /^no workers asked for \(the page's thread only\) · cross-origin isolated: yes$/);
    const probe = (await readProbe(opened.page)) as SceneProbe & { workersRequested: number; workersRunning: number };
    expect([probe.workersRequested, probe.workersRunning]).toEqual([0, 0]);
    opened.assertNoErrors(ID);
  } finally {
    await opened.close();
  }
});

it('runs the workers the arg workers:2 asks for (at most one fewer than the cores), and the boxes go on stepping', async () => {
  const opened = await open('workers:2');
  try {
    const m = await waitForReadout(opened.page, READINGS, /^(\d+) of 2 workers running( \(\d+ cores: at most one fewer workers than cores start\))? · cross-origin isolated: yes$/);
    const cores = await opened.page.evaluate(() => navigator.hardwareConcurrency);
    expect(Number(m[1])).toBe(Math.min(2, cores - 1));
    // Fewer than asked for: the readout says why.
    expect(m[2] !== undefined, m[0]).toBe(Number(m[1]) < 2);
    // Frames go on being rendered (the boxes still fall) with the workers running.
    const { frames } = (await readProbe(opened.page))!;
    await waitForProbe(opened.page, (p, f) => (p.frames as number) > f + 5, { arg: frames, timeout: 60_000 });
    opened.assertNoErrors(ID);
  } finally {
    await opened.close();
  }
});
