/**
 * Binary pose frames: the 60 Hz body-pose stream travels outside JSON so that neither side
 * allocates per body. Layout (little endian):
 *   u8 opcode | u8 0 | u16 0 | u32 seq | f64 simTimeSec | u32 nbody | u32 streamId | f32[nbody*7]
 * Each body is position (x, y, z) then quaternion (w, x, y, z), in MuJoCo's world frame.
 */
export const POSE_OPCODE = 1;
export const POSE_HEADER_BYTES = 24;
export const POSE_FLOATS_PER_BODY = 7;

export interface PoseFrame {
  seq: number;
  simTimeSec: number;
  streamId: number;
  nbody: number;
  /** View into the frame's buffer: nbody * 7 floats. */
  poses: Float32Array;
}

export function encodePoseFrame(seq: number, simTimeSec: number, streamId: number, poses: ArrayLike<number>, nbody: number, out?: ArrayBuffer): ArrayBuffer {
  const bytes = POSE_HEADER_BYTES + nbody * POSE_FLOATS_PER_BODY * 4;
  const buf = out && out.byteLength === bytes ? out : new ArrayBuffer(bytes);
  const view = new DataView(buf);
  view.setUint8(0, POSE_OPCODE);
  view.setUint8(1, 0);
  view.setUint16(2, 0, true);
  view.setUint32(4, seq >>> 0, true);
  view.setFloat64(8, simTimeSec, true);
  view.setUint32(16, nbody, true);
  view.setUint32(20, streamId >>> 0, true);
  const floats = new Float32Array(buf, POSE_HEADER_BYTES, nbody * POSE_FLOATS_PER_BODY);
  for (let i = 0; i < floats.length; i++) floats[i] = poses[i];
  return buf;
}

/** Returns null for anything that is not a well-formed pose frame. */
export function decodePoseFrame(buf: ArrayBuffer): PoseFrame | null {
  if (buf.byteLength < POSE_HEADER_BYTES) return null;
  const view = new DataView(buf);
  if (view.getUint8(0) !== POSE_OPCODE) return null;
  const nbody = view.getUint32(16, true);
  if (buf.byteLength !== POSE_HEADER_BYTES + nbody * POSE_FLOATS_PER_BODY * 4) return null;
  return {
    seq: view.getUint32(4, true),
    simTimeSec: view.getFloat64(8, true),
    nbody,
    streamId: view.getUint32(20, true),
    poses: new Float32Array(buf, POSE_HEADER_BYTES, nbody * POSE_FLOATS_PER_BODY),
  };
}
