import { deflateSync } from 'node:zlib';

const CRC_TABLE = (() => {
  const t = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c;
  }
  return t;
})();

function crc32(bytes: Uint8Array, start: number, end: number): number {
  let c = -1;
  for (let i = start; i < end; i++) c = CRC_TABLE[(c ^ bytes[i]) & 255] ^ (c >>> 8);
  return (c ^ -1) >>> 0;
}

/** One PNG chunk: length, type, data, CRC over type and data. */
function chunk(type: string, data: Uint8Array): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  out.set(data, 8);
  out.writeUInt32BE(crc32(out, 4, 8 + data.length), 8 + data.length);
  return out;
}

const SIGNATURE = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]);

/**
 * RGBA pixels (rows top to bottom) → an 8-bit RGB PNG. The alpha channel of a rendered frame is
 * always opaque, so dropping it makes the file a quarter smaller for nothing. Compressed by Node's
 * native zlib at a low level with no row filter: these images are made per motion, and that is
 * about 8× faster than a JavaScript deflate with filters for files ~15% larger.
 */
export function encodeRgbaAsPng(rgba: Uint8Array, widthPx: number, heightPx: number): Uint8Array {
  const n = widthPx * heightPx;
  if (rgba.length !== n * 4) throw new Error(`encodeRgbaAsPng: ${rgba.length} bytes for ${widthPx}×${heightPx} RGBA (expected ${n * 4})`);
  const stride = widthPx * 3;
  // each row: filter byte 0 (none), then the row's RGB
  const raw = new Uint8Array((stride + 1) * heightPx);
  for (let y = 0, p = 0; y < heightPx; y++) {
    let q = y * (stride + 1) + 1;
    for (let x = 0; x < widthPx; x++, p += 4, q += 3) {
      raw[q] = rgba[p];
      raw[q + 1] = rgba[p + 1];
      raw[q + 2] = rgba[p + 2];
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(widthPx, 0);
  header.writeUInt32BE(heightPx, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: RGB
  // compression, filter method and interlace: 0
  const idat = deflateSync(raw, { level: 3 });
  return new Uint8Array(Buffer.concat([SIGNATURE, chunk('IHDR', header), chunk('IDAT', idat), chunk('IEND', new Uint8Array(0))]));
}
