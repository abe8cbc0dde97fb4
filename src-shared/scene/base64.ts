/**
 * Base64 for typed arrays, written out because src-shared runs in the browser and in Node
 * (no Buffer) and btoa/atob need a binary string as large as the array. Little-endian, as every
 * platform the studio runs on.
 */
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const DECODE = new Int16Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) DECODE[ALPHABET.charCodeAt(i)] = i;

const ALPHABET_CODES = Uint8Array.from(ALPHABET, (c) => c.charCodeAt(0));
const PAD = 61; // '='
const ascii = new TextDecoder('latin1');

/** Writes ASCII codes into a byte array and decodes that once: string concatenation is ~30× slower. */
export function bytesToBase64(bytes: Uint8Array): string {
  const n = bytes.length;
  const out = new Uint8Array(Math.ceil(n / 3) * 4);
  let o = 0;
  let i = 0;
  for (; i + 2 < n; i += 3) {
    const v = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
    out[o++] = ALPHABET_CODES[v >> 18];
    out[o++] = ALPHABET_CODES[(v >> 12) & 63];
    out[o++] = ALPHABET_CODES[(v >> 6) & 63];
    out[o++] = ALPHABET_CODES[v & 63];
  }
  if (i < n) {
    const two = i + 1 < n;
    const v = (bytes[i] << 16) | ((two ? bytes[i + 1] : 0) << 8);
    out[o++] = ALPHABET_CODES[v >> 18];
    out[o++] = ALPHABET_CODES[(v >> 12) & 63];
    out[o++] = two ? ALPHABET_CODES[(v >> 6) & 63] : PAD;
    out[o++] = PAD;
  }
  return ascii.decode(out);
}

export function base64ToBytes(text: string): Uint8Array {
  let len = text.length;
  if (len % 4 !== 0) throw new Error(`base64 text has length ${len}, not a multiple of 4`);
  let pad = 0;
  if (len > 0 && text[len - 1] === '=') pad++;
  if (len > 1 && text[len - 2] === '=') pad++;
  const out = new Uint8Array((len / 4) * 3 - pad);
  len -= pad;
  let o = 0;
  for (let i = 0; i < len; i += 4) {
    let n = 0;
    for (let k = 0; k < 4; k++) {
      const c = i + k < len ? text.charCodeAt(i + k) : 65; // 'A' stands in for padding
      const v = c < 128 ? DECODE[c] : -1;
      if (v < 0) throw new Error(`invalid base64 character at offset ${i + k}`);
      n = (n << 6) | v;
    }
    out[o++] = (n >> 16) & 255;
    if (o < out.length) out[o++] = (n >> 8) & 255;
    if (o < out.length) out[o++] = n & 255;
  }
  return out;
}

export function float32ToBase64(a: Float32Array): string {
  return bytesToBase64(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
}

export function uint32ToBase64(a: Uint32Array): string {
  return bytesToBase64(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
}

export function base64ToFloat32(text: string): Float32Array {
  const bytes = base64ToBytes(text);
  if (bytes.length % 4 !== 0) throw new Error(`float32 data has ${bytes.length} bytes, not a multiple of 4`);
  return new Float32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4);
}

export function base64ToUint32(text: string): Uint32Array {
  const bytes = base64ToBytes(text);
  if (bytes.length % 4 !== 0) throw new Error(`uint32 data has ${bytes.length} bytes, not a multiple of 4`);
  return new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4);
}
