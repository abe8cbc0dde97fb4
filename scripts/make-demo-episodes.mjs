// Regenerates the bundled example episodes the studio opens on first start: one instance run by
// the offline heuristic agent through both arms. Run after changing tasks, primitives or the
// episode format: `node scripts/make-demo-episodes.mjs`.
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'assets', 'demo-episodes');
const instance = ['--task', 'st-tower-three', '--variant', 'default', '--seed', '0'];

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
for (const arm of ['code', 'tools']) {
  const line = execFileSync(process.execPath, [join(root, 'bin', 'robocell.mjs'), 'run', ...instance, '--arm', arm, '--model', 'heuristic', '--out', out, '--json'], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .at(-1);
  const r = JSON.parse(line);
  const name = `Example: ${arm === 'code' ? 'code arm' : 'tool-calling arm'} stacks three cubes (offline heuristic agent)`;
  writeFileSync(join(r.episodeDir, 'studio.json'), JSON.stringify({ name, parentId: null, forkedAtAction: null }, null, 2));
  console.log(`${arm}: success=${r.success} calls=${r.llmCalls} input=${r.inputTokens} → ${r.episodeDir}`);
}
