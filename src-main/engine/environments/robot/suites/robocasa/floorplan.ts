/**
 * The kitchen's floor plan as a model driving the base sees it (`state().floorPlan`): every
 * fixture's pose, footprint and front direction, every counter slab's footprint, in world xy.
 */
import type { Sim } from '../../../../sim/sim';
import type { ResultFieldDoc } from '../../../../primitives/types';
import type { Kitchen } from './kitchen';

export interface Footprint {
  min: [number, number];
  max: [number, number];
}
export interface PlanFixture extends Footprint {
  name: string;
  kind: string;
  position: [number, number];
  yaw: number;
  front: [number, number];
}
export interface FloorPlan {
  fixtures: PlanFixture[];
  counters: (Footprint & { name: string })[];
}

const r4 = (v: number): number => Number(v.toFixed(4));

/** The kitchen's fixtures and counter slabs on the floor (world xy, m), as `state().floorPlan` reports them. */
export function floorPlan(sim: Sim, kitchen: Kitchen): FloorPlan {
  const fixtures = kitchen.fixtures.map((pf) => {
    const c = Math.cos(pf.yaw);
    const s = Math.sin(pf.yaw);
    const hx = (Math.abs(c) * pf.fixture.depthM + Math.abs(s) * pf.fixture.widthM) / 2;
    const hy = (Math.abs(s) * pf.fixture.depthM + Math.abs(c) * pf.fixture.widthM) / 2;
    return {
      name: pf.fixture.name,
      kind: pf.fixture.kind,
      position: [r4(pf.pos[0]), r4(pf.pos[1])] as [number, number],
      yaw: r4(pf.yaw),
      front: [r4(-c), r4(-s)] as [number, number],
      min: [r4(pf.pos[0] - hx), r4(pf.pos[1] - hy)] as [number, number],
      max: [r4(pf.pos[0] + hx), r4(pf.pos[1] + hy)] as [number, number],
    };
  });
  const size = sim.model.geom_size as Float64Array;
  const xpos = sim.data.geom_xpos as Float64Array;
  const xmat = sim.data.geom_xmat as Float64Array;
  const counters = sim
    .names('geom')
    .map((name, id) => ({ name, id }))
    .filter((g) => /^counter_.*_top$/.test(g.name))
    .map(({ name, id }) => {
      const m = xmat.subarray(9 * id, 9 * id + 9);
      const hx = Math.abs(m[0]) * size[3 * id] + Math.abs(m[1]) * size[3 * id + 1];
      const hy = Math.abs(m[3]) * size[3 * id] + Math.abs(m[4]) * size[3 * id + 1];
      return {
        name: name.replace(/_top$/, ''),
        min: [r4(xpos[3 * id] - hx), r4(xpos[3 * id + 1] - hy)] as [number, number],
        max: [r4(xpos[3 * id] + hx), r4(xpos[3 * id + 1] + hy)] as [number, number],
      };
    });
  return { fixtures, counters };
}

export const FLOOR_PLAN_FIELD: ResultFieldDoc = {
  name: 'floorPlan',
  type: '{ fixtures: { name, kind, position: [x, y], yaw, front: [x, y], min: [x, y], max: [x, y] }[], counters: { name, min: [x, y], max: [x, y] }[] }',
  doc:
    "The kitchen's layout on the floor (world frame, m): each fixture's centre, its yaw, the unit direction its front " +
    "faces (where one stands to work it) and its footprint as a box (min and max corners); each counter slab's footprint. " +
    'Counters and fixtures stand in the way of the base.',
};
