import { encode } from 'fast-png';

/**
 * RGBA pixels (rows top to bottom) → an RGB PNG. The alpha channel of a rendered frame is always
 * opaque, so dropping it makes the file a quarter smaller for nothing.
 */
export function encodeRgbaAsPng(rgba: Uint8Array, widthPx: number, heightPx: number): Uint8Array {
  const n = widthPx * heightPx;
  if (rgba.length !== n * 4) throw new Error(`encodeRgbaAsPng: ${rgba.length} bytes for ${widthPx}×${heightPx} RGBA (expected ${n * 4})`);
  const rgb = new Uint8Array(n * 3);
  for (let p = 0, q = 0; p < n * 4; p += 4, q += 3) {
    rgb[q] = rgba[p];
    rgb[q + 1] = rgba[p + 1];
    rgb[q + 2] = rgba[p + 2];
  }
  // Low zlib effort: these images are made per motion, and level 9 costs ~3× the time for ~10%.
  return encode({ width: widthPx, height: heightPx, data: rgb, channels: 3, depth: 8 }, { zlib: { level: 3 } });
}
