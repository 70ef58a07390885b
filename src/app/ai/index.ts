// The platform's AI layer: one OpenAI-compatible model, configured by the operator (docs/ai.md).
// Features use only what is exported here; the SDK behind it stays an implementation detail.
export { aiSettingsOf, DEFAULT_RETRY_BASE_DELAY_MS, type AiSettings } from './ai-config.ts';
export { AiError, type AiErrorKind } from './ai-errors.ts';
export { AiProvider, type AiProviderOptions } from './ai-provider.ts';
export type { AiUsageEvent, ChatMessage, ChatRequest, ChatStep, ChatToolCall, ChatUsage, JsonValue, ToolDeclaration } from './chat-types.ts';
export { TokenBudget } from './token-budget.ts';
