import type { Browser, Page } from 'playwright-core';

export interface RgbaImage {
  width: number;
  height: number;
  /** 4 bytes per pixel, row-major. */
  data: Uint8ClampedArray;
}
export interface ImageStats {
  width: number;
  height: number;
  /** The most frequent colour, 0xRRGGBB. */
  dominant: number;
  /** Pixels that are not the dominant colour (beyond the tolerance). */
  differing: number;
}
export type PagePoint = { x: number; y: number } | readonly [number, number];

// browser.mjs
export declare const CHROMIUM_PATH: string;
export declare const CHROMIUM_ARGS: readonly string[];
export declare function launchBrowser(options?: { args?: string[] }): Promise<Browser>;

// static-server.mjs
export interface StaticServer {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  url: string;
  close(): Promise<void>;
}
export declare const MIME_TYPES: Readonly<Record<string, string>>;
export declare function mimeTypeFor(fileName: string): string;
export declare function serveStatic(dir: string): Promise<StaticServer>;
/** The headers that make a page cross-origin isolated (COOP and COEP): it then has SharedArrayBuffer. */
export declare const ISOLATION_HEADERS: Readonly<Record<string, string>>;

// page.mjs
/** `pattern` matches the message text; `url`, when given, the URL the message comes from. */
export declare const ALLOWED_CONSOLE_ERRORS: readonly { pattern: RegExp; url?: RegExp; why: string }[];
export declare const DEFAULT_VIEWPORT: Readonly<{ width: number; height: number }>;
export interface OpenedPage {
  page: Page;
  /** Every console.error (not allow-listed) and uncaught exception, in order. */
  errors: string[];
  assertNoErrors(context?: string): void;
  /** Closes the page's browser context. */
  close(): Promise<void>;
}
export declare function openPage(
  browser: Browser,
  url?: string,
  options?: {
    viewport?: { width: number; height: number };
    allow?: RegExp[];
    waitUntil?: 'load' | 'domcontentloaded' | 'networkidle' | 'commit';
  },
): Promise<OpenedPage>;

// site.mjs
export interface OpenedSite extends OpenedPage {
  browser: Browser;
  server: StaticServer;
  /** Closes the page, the browser and the server. */
  close(): Promise<void>;
}
export declare function openStaticSite(dir: string, path?: string, options?: Parameters<typeof openPage>[2]): Promise<OpenedSite>;

// canvas.mjs
export declare function canvasBox(page: Page, selector?: string): Promise<{ x: number; y: number; width: number; height: number }>;
export declare function canvasScreenshot(page: Page, selector?: string, options?: { artifact?: string }): Promise<RgbaImage>;
export declare function canvasStats(page: Page, selector?: string, options?: { artifact?: string }): Promise<ImageStats>;
export declare function changedPixelsOver(page: Page, selector?: string, ms?: number, options?: { artifact?: string }): Promise<number>;
export declare function drawnThenChanged(page: Page, selector?: string, ms?: number, options?: { artifact?: string; atLeast?: number; within?: number }): Promise<{ stats: ImageStats; changed: number }>;
export declare function changedFrom(page: Page, picture: RgbaImage, selector?: string, options?: { atLeast?: number; within?: number; ms?: number; artifact?: string }): Promise<number>;
export declare function framesDiffer(
  page: Page,
  selector?: string,
  ms?: number,
  options?: { minPixels?: number; artifact?: string },
): Promise<boolean>;
export declare function dragCanvas(
  page: Page,
  from: PagePoint,
  to: PagePoint,
  options?: { steps?: number; holdMs?: number; whileHeld?: () => Promise<unknown>; pressed?: () => Promise<boolean> },
): Promise<boolean>;

// pixels.mjs
export declare const DEFAULT_TOLERANCE: number;
export declare function dominantColor(image: RgbaImage): number;
export declare function countPixelsDifferentFrom(image: RgbaImage, rgb: number, tolerance?: number): number;
export declare function countChangedPixels(a: RgbaImage, b: RgbaImage, tolerance?: number): number;
export declare function imageStats(image: RgbaImage, tolerance?: number): ImageStats;

// png.mjs
export declare function decodePng(bytes: Uint8Array): RgbaImage;

// probe-reader.mjs
export interface Probe {
  frames: number;
  [field: string]: unknown;
}
export declare function readProbe(page: Page): Promise<Probe | null>;
export declare function countRenderedFrames(page: Page, ms: number): Promise<number>;
export declare function waitForProbe<A = undefined>(
  page: Page,
  predicate: (probe: Probe, arg: A) => unknown,
  options?: { timeout?: number; arg?: A },
): Promise<Probe>;

// artifacts.mjs
export declare function artifactsDir(): string;
export declare function saveArtifact(name: string, bytes: Uint8Array): string;
