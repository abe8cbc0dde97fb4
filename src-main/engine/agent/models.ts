/** Builds a Model from what a user names: "scripted" or a provider model name (OpenAI-compatible). */
import type { Model } from './model';
import { createOpenAIModel } from './openai/openaiModel';
import { createScriptedModel, SCRIPTED_MODEL_NAME } from './scripted/planner';
import { robotPolicies } from './scripted/robotPolicies';

export interface ModelChoice {
  name: string;
  /** Defaults to OPENAI_BASE_URL, then the SDK's default (api.openai.com). */
  baseUrl?: string | null;
  /** Defaults to OPENAI_API_KEY. */
  apiKey?: string | null;
  stream?: boolean;
  requestTimeoutMs?: number;
  maxRetries?: number;
}

export function createModel(choice: ModelChoice, env: NodeJS.ProcessEnv = process.env): Model {
  if (choice.name === SCRIPTED_MODEL_NAME) return createScriptedModel(robotPolicies);
  const baseUrl = choice.baseUrl ?? env.OPENAI_BASE_URL ?? null;
  const apiKey = choice.apiKey ?? env.OPENAI_API_KEY ?? null;
  // Local OpenAI-compatible servers (vLLM, Ollama, the test server) accept any key.
  if (!apiKey && !baseUrl) throw new Error(`model "${choice.name}" needs OPENAI_API_KEY (or --base-url / OPENAI_BASE_URL for a local server); use --model scripted to run offline`);
  return createOpenAIModel({ model: choice.name, baseUrl, apiKey: apiKey ?? 'no-key', stream: choice.stream, requestTimeoutMs: choice.requestTimeoutMs, maxRetries: choice.maxRetries });
}
