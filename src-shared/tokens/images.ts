/**
 * Image input tokens per model family, as the providers document them. Pure arithmetic so the UI
 * can show the same numbers as the engine.
 */
export type ImageDetail = 'low' | 'high' | 'auto';

/**
 * - `gpt-4o`: GPT-4o, GPT-4.1, GPT-4.5, GPT-5 class: 85 base + 170 per 512-px tile.
 * - `gpt-4o-mini`: same tiling, 2833 base + 5667 per tile.
 * - `o-series`: o1, o3: 75 base + 150 per tile.
 * - `patch`: 32-px patches capped at 1536 (GPT-4.1-mini/nano, o4-mini), times a per-model multiplier.
 */
export type ImageTokenFamily = 'gpt-4o' | 'gpt-4o-mini' | 'o-series' | 'patch';

const TILE_RATES: Record<Exclude<ImageTokenFamily, 'patch'>, { base: number; perTile: number }> = {
  'gpt-4o': { base: 85, perTile: 170 },
  'gpt-4o-mini': { base: 2833, perTile: 5667 },
  'o-series': { base: 75, perTile: 150 },
};

/** Size after the high-detail resizing: fit in 2048×2048, then the shortest side down to 768 (never upscaled). */
export function highDetailSize(widthPx: number, heightPx: number): { widthPx: number; heightPx: number } {
  let w = widthPx;
  let h = heightPx;
  if (w > 2048 || h > 2048) {
    const s = 2048 / Math.max(w, h);
    w = Math.floor(w * s);
    h = Math.floor(h * s);
  }
  if (Math.min(w, h) > 768) {
    const s = 768 / Math.min(w, h);
    w = Math.floor(w * s);
    h = Math.floor(h * s);
  }
  return { widthPx: w, heightPx: h };
}

function patchTokens(widthPx: number, heightPx: number): number {
  const patches = (w: number, h: number) => Math.ceil(w / 32) * Math.ceil(h / 32);
  if (patches(widthPx, heightPx) <= 1536) return patches(widthPx, heightPx);
  // Shrink so the patch grid fits in 1536, then make the width a whole number of patches.
  let s = Math.sqrt((32 * 32 * 1536) / (widthPx * heightPx));
  s *= Math.min(Math.floor((widthPx * s) / 32) / ((widthPx * s) / 32), Math.floor((heightPx * s) / 32) / ((heightPx * s) / 32));
  return Math.min(1536, patches(Math.floor(widthPx * s), Math.floor(heightPx * s)));
}

export function imageTokens(widthPx: number, heightPx: number, detail: ImageDetail, family: ImageTokenFamily = 'gpt-4o', patchMultiplier = 1): number {
  if (!(widthPx > 0 && heightPx > 0)) throw new Error(`image size must be positive, got ${widthPx}×${heightPx}`);
  if (family === 'patch') return Math.ceil(patchTokens(widthPx, heightPx) * patchMultiplier);
  const { base, perTile } = TILE_RATES[family];
  if (detail === 'low') return base;
  const { widthPx: w, heightPx: h } = highDetailSize(widthPx, heightPx);
  return base + perTile * Math.ceil(w / 512) * Math.ceil(h / 512);
}

/** How a model prices images: its family and, for the patch family, the model's multiplier. */
export interface ImageCost {
  family: ImageTokenFamily;
  patchMultiplier: number;
}

/** An image's tokens under a model's pricing (a bare family means multiplier 1). */
export function imageTokensFor(widthPx: number, heightPx: number, detail: ImageDetail, cost: ImageTokenFamily | ImageCost = 'gpt-4o'): number {
  const c = typeof cost === 'string' ? { family: cost, patchMultiplier: 1 } : cost;
  return imageTokens(widthPx, heightPx, detail, c.family, c.patchMultiplier);
}

/** Which family a model name belongs to, by prefix; unknown names count as GPT-4o class. */
export function imageFamilyForModel(model: string): ImageCost {
  const m = model.toLowerCase();
  if (m.startsWith('gpt-4o-mini')) return { family: 'gpt-4o-mini', patchMultiplier: 1 };
  if (m.startsWith('gpt-4.1-mini')) return { family: 'patch', patchMultiplier: 1.62 };
  if (m.startsWith('gpt-4.1-nano')) return { family: 'patch', patchMultiplier: 2.46 };
  if (m.startsWith('o4-mini')) return { family: 'patch', patchMultiplier: 1.72 };
  if (m.startsWith('o1') || m.startsWith('o3')) return { family: 'o-series', patchMultiplier: 1 };
  return { family: 'gpt-4o', patchMultiplier: 1 };
}
