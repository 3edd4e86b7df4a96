/**
 * Node-side readers of the page's probe, `window.__fulcrum` (see probe.mjs and README.md for
 * the contract: `frames` counts rendered frames; any other field is app status).
 */

/** A JSON copy of `window.__fulcrum`, or null when the page exposes none. */
export async function readProbe(page) {
  return page.evaluate(() => {
    const probe = globalThis.__fulcrum;
    return probe ? JSON.parse(JSON.stringify(probe)) : null;
  });
}

/** Frames the page rendered during `ms` milliseconds, from `window.__fulcrum.frames`. */
export async function countRenderedFrames(page, ms) {
  const before = await readFrames(page);
  await page.waitForTimeout(ms);
  return (await readFrames(page)) - before;
}

async function readFrames(page) {
  const frames = await page.evaluate(() => globalThis.__fulcrum?.frames);
  if (typeof frames !== 'number') {
    throw new Error(
      `countRenderedFrames: window.__fulcrum.frames must be a number, got ${JSON.stringify(frames)} ` +
        '(install the counter with countRenders(gl) from @fulcrum/browser-testing/probe)',
    );
  }
  return frames;
}

/**
 * Waits until `predicate(window.__fulcrum)` is truthy in the page. The predicate is sent to
 * the page as source, so it must not use variables from the test's scope; pass those in `arg`:
 * `waitForProbe(page, (p, n) => p.frames > n, { arg: 10 })`.
 */
export async function waitForProbe(page, predicate, { timeout = 30_000, arg } = {}) {
  await page.waitForFunction(
    ({ source, arg }) => {
      const probe = globalThis.__fulcrum;
      // eslint-disable-next-line no-new-func
      return probe != null && Boolean(new Function(`return (${source})`)()(probe, arg));
    },
    { source: predicate.toString(), arg },
    { timeout, polling: 100 },
  );
  return readProbe(page);
}
