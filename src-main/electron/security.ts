/**
 * The window's policy, as pure functions of the origins it may talk to. The CSP itself lives in
 * src-shared so the engine's browser build sends the very same one.
 */
export { contentSecurityPolicy } from '../../src-shared/csp';

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
