/**
 * Driving one story in the built Storybook's iframe: open it, wait for the scene, change args
 * the way the Controls panel does (through the preview's channel), and read the probe.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { launchBrowser, openPage, readProbe, serveStatic, waitForProbe, type OpenedPage, type Probe, type StaticServer } from '@fulcrum/browser-testing';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';

export const STATIC_DIR = join(import.meta.dirname, '..', 'storybook-static');
export const CANVAS = '#storybook-root canvas';

export interface StoryEntry {
  id: string;
  title: string;
  name: string;
  tags: string[];
}

/** Every story in the built Storybook, from its index.json: a new story is tested automatically. */
export function listStories(): StoryEntry[] {
  return listEntries('story');
}

/** Every entry of one type (a story, or a docs page) in the built Storybook's index.json. */
/** Quarter `k` (0–3) of `stories`: every fourth, from place k. */
export function storiesInQuarter(stories: StoryEntry[], k: number): StoryEntry[] {
  return stories.filter((_, i) => i % 4 === k);
}

export function listEntries(type: 'story' | 'docs'): StoryEntry[] {
  const index = JSON.parse(readFileSync(join(STATIC_DIR, 'index.json'), 'utf8')) as { entries: Record<string, StoryEntry & { type: string }> };
  return Object.values(index.entries).filter((e) => e.type === type);
}

/** What the story helpers publish in `window.__fulcrum` (see stories/support/SceneProbe.tsx). */
export interface SceneProbe extends Probe {
  storyId: string;
  sceneMounts: number;
  awakeBodies: number;
  bodies: number;
  bodyIds: number[];
  constraintIds: number[];
  /** The drag handle in world metres, and in CSS pixels from the canvas's top-left corner. */
  dragTarget: { id: number; world: [number, number]; canvas: [number, number]; velocity: [number, number] } | null;
  /** performance.now() when the probe was published. */
  publishedAt: number;
  /** The id of the body the pointer holds, else null (before any drag: absent). */
  grabbed?: number | null;
  controlChange: Record<string, unknown> | null;
  /** Pointer travel for the drag test, CSS pixels [dx, dy]. */
  dragBy: [number, number];
  /** Metres moved plus radians turned by the dynamic bodies since this scene mounted. */
  motion: number;
}

/**
 * A story's own page (the preview iframe), drawn without antialiasing to spare the CPU (see
 * StoryFrame.tsx); `args` as Storybook's `&args=` parameter takes them.
 */
export function storyUrl(baseUrl: string, id: string, args?: string): string {
  return `${baseUrl}/iframe.html?id=${encodeURIComponent(id)}&viewMode=story&antialias=off${args ? `&args=${args}` : ''}`;
}

export async function openStory(browser: Browser, baseUrl: string, id: string): Promise<OpenedPage> {
  const opened = await openPage(browser, storyUrl(baseUrl, id));
  // The scene has mounted and rendered a few frames.
  await waitForProbe(opened.page, (p, storyId) => p.storyId === storyId && p.frames > 2 && typeof p.bodies === 'number', { arg: id, timeout: 60_000 });
  return opened;
}

export async function sceneProbe(opened: OpenedPage): Promise<SceneProbe> {
  return (await readProbe(opened.page)) as SceneProbe;
}

/** Waits until every dynamic body sleeps (and the scene has rendered since `afterFrame`). */
export async function waitForRest(opened: OpenedPage, timeout = 90_000): Promise<SceneProbe> {
  return (await waitForProbe(opened.page, (p) => p.awakeBodies === 0, { timeout })) as SceneProbe;
}

/**
 * Changes story args as the Controls panel does: an `updateStoryArgs` event on the preview's
 * channel. The preview re-renders the story with the new args (no remount).
 */
export async function updateStoryArgs(opened: OpenedPage, storyId: string, updatedArgs: Record<string, unknown>): Promise<void> {
  await emitOnChannel(opened, 'updateStoryArgs', { storyId, updatedArgs });
}

/** Puts every story arg back to its initial value, as the Controls panel's reset button does. */
export async function resetStoryArgs(opened: OpenedPage, storyId: string): Promise<void> {
  await emitOnChannel(opened, 'resetStoryArgs', { storyId });
}

async function emitOnChannel(opened: OpenedPage, event: string, data: Record<string, unknown>): Promise<void> {
  await opened.page.evaluate(
    ({ event, data }) => {
      const channel = (globalThis as { __STORYBOOK_ADDONS_CHANNEL__?: { emit(event: string, data: unknown): void } }).__STORYBOOK_ADDONS_CHANNEL__;
      if (!channel) throw new Error('no __STORYBOOK_ADDONS_CHANNEL__ in the story iframe');
      channel.emit(event, data);
    },
    { event, data },
  );
}

/**
 * For a test file about one story: opens it in headless Chromium before the file's tests and
 * closes the page, the browser and the server after them. Read `.opened` inside a test.
 */
export function openedStory(id: string): { readonly opened: OpenedPage } {
  let browser: Browser | undefined;
  let server: StaticServer | undefined;
  const story = { opened: undefined as unknown as OpenedPage };
  beforeAll(async () => {
    server = await serveStatic(STATIC_DIR);
    browser = await launchBrowser();
    story.opened = await openStory(browser, server.url, id);
  });
  afterAll(async () => {
    await story.opened?.close();
    await browser?.close();
    await server?.close();
  });
  return story;
}
