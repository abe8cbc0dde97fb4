/**
 * The engine's config file: the OpenAI-compatible endpoint and its API key. Written with 0600
 * permissions; the key is read only here and by the model factory, never sent to a client.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import type { EndpointSettings } from '../../../src-shared/protocol';
import { DEFAULT_PRICES, PriceTable } from '../../../src-shared/tokens/prices';
import { defaultEpisodesDir } from '../episodes/store';

export const StudioConfig = z.object({
  baseUrl: z.string().default(''),
  model: z.string().default(''),
  imageDetail: z.enum(['low', 'high', 'auto']).default('low'),
  apiKey: z.string().default(''),
  /** The user's prices (USD per million tokens), over the built-in list prices. */
  userPrices: PriceTable.default({}),
});
export type StudioConfig = z.infer<typeof StudioConfig>;

export function defaultConfigPath(): string {
  return process.env.ROBOCELL_CONFIG ?? join(dirname(defaultEpisodesDir()), 'config.json');
}

export class ConfigStore {
  private config: StudioConfig;

  constructor(readonly path: string = defaultConfigPath()) {
    this.config = ConfigStore.read(path);
  }

  private static read(path: string): StudioConfig {
    if (!existsSync(path)) return StudioConfig.parse({});
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(path, 'utf8'));
    } catch (err) {
      throw new Error(`config file ${path} is not valid JSON: ${(err as Error).message}`);
    }
    const parsed = StudioConfig.safeParse(raw);
    if (!parsed.success) throw new Error(`config file ${path} is invalid: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
    return parsed.data;
  }

  get(): Readonly<StudioConfig> {
    return this.config;
  }

  /** The table runs are costed with: list prices, the user's entries winning. */
  prices(): PriceTable {
    return { ...DEFAULT_PRICES, ...this.config.userPrices };
  }

  /** What clients may see: everything but the key. */
  publicView(): EndpointSettings {
    const { baseUrl, model, imageDetail, apiKey } = this.config;
    return { baseUrl, model, imageDetail, hasApiKey: apiKey.length > 0 };
  }

  update(patch: Partial<StudioConfig>): EndpointSettings {
    this.config = StudioConfig.parse({ ...this.config, ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) });
    mkdirSync(dirname(this.path), { recursive: true });
    // Write then rename, so a crash never leaves a half-written config; 0600 before the key lands.
    const tmp = `${this.path}.tmp`;
    writeFileSync(tmp, JSON.stringify(this.config, null, 2), { mode: 0o600 });
    chmodSync(tmp, 0o600);
    renameSync(tmp, this.path);
    return this.publicView();
  }
}
