/**
 * The heuristic agent's inventory procedure as a Model on its own (offline, labelled as the
 * heuristic agent): what `--model heuristic` answers in an inventory conversation. Usage is the
 * local tokenizer's count of what a provider would bill.
 */
import type { ModelInfo, ToolCall } from '../../../../src-shared/episode';
import { countTextTokens, estimateContext } from '../../../../src-shared/tokens';
import type { Model, ModelReply } from '../model';
import { decideInventory } from './inventory';

export const INVENTORY_HEURISTIC_INFO: ModelInfo = { name: 'heuristic', label: 'offline heuristic agent', scripted: true, baseUrl: null };

function callId(made: number): string {
  return `call_h${made + 1}`;
}

export function createInventoryHeuristicModel(): Model {
  return {
    info: INVENTORY_HEURISTIC_INFO,
    async complete(ctx, o): Promise<ModelReply> {
      if (o?.signal?.aborted) throw new Error('aborted');
      const d = decideInventory(ctx.messages, ctx.tools) ?? { text: 'This conversation offers no inventory service; the inventory procedure has nothing to do.' };
      const made = ctx.messages.reduce((n, m) => n + (m.role === 'assistant' ? (m.toolCalls?.length ?? 0) : 0), 0);
      const toolCalls: ToolCall[] = [];
      let text: string | null = null;
      if ('call' in d) toolCalls.push({ id: callId(made), ...d.call });
      else if ('finish' in d) toolCalls.push({ id: callId(made), name: 'finish', arguments: JSON.stringify(d.finish) });
      else text = d.text;
      if (text) o?.onDelta?.({ text });
      for (const [index, c] of toolCalls.entries()) o?.onDelta?.({ toolCall: { index, name: c.name, argumentsDelta: c.arguments } });
      const inputTokens = estimateContext(ctx.messages, ctx.tools).total;
      const outputTokens = (text ? countTextTokens(text) : 0) + toolCalls.reduce((s, c) => s + countTextTokens(c.name) + countTextTokens(c.arguments) + 3, 0);
      return { text, toolCalls, refusal: null, finishReason: toolCalls.length ? 'tool_calls' : 'stop', usage: { inputTokens, cachedInputTokens: 0, outputTokens }, retries: 0, raw: { offline: 'heuristic agent (inventory procedure)' } };
    },
  };
}
