/**
 * Pyodide's files, prepared once per engine process for the isolates that run Python cells.
 *
 * Pyodide ships ES modules for browsers and Node; inside an isolated-vm isolate there is neither, so
 * its "shell" runtime is used (picked when `read`/`load` exist, see isolatePrelude.ts) and the
 * modules become plain scripts through a few text patches. The patches tie this file to one
 * Pyodide version: `mustReplace` fails loudly when an anchor moves.
 *
 * The wasm is compiled once here and handed to every isolate (asynchronous compilation never settles
 * inside an isolate), with its memory maximum rewritten: isolated-vm's `memoryLimit` covers the JS
 * heap only, so the wasm cap is what stops a Python memory bomb.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import ivm from 'isolated-vm';

const require = createRequire(import.meta.url);
// Node's WebAssembly global (the ES2023 lib the engine compiles against does not declare it).
const Wasm = (globalThis as unknown as { WebAssembly: { Module: new (bytes: Uint8Array) => WebAssembly.Module } }).WebAssembly;

/** The Pyodide release these patches were written against. */
export const PYODIDE_VERSION = '314.0.7';

export interface PyodideAssets {
  version: string;
  wasmMaxMb: number;
  module: ivm.ExternalCopy<WebAssembly.Module>;
  stdlib: ivm.ExternalCopy<ArrayBuffer>;
  lockJson: string;
  /** pyodide.asm.mjs as a script that defines `globalThis.__createPyodideModule`. */
  asmScript: string;
  /** pyodide.mjs as a script that defines `globalThis.__loadPyodide`. */
  loaderScript: string;
  /** sha256 over every byte above (the capped wasm, the stdlib, the scripts, the lock file): part of the snapshot cache's key. */
  contentSha256: string;
  prepMs: number;
}

export function pyodideDir(): string {
  return dirname(require.resolve('pyodide/package.json'));
}

function mustReplace(src: string, from: string, to: string): string {
  if (!src.includes(from)) throw new Error(`pyodide ${PYODIDE_VERSION} patch: anchor not found: ${from.slice(0, 60)}`);
  return src.split(from).join(to);
}

/**
 * Rewrites the maximum of the module's memory (section 5) in place. The new value is written as a
 * LEB128 of the same byte length, so no offset in the module moves.
 */
export function capWasmMemory(bytes: Uint8Array, maxPages: number): Uint8Array {
  let p = 8;
  const leb = (): number => {
    let r = 0;
    let s = 0;
    let c: number;
    do {
      c = bytes[p++];
      r += (c & 0x7f) * 2 ** s;
      s += 7;
    } while (c & 0x80);
    return r;
  };
  while (p < bytes.length) {
    const id = bytes[p++];
    const size = leb();
    const start = p;
    if (id === 5) {
      leb(); // number of memories
      const flags = bytes[p++];
      if (!(flags & 1)) throw new Error('the wasm memory declares no maximum');
      leb(); // initial pages
      const at = p;
      const oldMax = leb();
      const len = p - at;
      if (maxPages > oldMax) return bytes; // never raise the module's own limit
      if (maxPages >= 2 ** (7 * len)) throw new Error('the memory cap does not fit the encoding');
      for (let i = 0, v = maxPages; i < len; i++, v = Math.floor(v / 128)) bytes[at + i] = (v & 0x7f) | (i < len - 1 ? 0x80 : 0);
      return bytes;
    }
    p = start + size;
  }
  throw new Error('the wasm module has no memory section');
}

/**
 * Replaces Pyodide's `HEAP8.set(snapshot)` when a sandbox restores its memory snapshot. Half the
 * snapshot's 30 MiB is zero pages (the 10 MiB stack, free heap); copying them made every page of
 * the fresh wasm memory resident, and reading them from disk made the host's copy resident too
 * (snapshot.ts leaves them untouched). A 4 KiB page that is zero in the snapshot and still zero in
 * the memory (never touched: it reads as zero without becoming resident) is skipped; what the
 * memory holds is the same bytes either way. Runs inside the isolate, so it is plain JS text.
 */
export const RESTORE_HEAP_JS = `(heap, s) => {
  const P = 4096, n = s.length;
  if (s.byteOffset % 4 !== 0 || n % 4 !== 0 || heap.byteOffset !== 0 || heap.length < n) { heap.set(s); return; }
  const s32 = new Int32Array(s.buffer, s.byteOffset, n >> 2), d32 = new Int32Array(heap.buffer, 0, n >> 2);
  let run = -1;
  for (let p = 0; p < n; p += P) {
    const a = p >> 2, b = Math.min(n, p + P) >> 2;
    let zero = true;
    for (let i = a; i < b; i++) if (s32[i] !== 0) { zero = false; break; }
    if (zero) for (let i = a; i < b; i++) if (d32[i] !== 0) { zero = false; break; }
    if (!zero && run < 0) run = p;
    if (zero && run >= 0) { heap.set(s.subarray(run, p), run); run = -1; }
  }
  if (run >= 0) heap.set(s.subarray(run, n), run);
}`;

const cache = new Map<number, PyodideAssets>();

/** The wasm binary with its memory capped at `wasmMaxMb` (64 KiB pages, 16 per MiB). */
export function cappedWasmBytes(wasmMaxMb: number): Uint8Array {
  // the Buffer itself (a Uint8Array), not a copy: 9.6 MiB less garbage in the episode that first needs Python
  return capWasmMemory(readFileSync(join(pyodideDir(), 'pyodide.asm.wasm')), wasmMaxMb * 16);
}

export function pyodideAssets(wasmMaxMb: number): PyodideAssets {
  const hit = cache.get(wasmMaxMb);
  if (hit) return hit;
  const t0 = performance.now();
  const dir = pyodideDir();
  const version = String((JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version?: unknown }).version);
  if (version !== PYODIDE_VERSION) throw new Error(`Python cells need pyodide ${PYODIDE_VERSION}; node_modules has ${version}`);
  const wasm = cappedWasmBytes(wasmMaxMb);
  const module = new Wasm.Module(wasm);
  const std = readFileSync(join(dir, 'python_stdlib.zip'));
  let asm = readFileSync(join(dir, 'pyodide.asm.mjs'), 'utf8');
  asm = mustReplace(asm, 'import.meta.url', '"file:///pyodide/pyodide.asm.mjs"');
  asm = mustReplace(asm, 'export default _createPyodideModule;', 'globalThis.__createPyodideModule=_createPyodideModule;');
  // The shell runtime's random source wants d8's os.system; the prelude's crypto shim serves instead.
  asm = mustReplace(asm, 'var initRandomFill=()=>{', 'var initRandomFill=()=>{return view=>crypto.getRandomValues(view);');
  asm = mustReplace(asm, 'return Module.HEAP8.set(t),l', `return (${RESTORE_HEAP_JS})(Module.HEAP8,t),l`);
  let loader = readFileSync(join(dir, 'pyodide.mjs'), 'utf8');
  loader = mustReplace(loader, 'export{dt as loadPyodide,U as version}', 'globalThis.__loadPyodide=dt;');
  loader = loader.replace(/\/\/# sourceMappingURL=.*$/m, '');
  const lockJson = readFileSync(join(dir, 'pyodide-lock.json'), 'utf8');
  const asmScript = `(function(){${asm}\n})();`;
  const loaderScript = `(function(){${loader}\n})();`;
  const sha = createHash('sha256');
  for (const part of [wasm, std, asmScript, loaderScript, lockJson]) sha.update(part).update('\0');
  // A file this size is read into a Buffer of its own: its memory moves into the ExternalCopy
  // (transferOut) instead of being copied; a Buffer sharing its memory is copied out first.
  const ownsMemory = std.byteOffset === 0 && std.byteLength === std.buffer.byteLength;
  const stdlibBytes = ownsMemory ? (std.buffer as ArrayBuffer) : std.buffer.slice(std.byteOffset, std.byteOffset + std.byteLength);
  const assets: PyodideAssets = {
    version,
    wasmMaxMb,
    module: new ivm.ExternalCopy(module),
    stdlib: new ivm.ExternalCopy(stdlibBytes, { transferOut: true }),
    lockJson,
    asmScript,
    loaderScript,
    contentSha256: sha.digest('hex'),
    prepMs: 0,
  };
  assets.prepMs = performance.now() - t0;
  cache.set(wasmMaxMb, assets);
  return assets;
}
