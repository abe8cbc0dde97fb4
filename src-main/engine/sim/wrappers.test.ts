import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getMujoco, wasmHeapBytes } from './mujoco';
import { Sim } from './sim';
import { contactForce, getState, jacBody, jacSite, modelTimestepSec, ray, readContacts, setState, stateSize } from './wrappers';

const XML = `<mujoco><option timestep="0.005"/><worldbody><geom name="floor" type="plane" size="1 1 .1"/>
  <body name="cube" pos="0 0 0.3"><freejoint/><geom name="cube" type="box" size=".05 .05 .05" mass="1"/><site name="c" pos="0.05 0 0"/></body>
</worldbody></mujoco>`;

let sim: Sim;
beforeAll(async () => {
  sim = await Sim.loadString(XML);
  sim.step(200); // the cube rests on the floor
});
afterAll(() => sim.dispose());

describe('wrappers', () => {
  it('reads the timestep and frees the option struct', () => {
    expect(modelTimestepSec(sim.model)).toBe(0.005);
  });

  it('getState/setState round-trip bit exactly and check lengths', () => {
    const { mj, model, data } = sim;
    const s0 = getState(mj, model, data);
    expect(s0.length).toBe(stateSize(mj, model));
    sim.step(10);
    const s1 = getState(mj, model, data);
    setState(mj, model, data, s0);
    expect(getState(mj, model, data)).toEqual(s0);
    sim.step(10);
    expect(getState(mj, model, data)).toEqual(s1);
    expect(() => setState(mj, model, data, new Float64Array(3))).toThrow(/the state has 3 values, this model needs \d+/);
  });

  it('site and body Jacobians come back as plain arrays', () => {
    const { mj, model, data } = sim;
    const site = jacSite(mj, model, data, sim.requireId('site', 'c'));
    const body = jacBody(mj, model, data, sim.requireId('body', 'cube'));
    expect(site.jacp.length).toBe(3 * model.nv);
    // a pure translation of the free joint moves site and body alike
    for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) expect(site.jacp[r * model.nv + c]).toBeCloseTo(r === c ? 1 : 0, 9);
    expect(body.jacr).toEqual(site.jacr);
    expect(() => jacSite(mj, model, data, 5)).toThrow(/no site with id 5/);
    expect(() => jacBody(mj, model, data, -1)).toThrow(/no body with id -1/);
  });

  it('contact forces of a resting cube carry its weight', () => {
    const { mj, model, data } = sim;
    const contacts = readContacts(data);
    expect(contacts.length).toBe(data.ncon);
    let normal = 0;
    for (let i = 0; i < contacts.length; i++) normal += contactForce(mj, model, data, i)[0];
    expect(normal).toBeCloseTo(9.81, 1);
    expect(() => contactForce(mj, model, data, contacts.length)).toThrow(/no contact/);
  });

  it('a ray down from above hits the cube top, and with the cube excluded the floor', () => {
    const { mj, model, data } = sim;
    const hit = ray(mj, model, data, [0, 0, 1], [0, 0, -1]);
    expect(hit.geomId).toBe(sim.id('geom', 'cube'));
    expect(hit.dist).toBeCloseTo(1 - 0.1, 2);
    expect(hit.normal[2]).toBeCloseTo(1, 6);
    const floor = ray(mj, model, data, [0, 0, 1], [0, 0, -1], { bodyExclude: sim.id('body', 'cube') });
    expect(floor.geomId).toBe(sim.id('geom', 'floor'));
    expect(floor.dist).toBeCloseTo(1, 6);
    const miss = ray(mj, model, data, [0, 0, 1], [0, 0, 1]);
    expect(miss).toMatchObject({ dist: -1, geomId: -1 });
  });

  it('repeated calls do not grow the heap', async () => {
    const mj = await getMujoco();
    const { model, data } = sim;
    const before = wasmHeapBytes(mj);
    for (let i = 0; i < 5000; i++) {
      getState(mj, model, data);
      jacSite(mj, model, data, 0);
      readContacts(data);
      ray(mj, model, data, [0, 0, 1], [0, 0, -1]);
      contactForce(mj, model, data, 0);
      modelTimestepSec(model);
    }
    expect(wasmHeapBytes(mj)).toBe(before);
  });
});
