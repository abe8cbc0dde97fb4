/**
 * The model-facing conversation, provider-neutral. Episodes store it so the exact context of
 * any call can be rebuilt; images are referenced by file name inside the episode folder.
 */
import { z } from 'zod';

export const ImageDetail = z.enum(['low', 'high', 'auto']);
export type ImageDetail = z.infer<typeof ImageDetail>;

export const TextPart = z.object({ type: z.literal('text'), text: z.string() });
export type TextPart = z.infer<typeof TextPart>;

export const ImagePart = z.object({
  type: z.literal('image'),
  /** File name in the episode folder (images/…png). */
  file: z.string().min(1),
  widthPx: z.number().int().positive(),
  heightPx: z.number().int().positive(),
  detail: ImageDetail,
  /** Which camera, for the UI. */
  label: z.string().optional(),
});
export type ImagePart = z.infer<typeof ImagePart>;

export const ContentPart = z.discriminatedUnion('type', [TextPart, ImagePart]);
export type ContentPart = z.infer<typeof ContentPart>;

export const ToolCall = z.object({ id: z.string(), name: z.string(), arguments: z.string() });
export type ToolCall = z.infer<typeof ToolCall>;

export const SystemMessage = z.object({ role: z.literal('system'), content: z.string() });
export const UserMessage = z.object({ role: z.literal('user'), content: z.union([z.string(), z.array(ContentPart)]) });
export const AssistantMessage = z.object({
  role: z.literal('assistant'),
  content: z.string().nullable(),
  toolCalls: z.array(ToolCall).optional(),
  refusal: z.string().nullable().optional(),
});
/** Tool results are text only (the Chat Completions API has no images in tool messages). */
export const ToolMessage = z.object({ role: z.literal('tool'), toolCallId: z.string(), content: z.string() });

export const Message = z.discriminatedUnion('role', [SystemMessage, UserMessage, AssistantMessage, ToolMessage]);
export type Message = z.infer<typeof Message>;
export type SystemMessage = z.infer<typeof SystemMessage>;
export type UserMessage = z.infer<typeof UserMessage>;
export type AssistantMessage = z.infer<typeof AssistantMessage>;
export type ToolMessage = z.infer<typeof ToolMessage>;

export const ToolDef = z.object({
  name: z.string(),
  description: z.string(),
  /** JSON schema of the arguments object. */
  parameters: z.record(z.string(), z.unknown()),
});
export type ToolDef = z.infer<typeof ToolDef>;

export const TokenUsage = z.object({
  inputTokens: z.number().int().nonnegative(),
  cachedInputTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
  /** True when no provider billed this: a test server or an offline agent simulated the usage (prefix caching included). */
  simulated: z.boolean().optional(),
});
export type TokenUsage = z.infer<typeof TokenUsage>;

/** Why a reply ended: the provider's finish_reason, or ours for an empty reply / refusal. */
export const FinishReason = z.string();
