// The AI settings a provider needs, or null when no model is configured: features then refuse with
// their own documented error rather than fail at the first call.
import type { Config } from '../config.ts';

export interface AiSettings {
  /** the endpoint is `${baseUrl}/chat/completions` */
  baseUrl: string;
  apiKey: string | undefined;
  model: string;
  /** one step, its retries and their waits included */
  timeoutMs: number;
  maxRetries: number;
  runTokenBudget: number;
  /** the wait before the first retry; each next one about doubles (not an environment setting: tests shorten it) */
  retryBaseDelayMs: number;
}

type AiEnv = Pick<Config, 'AI_BASE_URL' | 'AI_API_KEY' | 'AI_MODEL' | 'AI_TIMEOUT_MS' | 'AI_MAX_RETRIES' | 'AI_RUN_TOKEN_BUDGET'>;

export const DEFAULT_RETRY_BASE_DELAY_MS = 1_000;

export function aiSettingsOf(config: AiEnv): AiSettings | null {
  if (!config.AI_BASE_URL || !config.AI_MODEL) return null;
  return {
    // the SDK appends `/chat/completions`; a trailing slash would double it
    baseUrl: config.AI_BASE_URL.replace(/\/+$/, ''),
    apiKey: config.AI_API_KEY,
    model: config.AI_MODEL,
    timeoutMs: config.AI_TIMEOUT_MS,
    maxRetries: config.AI_MAX_RETRIES,
    runTokenBudget: config.AI_RUN_TOKEN_BUDGET,
    retryBaseDelayMs: DEFAULT_RETRY_BASE_DELAY_MS,
  };
}
