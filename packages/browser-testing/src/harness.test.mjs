import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  canvasScreenshot,
  canvasStats,
  drawnThenChanged,
  changedFrom,
  countRenderedFrames,
  dragCanvas,
  framesDiffer,
  launchBrowser,
  openPage,
  openStaticSite,
  readProbe,
  serveStatic,
  waitForProbe,
} from './index.mjs';

// A synthetic site: each page exercises one harness function against a known answer.
const PAGES = {
  'index.html': '<!doctype html><title>index</title>',
  'app.mjs': 'export const x = 1;',
  'data.json': '{"a":1}',
  'mod.wasm': '\0asm',
  'style.css': 'body{}',
  'font.woff2': 'x',
  'icon.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
  // 200x100 black canvas with a 20x30 red rectangle: exactly 600 pixels off the background.
  'still.html': `<!doctype html><body style="margin:0"><canvas width="200" height="100" style="display:block"></canvas><script>
    const c = document.querySelector('canvas').getContext('2d');
    c.fillStyle = '#000'; c.fillRect(0, 0, 200, 100);
    c.fillStyle = '#f00'; c.fillRect(10, 10, 20, 30);
  </script></body>`,
  'moving.html': `<!doctype html><body style="margin:0"><canvas width="200" height="100" style="display:block"></canvas><script>
    const c = document.querySelector('canvas').getContext('2d');
    const tick = (t) => { c.fillStyle = '#000'; c.fillRect(0, 0, 200, 100); c.fillStyle = '#0f0';
      c.fillRect((t / 5) % 180, 40, 20, 20); requestAnimationFrame(tick); };
    requestAnimationFrame(tick);
  </script></body>`,
  'errors.html': `<!doctype html><script>
    console.error('THREE.Clock: This module has been deprecated.');
    console.warn('just a warning');
    console.error('boom');
    setTimeout(() => { throw new Error('uncaught kaboom'); });
  </script>`,
  // A fake renderer that renders on rAF while window.running is true.
  'frames.html': `<!doctype html><script type="module">
    import { countRenders, setProbe } from './probe.mjs';
    const renderer = { calls: 0, render() { this.calls++; } };
    countRenders(renderer);
    countRenders(renderer); // idempotent: still one count per render
    window.running = true;
    const tick = () => { if (window.running) renderer.render(); requestAnimationFrame(tick); };
    requestAnimationFrame(tick);
    setProbe({ ready: true });
    window.rendererCalls = () => renderer.calls;
  </script>`,
  'mouse.html': `<!doctype html><body style="margin:0;height:500px"><script>
    window.events = [];
    for (const type of ['mousedown', 'mousemove', 'mouseup'])
      addEventListener(type, (e) => events.push([type, e.clientX, e.clientY, e.buttons]));
  </script></body>`,
};

let dir;
let server;
let browser;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'browser-testing-'));
  for (const [name, text] of Object.entries(PAGES)) writeFileSync(join(dir, name), text);
  mkdirSync(join(dir, 'sub'));
  writeFileSync(join(dir, 'sub', 'index.html'), 'sub index');
  copyFileSync(new URL('./probe.mjs', import.meta.url), join(dir, 'probe.mjs'));
  server = await serveStatic(dir);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('serveStatic', () => {
  it.each([
    ['/app.mjs', 'text/javascript; charset=utf-8'],
    ['/data.json', 'application/json; charset=utf-8'],
    ['/mod.wasm', 'application/wasm'],
    ['/style.css', 'text/css; charset=utf-8'],
    ['/font.woff2', 'font/woff2'],
    ['/icon.svg', 'image/svg+xml'],
    ['/', 'text/html; charset=utf-8'],
  ])('serves %s as %s', async (path, type) => {
    const res = await fetch(server.url + path);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(type);
  });

  it('serves a directory index and 404s missing files and paths outside the root', async () => {
    expect(await (await fetch(`${server.url}/sub/`)).text()).toBe('sub index');
    expect((await fetch(`${server.url}/missing.js`)).status).toBe(404);
    expect((await fetch(`${server.url}/..%2fpackage.json`)).status).toBe(404);
  });

  it('rejects a root that is not a directory, naming it', async () => {
    await expect(serveStatic(join(dir, 'index.html'))).rejects.toThrow(/dir must be an existing directory.*index\.html/);
  });
});

describe('openPage', () => {
  it('records console errors and uncaught exceptions, but not allow-listed messages or warnings', async () => {
    const opened = await openPage(browser, `${server.url}/errors.html`);
    await opened.page.waitForTimeout(200);
    expect(opened.errors, opened.errors.join("\n")).toHaveLength(2);
    expect(opened.errors[0]).toMatch(/^console\.error: boom/);
    expect(opened.errors[1]).toMatch(/uncaught exception: .*uncaught kaboom/);
    expect(() => opened.assertNoErrors('errors.html')).toThrow(/errors\.html: page reported 2 error\(s\)/);
    await opened.close();
  });
});

describe('openStaticSite', () => {
  it('serves a folder in its own browser, opens the page, and closes all of it', async () => {
    const site = await openStaticSite(dir, '/sub/');
    expect(await site.page.textContent('body')).toBe('sub index');
    const url = site.server.url;
    await site.close();
    await site.close(); // a second close is harmless
    expect(site.browser.isConnected()).toBe(false);
    await expect(fetch(url)).rejects.toThrow();
  });
});

describe('canvas pixels', () => {
  it('counts pixels that differ from the background', async () => {
    const { page, close, assertNoErrors } = await openPage(browser, `${server.url}/still.html`);
    const stats = await canvasStats(page, 'canvas');
    expect(stats).toEqual({ width: 200, height: 100, dominant: 0x000000, differing: 600 });
    expect(await framesDiffer(page, 'canvas', 200)).toBe(false);
    expect(await drawnThenChanged(page, 'canvas', 200)).toEqual({ stats, changed: 0 });
    assertNoErrors();
    await close();
  });

  it('watches a still canvas for as long as it is asked to before it reports no change, and sees a late change', async () => {
    const { page, close } = await openPage(browser, `${server.url}/still.html`);
    const t0 = Date.now();
    const { changed } = await drawnThenChanged(page, 'canvas', 100, { atLeast: 20, within: 600 });
    expect(changed).toBe(0);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(600);
    const picture = await canvasScreenshot(page, 'canvas');
    // A change made 400 ms from now, after the first looks.
    await page.evaluate(() => setTimeout(() => document.querySelector('canvas').getContext('2d').fillRect(0, 0, 50, 50), 400));
    expect(await changedFrom(page, picture, 'canvas', { atLeast: 100, within: 3000, ms: 100 })).toBeGreaterThan(100);
    await close();
  });

  it('sees an animation as frames that differ', async () => {
    const { page, close } = await openPage(browser, `${server.url}/moving.html`);
    expect(await framesDiffer(page, 'canvas', 300)).toBe(true);
    const { stats, changed } = await drawnThenChanged(page, 'canvas', 300);
    expect(stats.width).toBe(200);
    expect(changed).toBeGreaterThan(20);
    await close();
  });
});

describe('frame probe', () => {
  it('counts renders while the app renders and none when it stops', async () => {
    const { page, close, assertNoErrors } = await openPage(browser, `${server.url}/frames.html`);
    await waitForProbe(page, (probe) => probe.ready === true && probe.frames > 0);
    expect(await countRenderedFrames(page, 300)).toBeGreaterThan(0);
    await page.evaluate(() => { window.running = false; });
    await page.waitForTimeout(50);
    expect(await countRenderedFrames(page, 300)).toBe(0);
    const probe = await readProbe(page);
    expect(probe.frames).toBe(await page.evaluate(() => window.rendererCalls()));
    assertNoErrors();
    await close();
  });

  it('says what is missing when the page has no probe', async () => {
    const { page, close } = await openPage(browser, `${server.url}/still.html`);
    await expect(countRenderedFrames(page, 10)).rejects.toThrow(/window\.__fulcrum\.frames must be a number, got undefined/);
    expect(await readProbe(page)).toBeNull();
    await close();
  });
});

describe('dragCanvas', () => {
  it('presses at the start point, moves, and releases at the end point', async () => {
    const { page, close } = await openPage(browser, `${server.url}/mouse.html`);
    await dragCanvas(page, [10, 20], { x: 110, y: 220 }, { steps: 4, holdMs: 0 });
    const events = await page.evaluate(() => window.events);
    const downs = events.filter((e) => e[0] === 'mousedown');
    const ups = events.filter((e) => e[0] === 'mouseup');
    expect(downs).toEqual([['mousedown', 10, 20, 1]]);
    expect(ups).toEqual([['mouseup', 110, 220, 0]]);
    expect(events.filter((e) => e[0] === 'mousemove' && e[3] === 1).length).toBe(4);
    await expect(dragCanvas(page, [0, NaN], [1, 1])).rejects.toThrow(/from must be .*got \[0,null\]/);
    await close();
  });

  it('releases where it pressed, without moving, when `pressed` says the press did not take', async () => {
    const { page, close } = await openPage(browser, `${server.url}/mouse.html`);
    let asked = 0;
    const refused = await dragCanvas(page, [30, 40], [130, 240], { steps: 4, holdMs: 0, pressed: async () => (asked++, false) });
    expect(refused).toBe(false);
    expect(asked).toBe(1);
    let events = await page.evaluate(() => window.events);
    expect(events.filter((e) => e[0] === 'mousedown')).toEqual([['mousedown', 30, 40, 1]]);
    expect(events.filter((e) => e[0] === 'mouseup')).toEqual([['mouseup', 30, 40, 0]]);
    expect(events.filter((e) => e[0] === 'mousemove' && e[3] === 1)).toEqual([]);
    // And a press that takes drags as before.
    await page.evaluate(() => (window.events.length = 0));
    expect(await dragCanvas(page, [30, 40], [130, 240], { steps: 4, holdMs: 0, pressed: async () => true })).toBe(true);
    events = await page.evaluate(() => window.events);
    expect(events.filter((e) => e[0] === 'mouseup')).toEqual([['mouseup', 130, 240, 0]]);
    expect(events.filter((e) => e[0] === 'mousemove' && e[3] === 1).length).toBe(4);
    await close();
  });
});
