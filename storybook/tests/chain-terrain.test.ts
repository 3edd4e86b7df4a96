/**
 * The chain-terrain story shows what it says: the ball rolls over the 200-vertex chain, stays on
 * it, and its speed never jumps in a step by more than gravity allows (a snag at a vertex would).
 */
import { launchBrowser, serveStatic, type OpenedPage, type StaticServer } from '@fulcrum/browser-testing';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { waitForReadout } from './readout';
import { openStory, STATIC_DIR } from './storybook-page';

const ID = 'scenes-chain-terrain--rolling-ball';
const READING = /ball at x (-?[\d.]+) m, ([\d.]+) m\/s · worst speed jump in a step beyond g·dt: ([\d.]+) m\/s · on the chain: (yes|no)/;

let browser: Browser;
let server: StaticServer;
let opened: OpenedPage;

beforeAll(async () => {
  server = await serveStatic(STATIC_DIR);
  browser = await launchBrowser();
  opened = await openStory(browser, server.url, ID);
});
afterAll(async () => {
  await opened?.close();
  await browser?.close();
  await server?.close();
});

it('the ball rolls across the terrain without a snag: no speed jump beyond g·dt, still on the chain', async () => {
  // Started at x = −9 at 4 m/s to the right: it has crossed the middle within a few seconds.
  const m = await waitForReadout(opened.page, 'chain-readings', READING, (m) => Number(m[1]) > 0);
  expect(Number(m[3]), 'worst speed jump beyond g·dt (m/s)').toBeLessThan(0.05);
  expect(m[4]).toBe('yes');
  opened.assertNoErrors(ID);
});
