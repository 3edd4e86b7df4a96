/**
 * The concave-shape story shows Polygon.decompose as a user sees it: the arch is several convex
 * pieces of one body, and it comes to rest over the pile with boxes inside its notch (under its
 * convex hull), where a convex body could not let them in.
 */
import { launchBrowser, serveStatic, type OpenedPage, type StaticServer } from '@fulcrum/browser-testing';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { waitForReadout } from './readout';
import { openStory, STATIC_DIR, waitForRest } from './storybook-page';

const ID = 'scenes-concave-shape--dropped-on-a-pile';
const READING = /arch: a 22-point outline in (\d+) convex pieces · pile corners in its notches: (\d+) · at y = (-?[\d.]+) m, at rest/;

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

it('the arch, in convex pieces, comes to rest on the pile with boxes in its notch', async () => {
  await waitForRest(opened, 60_000);
  const m = await waitForReadout(opened.page, 'concave-readings', READING);
  expect(Number(m[1]), 'convex pieces').toBeGreaterThan(1);
  expect(Number(m[2]), 'pile corners in the notch').toBeGreaterThanOrEqual(2);
  // On the pile (its feet above the bottom row's top, y = −4), not on the floor.
  expect(Number(m[3])).toBeGreaterThan(-4);
  opened.assertNoErrors(ID);
});
