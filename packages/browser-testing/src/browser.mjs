import { chromium } from 'playwright-core';

/** The system Chromium (Debian's `chromium` package). The harness never downloads a browser. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/**
 * Flags for headless WebGL through SwiftShader. `--enable-unsafe-swiftshader` is what keeps
 * WebGL working without a GPU; `--use-gl=swiftshader` without it fails to create a context.
 */
export const CHROMIUM_ARGS = Object.freeze([
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
  // Background tabs and occluded windows must keep animating: tests wait for frames.
  '--disable-background-timer-throttling',
  '--disable-backgrounding-occluded-windows',
  '--disable-renderer-backgrounding',
]);

/** Launches one headless Chromium. Launch one per test file and close it in `afterAll`. */
export async function launchBrowser({ args = [] } = {}) {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [...CHROMIUM_ARGS, ...args],
  });
}
