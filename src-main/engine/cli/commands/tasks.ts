import { parseArgs } from 'node:util';
import { TASKS } from '../../tasks/registry';
import type { Command } from '../command';

export const tasksCommand: Command = {
  name: 'tasks',
  summary: 'Lists the built-in tasks with their families, variants and instructions.',
  usage: 'robocell tasks [--json]',
  async run(argv) {
    const { values } = parseArgs({ args: argv, options: { json: { type: 'boolean', default: false } } });
    if (values.json) {
      const list = TASKS.map((t) => ({ id: t.id, family: t.family, robot: t.robot, instruction: t.instruction, paraphrases: t.paraphrases, variants: t.variants }));
      process.stdout.write(JSON.stringify(list, null, 2) + '\n');
      return 0;
    }
    const lines: string[] = [];
    for (const t of TASKS) {
      lines.push(`${t.id}  [${t.family}, ${t.robot}]`, `  ${t.instruction}`);
      for (const v of t.variants) lines.push(`    --variant ${v.id.padEnd(13)} ${v.doc}`);
    }
    lines.push('', `${TASKS.length} tasks; run one with: robocell solve --task ID [--variant V] [--seed N]`);
    process.stdout.write(lines.join('\n') + '\n');
    return 0;
  },
};
