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
const { main, exitWhenIdle } = await import(pathToFileURL(entry).href);
// Neither a natural exit (it can hang in V8's teardown after Pyodide ran) nor process.exit at once
// (it crashed under an isolate's teardown): exitWhenIdle exits once no isolate is in flight.
await exitWhenIdle(await main(process.argv.slice(2)));
