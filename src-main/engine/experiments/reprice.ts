/**
 * "What would this run have cost on model X?": every recorded request re-estimated under another
 * model's image formula (or another image detail) and price, without calling anything. Text
 * tokens are kept as the API counted them (the same tokenizer is assumed); the images in each
 * request's context are re-counted; the result is an estimate and is labelled so.
 */
import { join } from 'node:path';
import type { ImagePart, Message } from '../../../src-shared/episode';
import { failureEnding, type EpisodeFigures, type ResultRecord } from '../../../src-shared/experiments';
import { costUsd, countTextTokens, imageFamilyForModel, imageTokens, priceFor, type ImageDetail, type PriceTable } from '../../../src-shared/tokens';
import { loadEpisode } from '../episodes/store';

export interface RepriceTarget {
  model: string;
  /** Overrides every image's detail; null keeps each image's recorded detail. */
  detail: ImageDetail | null;
}

export function parseRepriceTarget(s: string): RepriceTarget {
  const [model, detail, ...rest] = s.split(',').map((x) => x.trim());
  if (!model || rest.length) throw new Error(`--reprice takes MODEL[,DETAIL], e.g. gpt-4.1-mini or gpt-4o,high; got "${s}"`);
  if (detail !== undefined && !['low', 'high', 'auto'].includes(detail)) throw new Error(`--reprice detail must be low, high or auto; got "${detail}"`);
  return { model, detail: (detail as ImageDetail | undefined) ?? null };
}

function imagesOf(m: Message): ImagePart[] {
  return Array.isArray(m.content) ? m.content.filter((p): p is ImagePart => p.type === 'image') : [];
}

/** One episode's figures under the target model; null cost when the target has no price. */
export function repriceEpisode(episodeDir: string, rec: ResultRecord, target: RepriceTarget, prices: PriceTable): EpisodeFigures {
  const { family, patchMultiplier } = imageFamilyForModel(target.model);
  const price = priceFor(target.model, prices);
  const ep = loadEpisode(episodeDir);
  const messages: Message[] = [];
  const contextImages = new Map<number, number>();
  let inputTokens = 0;
  let outputTokens = 0;
  let imageTotal = 0;
  let cost: number | null = price ? 0 : null;
  const callInputTokens: number[] = [];
  for (const e of ep.events) {
    if (e.type === 'message') messages[e.index] = e.message;
    else if (e.type === 'model/request') {
      let img = 0;
      for (const m of messages.slice(0, e.messageCount)) for (const p of imagesOf(m)) img += imageTokens(p.widthPx, p.heightPx, target.detail ?? p.detail, family, patchMultiplier);
      contextImages.set(e.call, img);
    } else if (e.type === 'model/reply') {
      const newImg = contextImages.get(e.call) ?? 0;
      const recordedInput = e.usage?.inputTokens ?? e.estimate.total;
      const input = Math.max(0, recordedInput - e.estimate.imageTokens + newImg);
      const cached = Math.min(e.usage?.cachedInputTokens ?? 0, input);
      const output = e.usage?.outputTokens ?? countTextTokens(e.reply.content ?? '') + (e.reply.toolCalls ?? []).reduce((s, c) => s + countTextTokens(c.arguments) + countTextTokens(c.name), 0);
      inputTokens += input;
      outputTokens += output;
      imageTotal += newImg;
      callInputTokens.push(input);
      if (cost !== null && price) cost += costUsd({ inputTokens: input, cachedInputTokens: cached, outputTokens: output }, price);
    }
  }
  return {
    episodeId: rec.episodeId,
    success: rec.success,
    ending: failureEnding(rec),
    llmCalls: rec.totals.llmCalls,
    inputTokens,
    outputTokens,
    imageTokens: imageTotal,
    costUsd: cost,
    wallMs: rec.totals.wallMs,
    callInputTokens,
  };
}

export function repriceDir(episodesDir: string, rec: ResultRecord): string {
  return join(episodesDir, rec.episodeId);
}
