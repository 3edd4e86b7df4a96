/**
 * The checks every story of the built Storybook gets, in headless Chromium (see
 * packages/browser-testing); stories-a.test.ts and stories-b.test.ts each take half of the
 * stories, so that two Chromiums run them side by side (vitest.config.ts):
 * - loads with no console error or uncaught exception, draws, and its bodies move (the probe);
 * - `settles` stories come to rest, and then render nothing (frameloop="demand") for 2 s;
 * - `joint` stories: a control change made through Storybook's channel, once the scene is
 *   asleep, wakes it and changes the picture, without remounting anything;
 * - a real mouse drag on a body moves it towards the pointer, and the picture; the debug toggle draws lines; reset
 *   remounts, and the remounted scene moves.
 * Screenshots go to test-artifacts/.
 */
import { canvasBox, canvasScreenshot, changedFrom, countChangedPixels, countRenderedFrames, dragCanvas, imageStats, launchBrowser, serveStatic, waitForProbe, type OpenedPage, type StaticServer } from '@fulcrum/browser-testing';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CANVAS, openStory, resetStoryArgs, sceneProbe, STATIC_DIR, updateStoryArgs, waitForRest, type SceneProbe, type StoryEntry } from './storybook-page';

/** Presses the drag test makes, 250 ms apart, before it calls a moving body ungrabbable. */
const MAX_PRESSES = 12;
/** About how long a press made through the browser's protocol takes to reach the page, ms. */
const PRESS_LATENCY_MS = 30;

/** Registers the checks for `stories` (one Chromium for them all). */
export function describeStories(stories: StoryEntry[]): void {
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

  describe.each(stories)('$title / $name', (story) => {
    const settles = story.tags.includes('settles');
    const joint = story.tags.includes('joint');
    let opened: OpenedPage;

    beforeAll(async () => {
      opened = await openStory(browser, server.url, story.id);
    });
    afterAll(async () => {
      await opened?.close();
    });

    it('draws and moves, with no console errors', async () => {
      // Motion is read from the probe: two pictures, late under CI load, can both come after a
      // short opening motion has ended. (The drag test checks that the picture follows a body.)
      const moving = (await waitForProbe(opened.page, (p) => (p.motion as number) > 0.05, { timeout: 30_000 })) as SceneProbe;
      expect(moving.motion, 'metres moved plus radians turned since the story opened').toBeGreaterThan(0.05);
      const stats = imageStats(await canvasScreenshot(opened.page, CANVAS, { artifact: `${story.id}-start.png` }));
      expect(stats.differing, 'pixels off the background').toBeGreaterThan(500);
      opened.assertNoErrors(story.id);
    });

    it.runIf(settles)('comes to rest, and then renders no frame for 2 s (frameloop="demand")', async () => {
      const probe = await waitForRest(opened);
      expect(probe.bodies).toBeGreaterThan(0);
      await canvasScreenshot(opened.page, CANVAS, { artifact: `${story.id}-rest.png` });
      expect(await countRenderedFrames(opened.page, 2000)).toBe(0);
      opened.assertNoErrors(story.id);
    });

    it.runIf(joint && settles)('a control change wakes the sleeping scene and changes it, in place', async () => {
      const before = await waitForRest(opened);
      expect(before.controlChange, 'joint stories set parameters.fulcrum.controlChange').toBeTruthy();
      const picture = await canvasScreenshot(opened.page, CANVAS);

      await updateStoryArgs(opened, story.id, before.controlChange!);
      // Woken: frames are rendered and some body is awake again.
      const woken = (await waitForProbe(opened.page, (p, frames) => p.frames > frames && (p.awakeBodies as number) > 0, { arg: before.frames, timeout: 30_000 })) as SceneProbe;
      expect(woken.awakeBodies).toBeGreaterThan(0);
      await opened.page.waitForTimeout(1500);
      const after = await canvasScreenshot(opened.page, CANVAS, { artifact: `${story.id}-control.png` });
      expect(countChangedPixels(picture, after), 'pixels changed by the control').toBeGreaterThan(200);

      const now = await sceneProbe(opened);
      expect(now.sceneMounts, 'the scene was not remounted').toBe(before.sceneMounts);
      expect(now.constraintIds, 'the same engine constraints').toEqual(before.constraintIds);
      expect(now.bodyIds, 'the same engine bodies').toEqual(before.bodyIds);
      opened.assertNoErrors(story.id);
    });

    it('dragging a body with the mouse moves it towards the pointer, and the picture with it', async () => {
      if (settles) await waitForRest(opened);
      const box = await canvasBox(opened.page, CANVAS);
      // A body that moves on its own (a rolling ball, a box on a belt) can leave the point read a
      // moment before the press: the press is checked (the probe's `grabbed`), and a missed one is
      // released and made again where the body is then, as a user would.
      let before: SceneProbe | undefined;
      let held: SceneProbe | undefined;
      let picture: Awaited<ReturnType<typeof canvasScreenshot>> | undefined;
      let changed = 0;
      let framesAfter = 0;
      let presses = 0;
      /** Where the pointer is held, in canvas pixels. */
      let pointer: [number, number] = [0, 0];
      for (let dragged = false; !dragged && presses < MAX_PRESSES; presses++) {
        if (presses > 0) await opened.page.waitForTimeout(250);
        picture = await canvasScreenshot(opened.page, CANVAS);
        const [probe, now] = await opened.page.evaluate(() => [globalThis.__fulcrum, performance.now()] as const);
        before = probe as SceneProbe;
        expect(before.dragTarget, 'the scene has a dynamic body to drag').toBeTruthy();
        const target = before.dragTarget!;
        // Where the body will be at the press: the probe's age, and a press's time to arrive.
        const lead = (now - before.publishedAt + PRESS_LATENCY_MS) / 1000;
        const [x, y] = [box.x + target.canvas[0] + target.velocity[0] * lead, box.y + target.canvas[1] + target.velocity[1] * lead];
        const [dx, dy] = before.dragBy;
        pointer = [x - box.x + dx, y - box.y + dy];
        dragged = await dragCanvas(opened.page, [x, y], [x + dx, y + dy], {
          holdMs: 800,
          pressed: async () => (await sceneProbe(opened)).grabbed === target.id,
          whileHeld: async () => {
            held = await sceneProbe(opened);
            // Looked for over up to 3 s, still held: under CI load a screenshot can show a frame
            // composited before the drag's.
            changed = await changedFrom(opened.page, picture!, CANVAS, { atLeast: 20, within: 3000, artifact: `${story.id}-dragged.png` });
            framesAfter = (await sceneProbe(opened)).frames;
          },
        });
      }
      expect(held, `the press grabbed the body (${presses} presses)`).toBeDefined();
      const [wx, wy] = before!.dragTarget!.world;
      const [hx, hy] = held!.dragTarget!.world;
      // The pointer goes ≥ 2.5 m away (≥ 100 px at ≤ 40 px/m). The soft drag joint pulls the body
      // part of the way; a pinned body only turns, and the motor story's motor pushes back.
      expect(Math.hypot(hx - wx, hy - wy), 'metres the grabbed point moved').toBeGreaterThan(0.25);
      // Towards the pointer: a body that moved on its own (one falling off the ground) is not dragged.
      const distance = ([cx, cy]: [number, number]) => Math.hypot(cx - pointer[0], cy - pointer[1]);
      expect(distance(held!.dragTarget!.canvas), 'pixels from the grabbed point to the pointer, held').toBeLessThan(distance(before!.dragTarget!.canvas));
      // The picture follows (≥ 0.25 m is ≥ 4 px even at the 2,000 boxes' 17 px/m). The message
      // tells "no frame rendered" from "frames rendered, picture unchanged".
      const frames = `frames rendered: ${held!.frames - before!.frames} until the pointer was read, ${framesAfter - before!.frames} until the last screenshot`;
      expect(changed, `pixels changed by the drag (${frames})`).toBeGreaterThan(20);
      opened.assertNoErrors(story.id);
    });

    it('the debug toggle changes the picture, and reset remounts the scene', async () => {
      const { sceneMounts: mounts, frames } = await sceneProbe(opened);
      const picture = await canvasScreenshot(opened.page, CANVAS);
      await opened.page.click('[data-testid="debug-toggle"]');
      // A frame rendered since the click (under CI load the heaviest story, 2,000 instanced boxes in
      // software WebGL, had drawn none within a fixed 500 ms), and at least 500 ms.
      await opened.page.waitForTimeout(500);
      await waitForProbe(opened.page, (p, f) => p.frames > f, { arg: frames, timeout: 30_000 });
      // The toggle shows in a frame or two after React has taken it: looked for over up to 5 s.
      const toggled = await changedFrom(opened.page, picture, CANVAS, { atLeast: 100, within: 5000, artifact: `${story.id}-debug-toggled.png` });
      expect(toggled, 'debug lines appear or disappear').toBeGreaterThan(100);

      // The story's own args again (the control test may have left, say, a motor pushing the lever
      // against the limit it starts at), then the scene's reset button.
      await resetStoryArgs(opened, story.id);
      await opened.page.click('[data-testid="reset"]');
      // The remounted scene steps: its bodies move (read from the probe, not from two pictures,
      // which under CI load can both come after a short motion has ended), and it draws.
      const remounted = (await waitForProbe(opened.page, (p, m) => p.sceneMounts === m + 1 && (p.motion as number) > 0.05, { arg: mounts, timeout: 30_000 })) as SceneProbe;
      expect(remounted.motion, 'metres moved plus radians turned since the reset').toBeGreaterThan(0.05);
      const stats = imageStats(await canvasScreenshot(opened.page, CANVAS, { artifact: `${story.id}-reset.png` }));
      expect(stats.differing, 'pixels off the background').toBeGreaterThan(500);
      opened.assertNoErrors(story.id);
    });
  });
}
