import { describe, expect, it } from 'vitest';
import { POSE_HEADER_BYTES, decodePoseFrame, encodePoseFrame } from './poses';

describe('binary pose frames', () => {
  it('round-trips sequence, time, stream and poses', () => {
    const poses = Float32Array.from({ length: 3 * 7 }, (_, i) => i * 0.5 - 3);
    const buf = encodePoseFrame(42, 1.25, 7, poses, 3);
    expect(buf.byteLength).toBe(POSE_HEADER_BYTES + 3 * 7 * 4);
    const f = decodePoseFrame(buf)!;
    expect(f).toMatchObject({ seq: 42, simTimeSec: 1.25, streamId: 7, nbody: 3 });
    expect(Array.from(f.poses)).toEqual(Array.from(poses));
  });

  it('reuses the given buffer when it has the right size', () => {
    const first = encodePoseFrame(1, 0, 0, new Float32Array(14), 2);
    expect(encodePoseFrame(2, 0, 0, new Float32Array(14), 2, first)).toBe(first);
  });

  it('rejects truncated frames and foreign opcodes', () => {
    const buf = encodePoseFrame(1, 0, 0, new Float32Array(14), 2);
    expect(decodePoseFrame(buf.slice(0, buf.byteLength - 4))).toBeNull();
    expect(decodePoseFrame(new ArrayBuffer(8))).toBeNull();
    new DataView(buf).setUint8(0, 9);
    expect(decodePoseFrame(buf)).toBeNull();
  });
});
