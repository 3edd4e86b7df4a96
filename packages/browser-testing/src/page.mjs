/**
 * Console errors that are known to be harmless. Each entry says why it is allowed.
 * Keep this list short: every other `console.error` and every uncaught exception fails a test.
 */
export const ALLOWED_CONSOLE_ERRORS = Object.freeze([
  // three 0.187 + fiber 9.8.2 deprecation notice. Chromium reports it as a warning, but
  // allow it as an error too, so that a logger change in three cannot fail every test.
  { pattern: /THREE\.Clock.*deprecated/i, why: 'three.js deprecation notice, printed by @react-three/fiber 9.8.2' },
  // Chromium asks for /favicon.ico on its own; a site without one logs a 404 for it.
  { pattern: /^Failed to load resource: .*404/, url: /\/favicon\.ico$/, why: 'the browser\'s own favicon request' },
]);

/** The viewport every page gets, so screenshots and drag coordinates are reproducible. */
export const DEFAULT_VIEWPORT = Object.freeze({ width: 1000, height: 700 });

/**
 * Opens `url` in a fresh browser context with a fixed viewport and device scale 1, and records
 * every `console.error` and uncaught exception (`pageerror`) into `errors`.
 * Returns `{ page, errors, assertNoErrors, close }`; `close` closes the context.
 * Pass `allow: [RegExp]` to allow more messages (matched against the text) for this page only.
 */
export async function openPage(browser, url, { viewport = DEFAULT_VIEWPORT, allow = [], waitUntil = 'load' } = {}) {
  const context = await browser.newContext({ viewport, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const errors = [];
  const allowed = [...ALLOWED_CONSOLE_ERRORS, ...allow.map((pattern) => ({ pattern }))];
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const text = message.text();
    const where = message.location();
    if (allowed.some((a) => a.pattern.test(text) && (!a.url || a.url.test(where?.url ?? '')))) return;
    errors.push(`console.error: ${text}${where?.url ? ` (${where.url}:${where.lineNumber})` : ''}`);
  });
  page.on('pageerror', (error) => errors.push(`uncaught exception: ${error.stack ?? error.message}`));
  page.on('crash', () => errors.push('page crashed'));

  if (url) await page.goto(url, { waitUntil });
  return {
    page,
    errors,
    /** Throws an error listing every recorded console error and uncaught exception. */
    assertNoErrors(context = '') {
      if (errors.length > 0) {
        // A render loop can repeat one error every frame: show each distinct message once.
        const distinct = [...new Set(errors)];
        const shown = distinct.slice(0, 10).join('\n');
        const more = distinct.length > 10 ? `\n… and ${distinct.length - 10} more distinct errors` : '';
        throw new Error(`${context ? `${context}: ` : ''}page reported ${errors.length} error(s):\n${shown}${more}`);
      }
    },
    close: () => context.close(),
  };
}
