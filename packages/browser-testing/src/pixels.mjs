/**
 * Pure pixel arithmetic on decoded RGBA images (`{ width, height, data }`).
 * Two pixels "differ" when some channel differs by more than `tolerance`, which absorbs
 * the off-by-a-few noise of software rasterisation and tone mapping.
 */
export const DEFAULT_TOLERANCE = 8;

/** The most frequent exact RGB value, as 0xRRGGBB: the clear colour of a canvas. */
export function dominantColor(image) {
  const counts = new Map();
  const { data } = image;
  let best = 0, bestCount = -1;
  for (let i = 0; i < data.length; i += 4) {
    const rgb = (data[i] << 16) | (data[i + 1] << 8) | data[i + 2];
    const n = (counts.get(rgb) ?? 0) + 1;
    counts.set(rgb, n);
    if (n > bestCount) { best = rgb; bestCount = n; }
  }
  return best;
}

/** Pixels whose colour differs from `rgb` (0xRRGGBB). */
export function countPixelsDifferentFrom(image, rgb, tolerance = DEFAULT_TOLERANCE) {
  const r = (rgb >> 16) & 0xff, g = (rgb >> 8) & 0xff, b = rgb & 0xff;
  const { data } = image;
  let n = 0;
  for (let i = 0; i < data.length; i += 4) {
    if (Math.abs(data[i] - r) > tolerance || Math.abs(data[i + 1] - g) > tolerance || Math.abs(data[i + 2] - b) > tolerance) n++;
  }
  return n;
}

/** Pixels that differ between two images of the same size. */
export function countChangedPixels(a, b, tolerance = DEFAULT_TOLERANCE) {
  if (a.width !== b.width || a.height !== b.height) {
    throw new Error(`countChangedPixels: sizes differ (${a.width}x${a.height} vs ${b.width}x${b.height})`);
  }
  let n = 0;
  for (let i = 0; i < a.data.length; i += 4) {
    if (
      Math.abs(a.data[i] - b.data[i]) > tolerance ||
      Math.abs(a.data[i + 1] - b.data[i + 1]) > tolerance ||
      Math.abs(a.data[i + 2] - b.data[i + 2]) > tolerance
    ) n++;
  }
  return n;
}

/** `{ width, height, dominant, differing }`: how much of an image is not its background. */
export function imageStats(image, tolerance = DEFAULT_TOLERANCE) {
  const dominant = dominantColor(image);
  return { width: image.width, height: image.height, dominant, differing: countPixelsDifferentFrom(image, dominant, tolerance) };
}
