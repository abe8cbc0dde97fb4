/**
 * robocasa/NavigateKitchen through both arms on a held-out kitchen: `move_base`'s documentation
 * (summary, arguments, result fields, errors) and the `base` and `floorPlan` state fields reach the
 * first request of each arm from the one registry; a plan that reads the floor plan, works out the
 * pose in front of the named fixture and drives there with `move_base` is judged a success in the
 * tool arm and in a JavaScript cell alike; a drive into the counter is an error the model reads.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Arm, Message, ToolDef } from '../../src-shared/episode';
import { DEFAULT_SETTINGS, initialContext, runEpisode } from '../../src-main/engine/agent/loop';
import { createRobotEnvironment } from '../../src-main/engine/environments/robot/robotEnvironment';
import { createScriptedModel, type CellPlan, type ToolPlan } from '../../src-main/engine/testing/scriptedModel';

const root = mkdtempSync(join(tmpdir(), 'robocell-navigate-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const TASK = { taskId: 'robocasa/NavigateKitchen', variant: 'heldout', seed: 3 };

interface PlanFixture {
  name: string;
  kind: string;
  position: [number, number];
  front: [number, number];
}

const requestText = (first: { tools: ToolDef[]; messages: Message[] }): string =>
  `${first.messages.map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content))).join('\n')}\n${JSON.stringify(first.tools)}`;

interface Plan {
  base: { position: [number, number] };
  floorPlan: {
    fixtures: (PlanFixture & { yaw: number; min: [number, number]; max: [number, number] })[];
    counters: { min: [number, number]; max: [number, number] }[];
  };
}

/**
 * What a model can work out from the conversation: the fixture the instruction names (the longest
 * kind found in it), the counter's front edge in front of it (the first point along its `front`
 * outside every footprint), and the pose as far off that edge as the robot stood off its first
 * counter, facing it. The cell runs this same function's source.
 */
function frontPose(s: Plan, instruction: string): { xy: [number, number]; yaw: number } {
  const words = (f: PlanFixture): string => f.kind.replace(/_/g, ' ');
  const said = instruction.toLowerCase();
  const f = s.floorPlan.fixtures.filter((g) => said.includes(words(g))).sort((a, b) => words(b).length - words(a).length)[0];
  const boxes = [...s.floorPlan.counters, ...s.floorPlan.fixtures];
  const inside = (p: [number, number]): boolean => boxes.some((b) => p[0] >= b.min[0] && p[0] <= b.max[0] && p[1] >= b.min[1] && p[1] <= b.max[1]);
  const edge = (g: PlanFixture): [number, number] => {
    let p = g.position;
    while (inside(p)) p = [p[0] + 0.01 * g.front[0], p[1] + 0.01 * g.front[1]];
    return p;
  };
  const b = s.base.position;
  const start = s.floorPlan.fixtures.filter((g) => g.yaw === 0).sort((g, h) => Math.abs(g.position[1] - b[1]) - Math.abs(h.position[1] - b[1]))[0];
  const q = edge(start);
  const off = Math.hypot(q[0] - b[0], q[1] - b[1]);
  const p = edge(f);
  return { xy: [p[0] + off * f.front[0], p[1] + off * f.front[1]], yaw: Math.atan2(-f.front[1], -f.front[0]) };
}

describe('robocasa/NavigateKitchen in both arms', () => {
  it("documents move_base and the base's state fields in both arms' first request", async () => {
    const env = await createRobotEnvironment(TASK, { language: 'javascript' });
    try {
      const tools = requestText(initialContext(env, 'tools', DEFAULT_SETTINGS));
      const code = requestText(initialContext(env, 'code', { ...DEFAULT_SETTINGS, language: 'javascript' }));
      const spec = env.registry.list().find((p) => p.name === 'move_base');
      expect(spec).toBeDefined();
      const state = env.registry.list().find((p) => p.name === 'state');
      const strings = [
        spec?.summary ?? '',
        ...(spec?.positional ?? []).flatMap((p) => [p.type, p.doc]),
        ...(spec?.returns ?? []).flatMap((r) => [r.type, r.doc]),
        ...(spec?.errors ?? []),
        ...(state?.returns ?? []).filter((r) => r.name === 'base' || r.name === 'floorPlan').flatMap((r) => [r.type, r.doc]),
      ];
      expect(strings.length).toBeGreaterThan(10);
      for (const s of strings) {
        const j = JSON.stringify(s).slice(1, -1);
        expect(tools.includes(s) || tools.includes(j), `tools arm lacks "${s}"`).toBe(true);
        expect(code.includes(s) || code.includes(j), `code arm lacks "${s}"`).toBe(true);
      }
    } finally {
      env.dispose();
    }
  });

  for (const arm of ['tools', 'code'] as const satisfies readonly Arm[]) {
    it(`${arm === 'tools' ? 'the tool arm' : 'a JavaScript cell'} reads the floor plan, drives in front of the named fixture, succeeds; a drive into the counter is an error it reads`, async () => {
      const language = 'javascript';
      const env = await createRobotEnvironment(TASK, { language });
      const seen: { error?: string } = {};
      const model = createScriptedModel({
        async *tools(): ToolPlan {
          const bump = yield { name: 'move_base', args: { xy: [0.5, 0], yaw: 0 } };
          seen.error = bump.text;
          const s = (yield { name: 'state', args: {} }).value as { result: Plan };
          const pose = frontPose(s.result, env.instruction);
          yield { name: 'move_base', args: { xy: pose.xy, yaw: pose.yaw } };
          return { status: 'success', summary: 'drove there' };
        },
        async *cells(): CellPlan {
          const r = yield { code: 'try { robo.move_base([0.5, 0], 0); } catch (e) { console.log(String(e)); }' };
          seen.error = r.text;
          yield {
            code: `const frontPose = ${frontPose.toString()};\nconst pose = frontPose(robo.state(), ${JSON.stringify(env.instruction)});\nrobo.move_base(pose.xy, pose.yaw);`,
          };
          return { status: 'success', summary: 'drove there' };
        },
      });
      try {
        const out = await runEpisode({ env, model, arm, settings: { ...DEFAULT_SETTINGS, cameras: [], language }, outRoot: root });
        expect(seen.error).toMatch(/met .*the base stopped at/);
        expect(out.success, out.reason).toBe(true);
      } finally {
        env.dispose();
      }
    }, 120_000);
  }
});
