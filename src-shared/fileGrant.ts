import { z } from 'zod';

/**
 * The line the Electron shell writes to the engine's stdin to grant it one file chosen in a native
 * dialog: `{"grant":{"id":…,"path":…,"mode":"read"|"write"}}` + "\n". Shared so both ends agree.
 */
export const GRANT_ID = /^[A-Za-z0-9_-]{22,64}$/;

export const GrantMode = z.enum(['read', 'write']);
export type GrantMode = z.infer<typeof GrantMode>;

export const PathGrant = z.object({
  id: z.string().regex(GRANT_ID),
  path: z
    .string()
    .min(1)
    .max(4096)
    .refine((p) => p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p), 'an absolute path'),
  mode: GrantMode,
});
export type PathGrant = z.infer<typeof PathGrant>;

export const GrantLine = z.object({ grant: PathGrant });
export type GrantLine = z.infer<typeof GrantLine>;

export function grantLine(grant: PathGrant): string {
  return JSON.stringify(GrantLine.parse({ grant })) + '\n';
}
