import { describe, expect, it } from 'vitest';
import { base64ToBytes, base64ToFloat32, base64ToUint32, bytesToBase64, float32ToBase64, uint32ToBase64 } from './base64';

describe('base64', () => {
  it('matches the standard encoding for every padding length', () => {
    for (const text of ['', 'f', 'fo', 'foo', 'foob', 'fooba', 'foobar']) {
      const bytes = new TextEncoder().encode(text);
      expect(bytesToBase64(bytes)).toBe(btoa(text));
      expect(Array.from(base64ToBytes(btoa(text)))).toEqual(Array.from(bytes));
    }
  });
  it('round-trips typed arrays across chunk boundaries', () => {
    const f = Float32Array.from({ length: 10_001 }, (_, i) => Math.sin(i) * 1e3);
    expect(base64ToFloat32(float32ToBase64(f))).toEqual(f);
    const u = Uint32Array.from({ length: 4097 }, (_, i) => (i * 2654435761) >>> 0);
    expect(base64ToUint32(uint32ToBase64(u))).toEqual(u);
  });
  it('rejects malformed text', () => {
    expect(() => base64ToBytes('abc')).toThrow(/multiple of 4/);
    expect(() => base64ToBytes('ab!d')).toThrow(/invalid base64 character at offset 2/);
  });
});
