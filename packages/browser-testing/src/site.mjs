/**
 * A built static site in its own browser: the one setup every app test file needs (launch
 * Chromium, serve the folder, open its page). One browser per test file, as the harness intends.
 */
import { launchBrowser } from './browser.mjs';
import { openPage } from './page.mjs';
import { serveStatic } from './static-server.mjs';

/**
 * Serves `dir`, launches Chromium and opens `path` of the site with `openPage` (its options go
 * through). Returns the opened page's fields plus `browser`, `server` and `close()`, which closes
 * all three (safe to call once more, or after a failed start).
 */
export async function openStaticSite(dir, path = '/', options = {}) {
  const [browser, server] = await Promise.all([launchBrowser(), serveStatic(dir)]);
  let opened;
  try {
    opened = await openPage(browser, `${server.url}${path}`, options);
  } catch (error) {
    await Promise.allSettled([browser.close(), server.close()]);
    throw error;
  }
  let closed = false;
  return {
    ...opened,
    browser,
    server,
    async close() {
      if (closed) return;
      closed = true;
      await opened.close();
      await browser.close();
      await server.close();
    },
  };
}
