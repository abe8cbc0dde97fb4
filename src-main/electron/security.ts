/**
 * The window's policy, as pure functions of the origins it may talk to. The engine sends its own
 * CSP for the browser build; the shell replaces it with this one, pinned to the engine's port.
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

/** Navigation inside the window: only to pages of the allowed origins (the engine, the dev server). */
export function isAllowedNavigation(url: string, allowedOrigins: readonly string[]): boolean {
  try {
    return allowedOrigins.includes(new URL(url).origin);
  } catch {
    return false;
  }
}

/** Hosts whose pages a link in the UI may open in the system browser (documentation only). */
export const DOCUMENTATION_HOSTS: readonly string[] = ['github.com', 'mujoco.readthedocs.io', 'www.electronjs.org', 'nodejs.org'];

/**
 * A link that asks for a new window: open it in the system browser when it is a plain https page
 * on a documentation host, else drop it. The window itself never opens another window.
 */
export function externalLinkTarget(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'https:' || parsed.username || parsed.password || parsed.port) return null;
  if (!DOCUMENTATION_HOSTS.includes(parsed.hostname)) return null;
  return parsed.toString();
}
