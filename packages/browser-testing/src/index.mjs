export { artifactsDir, saveArtifact } from './artifacts.mjs';
export { CHROMIUM_ARGS, CHROMIUM_PATH, launchBrowser } from './browser.mjs';
export { canvasBox, canvasScreenshot, canvasStats, changedFrom, changedPixelsOver, dragCanvas, drawnThenChanged, framesDiffer } from './canvas.mjs';
export { ALLOWED_CONSOLE_ERRORS, DEFAULT_VIEWPORT, openPage } from './page.mjs';
export { countChangedPixels, countPixelsDifferentFrom, DEFAULT_TOLERANCE, dominantColor, imageStats } from './pixels.mjs';
export { decodePng } from './png.mjs';
export { countRenderedFrames, readProbe, waitForProbe } from './probe-reader.mjs';
export { ISOLATION_HEADERS, MIME_TYPES, mimeTypeFor, serveStatic } from './static-server.mjs';
export { openStaticSite } from './site.mjs';
