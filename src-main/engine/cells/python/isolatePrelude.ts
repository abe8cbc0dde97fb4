/**
 * Scripts that run inside a Python cell's isolate. Nothing in the isolate may ever reach a host
 * object: Python can run any JavaScript there (`pyodide_js.runPython.constructor` is `Function`), so
 * the isolate's only doors are two host functions that take and return strings (`robo` calls, which
 * the bridge validates like any cell's, and output lines), held in closures and never in a global.
 *
 * SHIMS runs first, as `evalClosure(SHIMS, [stdlib, wasmModule, seed])`: it makes Pyodide pick its
 * "shell" runtime (`read`/`load` defined; binaries come from `readbuffer`), makes wasm compilation
 * synchronous (the asynchronous API never settles in an isolate), and adds what the shell runtime
 * expects of a JS engine (TextEncoder/TextDecoder, console, performance, crypto). `crypto` is a
 * seeded generator, so `os.urandom` (and anything seeded from it) replays identically.
 *
 * BOOT runs after Pyodide's own scripts: it loads Pyodide (from a memory snapshot when given one),
 * installs the driver and returns the functions the host calls per cell.
 */
export const SHIMS = String.raw`'use strict';
(function (stdlib, wmod, seed) {
  const G = globalThis;
  // console output of Pyodide itself (warnings) goes nowhere: a cell's output is captured in Python.
  const quiet = () => undefined;
  G.console = { log: quiet, info: quiet, warn: quiet, error: quiet, debug: quiet };
  const t0 = Date.now();
  G.performance = { now: () => Date.now() - t0, timeOrigin: t0 };
  // splitmix32: deterministic bytes for os.urandom and Python's hash/random seeding.
  let s = seed >>> 0;
  const next = () => { s = (s + 0x9e3779b9) >>> 0; let z = s; z = Math.imul(z ^ (z >>> 16), 0x85ebca6b); z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35); return (z ^ (z >>> 16)) >>> 0; };
  G.crypto = { getRandomValues(v) { const b = new Uint8Array(v.buffer, v.byteOffset, v.byteLength); for (let i = 0; i < b.length; i++) b[i] = next() & 255; return v; } };
  const WASM_MARKER = new ArrayBuffer(8);
  G.read = (p) => { throw new Error('read() not available: ' + p); };
  G.load = (p) => { throw new Error('load() not available: ' + p); };
  G.readbuffer = (p) => {
    if (String(p).endsWith('python_stdlib.zip')) return stdlib;
    if (String(p).endsWith('pyodide.asm.wasm')) return WASM_MARKER;
    throw new Error('no such file: ' + p);
  };
  const W = WebAssembly;
  W.compile = async (b) => new W.Module(b);
  W.instantiate = async (src, imp) => {
    if (src instanceof W.Module) return new W.Instance(src, imp);
    const m = src && src.buffer === WASM_MARKER ? wmod : new W.Module(src);
    return { module: m, instance: new W.Instance(m, imp) };
  };
  delete W.instantiateStreaming; delete W.compileStreaming;
  // Minimal TextEncoder / TextDecoder (utf-8, utf-16le, latin1/ascii)
  class TextEncoder {
    get encoding() { return "utf-8"; }
    encode(s = "") { const a = new Uint8Array(s.length * 3); return a.slice(0, this.encodeInto(s, a).written); }
    encodeInto(s, a) {
      let i = 0, j = 0;
      for (; i < s.length; i++) {
        let c = s.charCodeAt(i);
        if (c >= 0xd800 && c < 0xdc00 && i + 1 < s.length) {
          const d = s.charCodeAt(i + 1);
          if (d >= 0xdc00 && d < 0xe000) { c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00); }
        } else if (c >= 0xd800 && c < 0xe000) c = 0xfffd;
        const n = c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
        if (j + n > a.length) break;
        if (n === 1) a[j++] = c;
        else if (n === 2) { a[j++] = 0xc0 | (c >> 6); a[j++] = 0x80 | (c & 63); }
        else if (n === 3) { a[j++] = 0xe0 | (c >> 12); a[j++] = 0x80 | ((c >> 6) & 63); a[j++] = 0x80 | (c & 63); }
        else { a[j++] = 0xf0 | (c >> 18); a[j++] = 0x80 | ((c >> 12) & 63); a[j++] = 0x80 | ((c >> 6) & 63); a[j++] = 0x80 | (c & 63); i++; }
      }
      return { read: i, written: j };
    }
  }
  class TextDecoder {
    constructor(enc = "utf-8", opts = {}) {
      enc = String(enc).toLowerCase();
      if (enc === "utf8" || enc === "unicode-1-1-utf-8") enc = "utf-8";
      if (enc === "ascii" || enc === "iso-8859-1" || enc === "us-ascii") enc = "latin1";
      if (!["utf-8", "utf-16le", "latin1"].includes(enc)) throw new RangeError("unsupported encoding " + enc);
      this.encoding = enc; this.fatal = !!opts.fatal; this.ignoreBOM = !!opts.ignoreBOM;
    }
    decode(buf) {
      if (buf === undefined) return "";
      const b = buf instanceof ArrayBuffer || (typeof SharedArrayBuffer !== "undefined" && buf instanceof SharedArrayBuffer)
        ? new Uint8Array(buf) : new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
      let s = "", parts = [];
      const flush = (codes) => { parts.push(String.fromCharCode.apply(null, codes)); };
      if (this.encoding === "latin1") { for (let i = 0; i < b.length; i += 8192) flush(b.subarray(i, i + 8192)); return parts.join(""); }
      if (this.encoding === "utf-16le") { const u = []; for (let i = 0; i + 1 < b.length; i += 2) { u.push(b[i] | (b[i + 1] << 8)); if (u.length > 8190) { flush(u); u.length = 0; } } flush(u); return parts.join(""); }
      let u = [], i = 0;
      if (!this.ignoreBOM && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) i = 3;
      const bad = () => { if (this.fatal) throw new TypeError("The encoded data was not valid for encoding utf-8"); u.push(0xfffd); };
      while (i < b.length) {
        const c = b[i];
        let n = c < 0x80 ? 0 : c >= 0xc2 && c < 0xe0 ? 1 : c >= 0xe0 && c < 0xf0 ? 2 : c >= 0xf0 && c < 0xf5 ? 3 : -1;
        if (n < 0) { bad(); i++; continue; }
        let cp = n === 0 ? c : c & (0x3f >> n), k = 1;
        for (; k <= n; k++) { const d = b[i + k]; if (d === undefined || (d & 0xc0) !== 0x80) break; cp = (cp << 6) | (d & 63); }
        if (k <= n || (n === 2 && (cp < 0x800 || (cp >= 0xd800 && cp < 0xe000))) || (n === 3 && (cp < 0x10000 || cp > 0x10ffff))) { bad(); i += Math.max(1, k); continue; }
        i += n + 1;
        if (cp >= 0x10000) { cp -= 0x10000; u.push(0xd800 + (cp >> 10), 0xdc00 + (cp & 0x3ff)); } else u.push(cp);
        if (u.length > 8190) { flush(u); u = []; }
      }
      flush(u);
      return parts.join("");
    }
  }
  G.TextEncoder = TextEncoder; G.TextDecoder = TextDecoder;
})($0, $1, $2);
`;

/**
 * `evalClosure(BOOT, [lockJson, snapshot|null, makeSnapshot, hostCall, hostLog, interruptSab, driverPy, preimportPy])`,
 * awaited. With `makeSnapshot` it resolves to the snapshot's bytes; otherwise to the driver object
 * (taken by reference): `run(code, cellName) → json`, `install(specsJson, limitsJson)`, `memoryBytes()`.
 */
export const BOOT = String.raw`'use strict';
// The snapshot's bytes sit in a box the thenable below empties: Pyodide keeps its options
// (API.config, reachable from a cell) for good, and so they would keep 30 MiB alive per sandbox.
const snapshotBox = { bytes: $1 }, snapshot = $1 !== null;
const lockJson = $0, makeSnapshot = $2, hostCall = $3, hostLog = $4, intrSab = $5, driverPy = $6, preimportPy = $7;
const G = globalThis;
const ReflectApply = Reflect.apply, StringCtor = String, JsonStringify = JSON.stringify;
const applySyncPromise = hostCall && hostCall.applySyncPromise, applyIgnored = hostLog && hostLog.applyIgnored;
const loadPyodide = G.__loadPyodide, createModule = G.__createPyodideModule;
delete G.__loadPyodide; delete G.__createPyodideModule;
return (async () => {
  const py = await loadPyodide({
    indexURL: '/pyodide/', packageBaseUrl: '/pyodide/', lockFileContents: JSON.parse(lockJson),
    createPyodideModule: createModule,
    jsglobals: {},
    env: { PYTHONHASHSEED: '0', PYTHONDONTWRITEBYTECODE: '1' },
    stdout: () => undefined, stderr: () => undefined,
    ...(makeSnapshot ? { _makeSnapshot: true } : {}),
    ...(snapshot ? { _loadSnapshot: { then: (ok) => { const b = snapshotBox.bytes; snapshotBox.bytes = null; ok(new Uint8Array(b)); } } } : {}),
  });
  delete G.read; delete G.load; delete G.readbuffer;
  if (makeSnapshot) {
    py.runPython(preimportPy);
    return py.makeMemorySnapshot().buffer;
  }
  // fd-level writes (os.write(1, …)) are counted, never kept: cells print through sys.stdout.
  const sink = { write: (buf) => buf.length };
  py.setStdout(sink); py.setStderr(sink);
  py.setStdin({ stdin: () => null });
  const host = {
    // one string, '<name> <repeats> <argument JSON>' (cells/bridge.ts handleMessage): a single copy across
    // the isolate boundary and a single conversion out of Python
    call: (message) => ReflectApply(applySyncPromise, hostCall, [undefined, [StringCtor(message)]]),
    log: (level, text) => { ReflectApply(applyIgnored, hostLog, [undefined, [StringCtor(level), StringCtor(text)]]); },
  };
  py.registerJsModule('_robocell_host', host);
  const intr = new Int32Array(intrSab);
  py.setInterruptBuffer(intr);
  const ns = py.runPython('{}');
  py.runPython(driverPy, { globals: ns, filename: '<robocell-driver>' });
  const runPy = ns.get('run_cell'), installPy = ns.get('install');
  ns.destroy();
  py.unregisterJsModule('_robocell_host');
  const HEAP = () => py._module.HEAP8.buffer.byteLength;
  // Python can rewrite the isolate's JS built-ins, which Pyodide itself relies on: no escape, but a
  // broken interpreter. Every property of the built-ins is recorded now and compared after each cell;
  // a difference makes the host replace the runtime.
  const names = ['Object', 'Function', 'Array', 'String', 'Number', 'Boolean', 'Symbol', 'BigInt', 'Error', 'EvalError', 'RangeError', 'ReferenceError', 'SyntaxError', 'TypeError', 'URIError', 'AggregateError', 'Promise', 'RegExp', 'Date', 'Map', 'Set', 'WeakMap', 'WeakSet', 'WeakRef', 'FinalizationRegistry', 'ArrayBuffer', 'SharedArrayBuffer', 'DataView', 'Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array', 'Int32Array', 'Uint32Array', 'Float32Array', 'Float64Array', 'BigInt64Array', 'BigUint64Array', 'JSON', 'Math', 'Reflect', 'Proxy', 'Atomics', 'WebAssembly', 'TextEncoder', 'TextDecoder'].filter((n) => G[n] !== undefined);
  const intrinsics = [];
  for (let i = 0; i < names.length; i++) {
    const v = G[names[i]];
    intrinsics.push(v);
    if (typeof v === 'function' && v.prototype && typeof v.prototype === 'object') intrinsics.push(v.prototype);
  }
  for (const k of ['Module', 'Global', 'Instance', 'Memory', 'Table']) if (WebAssembly[k]) intrinsics.push(WebAssembly[k], WebAssembly[k].prototype);
  intrinsics.push(Object.getPrototypeOf(function* () {}), Object.getPrototypeOf([][Symbol.iterator]()), Object.getPrototypeOf(Object.getPrototypeOf([][Symbol.iterator]())), Object.getPrototypeOf(Uint8Array));
  const ownKeys = Reflect.ownKeys, getDesc = Reflect.getOwnPropertyDescriptor, same = Object.is;
  // V8 and Pyodide tune these at run time; they reach no host either way.
  const tunables = new Set(['stackTraceLimit', 'prepareStackTrace', 'captureStackTrace', 'lastIndex']);
  const record = (o) => { const keys = ownKeys(o); const d = []; for (let i = 0; i < keys.length; i++) { if (tunables.has(keys[i])) continue; const x = getDesc(o, keys[i]); d.push(keys[i], x.value, x.get, x.set, x.writable); } return d; };
  const baseline = intrinsics.map(record);
  const globalsBaseline = names.map((n) => getDesc(G, n));
  const intact = () => {
    try {
      for (let i = 0; i < intrinsics.length; i++) {
        const now = record(intrinsics[i]), was = baseline[i];
        if (now.length !== was.length) return false;
        for (let j = 0; j < now.length; j++) if (!same(now[j], was[j])) return false;
      }
      for (let i = 0; i < names.length; i++) { const d = getDesc(G, names[i]), b = globalsBaseline[i]; if (!d || d.value !== b.value || d.get !== b.get) return false; }
      return true;
    } catch (e) { return false; }
  };
  const fatal = (e) => JsonStringify({ ok: false, fatal: true, error: { type: 'InternalError', message: 'the Python runtime failed: ' + StringCtor(e && e.message || e).slice(0, 2000) }, stdout: '', dropped: 0 });
  return {
    run: (code, cellName) => {
      let out;
      try { out = runPy(code, cellName); } catch (e) { out = fatal(e); }
      if (typeof out !== 'string' || out[0] !== '{') out = fatal('no reply');
      return intact() ? out : '{"tampered": true, ' + out.slice(1);
    },
    install: (specsJson, limitsJson) => { installPy(specsJson, limitsJson); return true; },
    memoryBytes: () => HEAP(),
  };
})();
`;
