// The platform's AI layer: one OpenAI-compatible model, configured by the operator (docs/ai.md).
// Features use only what is exported here; the SDK behind it stays an implementation detail, and
// is loaded only when a model is configured (about 12 MiB resident a server without one never needs).
import type { AiSettings } from './ai-config.ts';
import type { AiProvider, AiProviderOptions } from './ai-provider.ts';

export { aiSettingsOf, DEFAULT_RETRY_BASE_DELAY_MS, type AiSettings } from './ai-config.ts';
export { AiError, type AiErrorKind } from './ai-errors.ts';
export { AiFeatureUnavailableError, AiModelFailedError } from './ai-answers.ts';
export type { AiProvider, AiProviderOptions } from './ai-provider.ts';
export type { AiUsageEvent, ChatMessage, ChatRequest, ChatStep, ChatToolCall, ChatUsage, JsonValue, ToolDeclaration } from './chat-types.ts';
export { TokenBudget } from './token-budget.ts';
export { type JsonQuestion, readJsonObject } from './json-answer.ts';

/** The provider of a configured model (the SDK is loaded here, on the first call). */
export async function createAiProvider(settings: AiSettings, options: AiProviderOptions = {}): Promise<AiProvider> {
  const { AiProvider } = await import('./ai-provider.ts');
  return new AiProvider(settings, options);
}
