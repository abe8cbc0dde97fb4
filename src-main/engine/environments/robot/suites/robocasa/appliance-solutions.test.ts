/**
 * The reference solutions of the tasks on the on-request fixtures, run through the primitives on
 * real sim state on a development kitchen, each judged unsolved before it runs and solved after
 * (the held-out table is `ROBOCASA_BENCH_SOLVE=1 npm run bench -- robocasa`); and the kettle and
 * toaster staying off while the robot only waits, so that a press is what turns them on.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createTaskWorld, runSolution, type TaskWorld } from '../../tasks/world';

let ep: TaskWorld | null = null;
afterEach(() => {
  ep?.dispose();
  ep = null;
});

describe('robocasa reference solutions on the on-request fixtures', () => {
  const turnedOn = async (w: TaskWorld, fixture: string): Promise<boolean> => {
    const s = (await w.registry.invoke('state', {})) as { fixtures: { name: string; status: Record<string, unknown> }[] };
    return s.fixtures.find((f) => f.name === fixture)?.status.turned_on === true;
  };

  for (const [task, fixture, target] of [
    ['TurnOnElectricKettle', 'electric_kettle', 'electric_kettle_switch'],
    ['PickPlaceToasterToCounter', 'toaster', 'toaster_lever'],
  ] as const) {
    it(`the ${fixture} stays off while the robot waits 8 s without touching it, and one press turns it on`, async () => {
      ep = await createTaskWorld({ taskId: `robocasa/${task}`, variant: 'default', seed: 0 });
      await ep.registry.invoke('wait', { seconds: 8 });
      expect(await turnedOn(ep, fixture)).toBe(false);
      if (task === 'TurnOnElectricKettle') expect(ep.judge().success).toBe(false);
      const r = (await ep.registry.invoke('press', { target })) as { pressed: boolean; turnedOn: boolean };
      expect(r).toMatchObject({ pressed: true, turnedOn: true });
      expect(await turnedOn(ep, fixture)).toBe(true);
    }, 60_000);
  }

  for (const task of ['CloseFridge', 'TurnOnElectricKettle', 'OpenStandMixerHead', 'CloseBlenderLid', 'PickPlaceToasterToCounter']) {
    it(`${task} is solved by its reference solution, and not before it runs`, async () => {
      ep = await createTaskWorld({ taskId: `robocasa/${task}`, variant: 'default', seed: 0 });
      expect(ep.judge().success).toBe(false);
      const r = await runSolution(ep);
      expect(r.error).toBeUndefined();
      expect(r.verdict.success, r.verdict.reason).toBe(true);
    }, 120_000);
  }
});
