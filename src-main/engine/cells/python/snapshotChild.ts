/**
 * The script of the short-lived process that makes the Pyodide snapshot (snapshot.ts starts it
 * with `node -e`). It has no inputs of its own: everything that shapes the snapshot comes over
 * stdin, so the cache key (snapshotKey) covers all of it.
 *
 * The child: reads the job (a JSON line, then the wasm, then the stdlib) from stdin, boots Pyodide
 * in an isolate as sandbox.ts does, runs the pre-imports, writes `<length>\n<bytes>` to stdout,
 * disposes the isolate and exits once its loop is empty (the exit cells/exit.ts explains).
 */
export const SNAPSHOT_CHILD_JS = String.raw`'use strict';
const chunks = [];
process.stdin.on('data', (c) => chunks.push(c));
process.stdin.on('end', () => {
  main().then(() => process.once('beforeExit', () => process.exit(0)), (err) => {
    process.stderr.write(String(err && err.stack || err) + '\n');
    process.exit(1);
  });
});
async function main() {
  const all = Buffer.concat(chunks);
  const nl = all.indexOf(10);
  const job = JSON.parse(all.subarray(0, nl).toString('utf8'));
  const wasm = all.subarray(nl + 1, nl + 1 + job.wasmBytes);
  const std = all.subarray(nl + 1 + job.wasmBytes);
  const ivm = require(job.ivmPath);
  const isolate = new ivm.Isolate({ memoryLimit: job.memoryLimitMb });
  try {
    const context = await isolate.createContext();
    const t = { timeout: job.timeoutMs };
    const stdlib = std.buffer.slice(std.byteOffset, std.byteOffset + std.byteLength);
    await context.evalClosure(job.shims, [new ivm.ExternalCopy(stdlib).copyInto(), new ivm.ExternalCopy(new WebAssembly.Module(wasm)).copyInto(), job.seed], t);
    await (await isolate.compileScript(job.asmScript, { filename: 'pyodide.asm.js' })).run(context, t);
    await (await isolate.compileScript(job.loaderScript, { filename: 'pyodide.js' })).run(context, t);
    const intr = new ivm.ExternalCopy(new SharedArrayBuffer(8)).copyInto();
    const bytes = await context.evalClosure(job.boot, [job.lockJson, null, true, null, null, intr, '', job.preimportPy], { ...t, result: { promise: true, copy: true } });
    const body = Buffer.from(bytes);
    await new Promise((res, rej) => process.stdout.write(Buffer.concat([Buffer.from(body.length + '\n'), body]), (e) => (e ? rej(e) : res())));
  } finally {
    if (!isolate.isDisposed) isolate.dispose();
  }
}
`;
