/**
 * The studio's Content Security Policy, one definition for both hosts: the engine sends it with
 * the browser build, and the Electron shell applies it to its window, each pinned to the engine's
 * origin (plus the Vite dev server in development).
 */
export function contentSecurityPolicy(opts: { engineOrigin: string; devServerOrigin?: string }): string {
  const engineWs = opts.engineOrigin.replace(/^http/, 'ws');
  const self = ["'self'", opts.engineOrigin, opts.devServerOrigin].filter(Boolean).join(' ');
  const connect = [self, engineWs];
  if (opts.devServerOrigin) connect.push(opts.devServerOrigin.replace(/^http/, 'ws'));
  return [
    "default-src 'self'",
    // Vite's dev server injects an inline module (React refresh); the built app has none.
    `script-src ${self}${opts.devServerOrigin ? " 'unsafe-inline'" : ''}`,
    // Monaco injects style elements at run time.
    `style-src ${self} 'unsafe-inline'`,
    `img-src ${self} data: blob:`,
    `font-src ${self} data:`,
    `worker-src ${self} blob:`,
    `connect-src ${connect.join(' ')}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-src 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}
