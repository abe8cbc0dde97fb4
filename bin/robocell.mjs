#!/usr/bin/env node
// The `robocell` CLI. The TypeScript sources are built to out/node by `npm install` (prepare).
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const entry = join(root, 'out', 'node', 'cli.mjs');
if (!existsSync(entry)) {
  console.error('robocell: the CLI is not built yet. Run `npm install` (or `npm run build:node`) in ' + root);
  process.exit(1);
}
const { main } = await import(pathToFileURL(entry).href);
// Exit explicitly: after Python cells ran, a natural exit can block in isolated-vm's teardown of
// the Pyodide isolates (seen on Node 20 with isolated-vm 5.0.4), although nothing is left to do.
process.exit(await main(process.argv.slice(2)));
