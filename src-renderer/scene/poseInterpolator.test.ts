import { describe, expect, it } from 'vitest';
import { PoseInterpolator } from './poseInterpolator';

const pose = (x: number, qw: number, qz: number) => Float32Array.from([x, 0, 0, qw, 0, 0, qz]);

describe('pose interpolation for a slow stream', () => {
  it('jumps on the first frame and on a seek, blends between streamed frames', () => {
    const p = new PoseInterpolator();
    p.push(pose(0, 1, 0), 1000, true);
    expect(Array.from(p.sample(1000))).toEqual(Array.from(pose(0, 1, 0)));
    p.push(pose(1, Math.SQRT1_2, Math.SQRT1_2), 1200, true);
    const mid = p.sample(1300);
    expect(mid[0]).toBeCloseTo(0.5, 5);
    expect(Math.hypot(mid[3], mid[4], mid[5], mid[6])).toBeCloseTo(1, 5);
    expect(Array.from(p.sample(1400))).toEqual(Array.from(pose(1, Math.SQRT1_2, Math.SQRT1_2)));
    p.push(pose(5, 1, 0), 1500, false);
    expect(p.sample(1500)[0]).toBe(5);
  });

  it('blends quaternions along the shorter arc', () => {
    const p = new PoseInterpolator();
    p.push(pose(0, 1, 0), 0, false);
    p.push(pose(0, -1, 0), 100, true);
    const q = p.sample(50);
    expect(Math.abs(q[3])).toBeCloseTo(1, 5);
  });
});
