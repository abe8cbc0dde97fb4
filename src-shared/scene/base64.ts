/**
 * Base64 for typed arrays, written out because src-shared runs in the browser and in Node
 * (no Buffer) and btoa/atob need a binary string as large as the array. Little-endian, as every
 * platform the studio runs on.
 */
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const DECODE = new Int16Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) DECODE[ALPHABET.charCodeAt(i)] = i;

export function bytesToBase64(bytes: Uint8Array): string {
  const parts: string[] = [];
  const chunk = 3 * 4096;
  for (let start = 0; start < bytes.length; start += chunk) {
    const end = Math.min(start + chunk, bytes.length);
    let s = '';
    let i = start;
    for (; i + 2 < end; i += 3) {
      const n = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
      s += ALPHABET[n >> 18] + ALPHABET[(n >> 12) & 63] + ALPHABET[(n >> 6) & 63] + ALPHABET[n & 63];
    }
    if (i < end) {
      const b1 = i + 1 < end ? bytes[i + 1] : 0;
      const n = (bytes[i] << 16) | (b1 << 8);
      s += ALPHABET[n >> 18] + ALPHABET[(n >> 12) & 63] + (i + 1 < end ? ALPHABET[(n >> 6) & 63] : '=') + '=';
    }
    parts.push(s);
  }
  return parts.join('');
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
