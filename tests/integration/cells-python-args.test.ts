/**
 * Python `robo` arguments through the JSON encoder roboPy makes once (its circular-reference
 * markers are the one state it keeps between calls): a failed encode must leave nothing behind
 * for the next call, and an encode that runs cell code calling `robo` again must not share it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CellRuntime } from '../../src-main/engine/cells/cellRuntime';
import { createCellRuntime } from '../../src-main/engine/cells/factory';
import { closePythonPools } from '../../src-main/engine/cells/python/pool';
import { createFakeRobot, type FakeRobot } from './helpers/fakeRobot';

describe('Python robo arguments through the encoder made once', () => {
  let robot: FakeRobot;
  let rt: CellRuntime;
  beforeAll(async () => {
    robot = createFakeRobot();
    rt = await createCellRuntime({ language: 'python', registry: robot.registry, countSimSteps: robot.steps });
  });
  afterAll(async () => {
    await rt.dispose();
    await closePythonPools();
  });

  it('takes an argument again once what made its encode fail is fixed', async () => {
    // A refused encode leaves a marker for each container it was inside (held by the markers,
    // so their ids are not reused): without clearing them, the same dict sent again once fixed
    // reads as a cycle.
    const r = await rt.run(
      'target = {"xyz": [0.1, 0.2, 0.3], "bad": object()}\nerrors = []\ntry:\n    robo.echo(target)\nexcept PrimitiveError as e:\n    errors.append(str(e))\n' +
        'del target["bad"]\nloop = []\nloop.append(loop)\ntry:\n    robo.echo(loop)\nexcept PrimitiveError as e:\n    errors.append(str(e))\nloop.clear()\n' +
        '(len(errors), robo.echo(target).value, robo.echo(loop).value)',
    );
    expect(r).toMatchObject({ ok: true, value: "(2, {'xyz': [0.1, 0.2, 0.3]}, [])" });
  });

  it('encodes an argument whose items() calls robo, and one whose items() saw a refused call', async () => {
    const r = await rt.run(
      'class D(dict):\n    def items(self):\n        inner = []\n        inner.append(inner)\n        try:\n            robo.echo(inner)\n        except PrimitiveError:\n            pass\n        robo.echo(1)\n        return super().items()\n' +
        'robo.echo(D(x=[1, 2])).value',
    );
    expect(r).toMatchObject({ ok: true, value: "{'x': [1, 2]}" });
  });

  it('refuses what JSON cannot carry with a PrimitiveError, as json.dumps would', async () => {
    const r = await rt.run(
      'out = []\nfor v in (float("nan"), object(), {1: 2}, {(1, 2): 3}):\n    try:\n        robo.echo(v)\n        out.append("sent")\n    except PrimitiveError as e:\n        out.append(str(e).split(": ", 2)[-1])\nout',
    );
    expect(r.ok).toBe(true);
    const out = JSON.parse((r.value as string).replace(/'/g, '"')) as string[];
    expect(out[0]).toMatch(/Out of range float values are not JSON compliant/);
    expect(out[1]).toMatch(/Object of type object is not JSON serializable/);
    // int keys are written as strings, like json.dumps; a tuple key is refused
    expect(out[2]).toBe('sent');
    expect(out[3]).toMatch(/keys must be str, int, float, bool or None/);
  });
});
