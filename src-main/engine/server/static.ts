import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.svg': 'image/svg+xml',
  '.ttf': 'font/ttf',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
  '.map': 'application/json; charset=utf-8',
};

/**
 * Episode files (images, snapshots) may come from someone else's export: a browser must treat
 * them as an opaque, sandboxed document that runs nothing and leaks no URL (the token is in it).
 */
export const EPISODE_FILE_HEADERS = {
  'content-security-policy': "sandbox; default-src 'none'",
  'referrer-policy': 'no-referrer',
} as const;

/**
 * The request target as a URL on our origin, or null when it is not an origin-form path of ours:
 * `*`, absolute-form, and `//…` (which `new URL(target, base)` reads as a host, and throws on) are
 * all refused. Joined as text, never resolved against a base.
 */
export function parseRequestUrl(target: string | undefined): URL | null {
  if (!target || !target.startsWith('/') || target.startsWith('//') || target.length > 8192) return null;
  try {
    return new URL(`http://127.0.0.1${target}`);
  } catch {
    return null;
  }
}

/** 400, unless the response has begun (then the socket is cut). */
export function badRequest(res: ServerResponse): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(400, { 'content-type': 'text/plain', 'referrer-policy': 'no-referrer' }).end('Bad request');
}

/** Serves the built renderer; never anything outside `root`. */
export async function serveStatic(root: string | null, csp: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405).end();
    return;
  }
  if (!root) {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('The renderer is not built: run `npm run build`.');
    return;
  }
  const url = parseRequestUrl(req.url);
  let rel: string;
  try {
    if (!url) throw new Error('bad target');
    rel = decodeURIComponent(url.pathname);
  } catch {
    badRequest(res);
    return;
  }
  if (rel.includes('\0')) {
    badRequest(res);
    return;
  }
  if (rel.endsWith('/')) rel += 'index.html';
  const file = normalize(join(root, rel));
  if (file !== root && !file.startsWith(root.endsWith(sep) ? root : root + sep)) {
    res.writeHead(403).end();
    return;
  }
  await serveFile(file, csp, req, res);
}

/** Sends one file (or a 404) with the studio's security headers. */
export async function serveFile(file: string | null, csp: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  try {
    if (!file) throw new Error('no such file');
    const info = await stat(file);
    if (!info.isFile()) throw new Error('not a file');
    res.writeHead(200, {
      'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
      'content-length': info.size,
      'content-security-policy': csp,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-cache',
    });
    if (req.method === 'HEAD') return void res.end();
    // The file may vanish between stat and read: an unhandled stream error would end the process.
    const stream = createReadStream(file);
    stream.on('error', () => res.destroy());
    stream.pipe(res);
  } catch {
    if (res.headersSent) return void res.destroy();
    res.writeHead(404, { 'content-type': 'text/plain', 'content-security-policy': csp, 'referrer-policy': 'no-referrer' }).end('Not found');
  }
}
