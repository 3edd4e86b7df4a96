import { inflateSync } from 'node:zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const CHANNELS = { 0: 1, 2: 3, 4: 2, 6: 4 }; // grey, RGB, grey+alpha, RGBA

/**
 * Decodes an 8-bit, non-interlaced PNG (what Chromium's screenshots are) into RGBA.
 * Returns `{ width, height, data }` with 4 bytes per pixel. Palette, 16-bit and
 * interlaced images are rejected with an error naming the field.
 */
export function decodePng(bytes) {
  const buf = Buffer.from(bytes.buffer ?? bytes, bytes.byteOffset ?? 0, bytes.byteLength ?? bytes.length);
  if (buf.length < 8 || !buf.subarray(0, 8).equals(SIGNATURE)) throw new Error('decodePng: not a PNG (bad signature)');

  let width = 0, height = 0, bitDepth = 0, colorType = 0, interlace = 0;
  const idat = [];
  for (let at = 8; at + 8 <= buf.length; ) {
    const length = buf.readUInt32BE(at);
    const type = buf.toString('latin1', at + 4, at + 8);
    const body = buf.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      bitDepth = body[8];
      colorType = body[9];
      interlace = body[12];
    } else if (type === 'IDAT') idat.push(body);
    else if (type === 'IEND') break;
    at += 12 + length;
  }
  if (bitDepth !== 8) throw new Error(`decodePng: bitDepth must be 8, got ${bitDepth}`);
  const channels = CHANNELS[colorType];
  if (!channels) throw new Error(`decodePng: colorType must be 0, 2, 4 or 6, got ${colorType}`);
  if (interlace !== 0) throw new Error(`decodePng: interlace must be 0, got ${interlace}`);

  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const pixels = unfilter(raw, width, height, channels);
  const data = new Uint8ClampedArray(width * height * 4);
  for (let i = 0, p = 0; p < width * height; p++, i += channels) {
    const o = p * 4;
    if (channels >= 3) {
      data[o] = pixels[i]; data[o + 1] = pixels[i + 1]; data[o + 2] = pixels[i + 2];
      data[o + 3] = channels === 4 ? pixels[i + 3] : 255;
    } else {
      data[o] = data[o + 1] = data[o + 2] = pixels[i];
      data[o + 3] = channels === 2 ? pixels[i + 1] : 255;
    }
  }
  if (pixels.length !== stride * height) throw new Error('decodePng: image data is truncated');
  return { width, height, data };
}

/** Undoes the per-row PNG filters (None, Sub, Up, Average, Paeth). */
function unfilter(raw, width, height, bpp) {
  const stride = width * bpp;
  const out = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const src = y * (stride + 1) + 1;
    const row = y * stride;
    const prev = row - stride;
    for (let x = 0; x < stride; x++) {
      const a = x >= bpp ? out[row + x - bpp] : 0;
      const b = y > 0 ? out[prev + x] : 0;
      const c = x >= bpp && y > 0 ? out[prev + x - bpp] : 0;
      let v = raw[src + x];
      switch (filter) {
        case 0: break;
        case 1: v += a; break;
        case 2: v += b; break;
        case 3: v += (a + b) >> 1; break;
        case 4: v += paeth(a, b, c); break;
        default: throw new Error(`decodePng: row filter must be 0..4, got ${filter}`);
      }
      out[row + x] = v & 0xff;
    }
  }
  return out;
}

function paeth(a, b, c) {
  const p = a + b - c;
  const pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}
