import { decode } from 'fast-png';
import { describe, expect, it } from 'vitest';
import { encodeRgbaAsPng } from './png';

function pixels(w: number, h: number): Uint8Array {
  const rgba = new Uint8Array(w * h * 4);
  let s = 12345;
  for (let i = 0; i < rgba.length; i++) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    rgba[i] = i % 4 === 3 ? 255 : s >>> 24;
  }
  return rgba;
}

describe('encodeRgbaAsPng', () => {
  for (const [w, h] of [
    [7, 5],
    [320, 240],
    [1, 1],
  ]) {
    it(`${w}×${h}: a standard RGB PNG that decodes to the same pixels`, () => {
      const rgba = pixels(w, h);
      const img = decode(encodeRgbaAsPng(rgba, w, h));
      expect([img.width, img.height, img.channels, img.depth]).toEqual([w, h, 3, 8]);
      const rgb = new Uint8Array(w * h * 3);
      for (let p = 0; p < w * h; p++) rgb.set(rgba.subarray(4 * p, 4 * p + 3), 3 * p);
      expect(Buffer.from(img.data as Uint8Array).equals(Buffer.from(rgb))).toBe(true);
    });
  }

  it('names a size that does not match the bytes', () => {
    expect(() => encodeRgbaAsPng(new Uint8Array(10), 2, 2)).toThrow(/10 bytes for 2×2 RGBA \(expected 16\)/);
  });
});
