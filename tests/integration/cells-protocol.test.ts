import { describe, expect, it } from 'vitest';
import { CellRunResult, ServerFrame, type EventFrame } from '../../src-shared/protocol';
import { registerCellHandlers } from '../../src-main/engine/cells/handlers';
import { closePythonPools } from '../../src-main/engine/cells/python/pool';
import type { ClientContext } from '../../src-main/engine/rpc';
import { createFakeRobot } from './helpers/fakeRobot';

function client(): { ctx: ClientContext; events: EventFrame[]; abort(): void } {
  const events: EventFrame[] = [];
  const ac = new AbortController();
  return { ctx: { clientId: 1, emit: (e) => events.push(e), signal: ac.signal }, events, abort: () => ac.abort() };
}

describe('cells: protocol handlers', () => {
  it('runs cells in a session, streams output and images, and answers with the full result', async () => {
    const opened: string[] = [];
    let disposed = 0;
    const cells = registerCellHandlers({
      openWorld: async (instance) => {
        opened.push(instance.taskId);
        const robot = createFakeRobot();
        return { registry: robot.registry, countSimSteps: robot.steps, judge: () => ({ success: robot.state.finished, reason: robot.state.finished ? 'done' : 'not yet' }), dispose: () => disposed++ };
      },
    });
    const c = client();
    const instance = { taskId: 'fake', variant: 'default', seed: 0 };
    await expect(cells.handlers['cell/run']({ sessionId: 's1', code: '1' }, c.ctx)).rejects.toThrow(/give the task instance/);
    const r1 = await cells.handlers['cell/run']({ sessionId: 's1', instance, code: 'let n = 2;\nconsole.log("hi");\nrobo.show("top");\nn * 21' }, c.ctx);
    expect(CellRunResult.parse(r1)).toBeTruthy();
    expect(r1).toMatchObject({ sessionId: 's1', index: 1, ok: true, value: '42', stdout: 'hi\n', verdict: { success: false } });
    expect(r1.images[0].dataUrl).toMatch(/^data:image\/png;base64,/);
    const r2 = await cells.handlers['cell/run']({ sessionId: 's1', code: 'n' }, c.ctx);
    expect(r2.value).toBe('2');
    expect(opened).toEqual(['fake']);
    for (const e of c.events) expect(ServerFrame.safeParse(e).success).toBe(true);
    expect(c.events.map((e) => e.type)).toEqual(['cell/started', 'cell/output', 'cell/image', 'cell/ended', 'cell/started', 'cell/ended']);

    const refused = await cells.handlers['cell/run']({ sessionId: 's1', code: 'eval("1")' }, c.ctx);
    expect(refused.refused).toBe(true);
    const reported = await cells.handlers['cell/run']({ sessionId: 's1', code: 'eval("1")', audit: 'report' }, c.ctx);
    expect(reported).toMatchObject({ ok: true, value: '1' });

    const long = cells.handlers['cell/run']({ sessionId: 's1', code: 'while (true) {}', budget: { wallMs: 30_000 } }, c.ctx);
    await new Promise((r) => setTimeout(r, 100));
    await expect(cells.handlers['cell/run']({ sessionId: 's1', code: '1' }, c.ctx)).rejects.toThrow(/still running/);
    expect(await cells.handlers['cell/interrupt']({ sessionId: 's1' }, c.ctx)).toEqual({ interrupted: true });
    expect((await long).stop?.reason).toBe('interrupted');

    const d = client();
    const dropped = cells.handlers['cell/run']({ sessionId: 's1', code: 'while (true) {}', budget: { wallMs: 30_000 } }, d.ctx);
    await new Promise((r) => setTimeout(r, 100));
    d.abort();
    expect((await dropped).stop?.message).toContain('disconnected');

    expect(await cells.handlers['cell/close']({ sessionId: 's1' }, c.ctx)).toEqual({ closed: true });
    expect(disposed).toBe(1);
    expect(await cells.handlers['cell/close']({ sessionId: 's1' }, c.ctx)).toEqual({ closed: false });
    await cells.closeAll();
  });

  it('runs a Python session when the first cell names the language; the language is fixed per session', async () => {
    const cells = registerCellHandlers({
      openWorld: async () => {
        const robot = createFakeRobot();
        return { registry: robot.registry, countSimSteps: robot.steps, dispose: () => undefined };
      },
    });
    const c = client();
    const instance = { taskId: 'fake', variant: 'default', seed: 0 };
    try {
      const r1 = await cells.handlers['cell/run']({ sessionId: 'py', instance, language: 'python', code: 'n = 2\nprint("hi")\nn * 21' }, c.ctx);
      expect(CellRunResult.parse(r1)).toBeTruthy();
      expect(r1).toMatchObject({ ok: true, value: '42', stdout: 'hi\n' });
      expect((await cells.handlers['cell/run']({ sessionId: 'py', code: 'n' }, c.ctx)).value).toBe('2');
      await expect(cells.handlers['cell/run']({ sessionId: 'py', language: 'javascript', code: 'n' }, c.ctx)).rejects.toThrow(/runs python/);
    } finally {
      await cells.closeAll();
      await closePythonPools();
    }
  });
});
