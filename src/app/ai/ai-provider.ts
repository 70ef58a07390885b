// The platform's one way to ask a model: one step at a time (a reply, or tool calls for the caller
// to run and record itself, so a long run survives a restart), under a deadline, with bounded
// retries, and with the tokens spent reported for the caller to store.
import { setTimeout as sleep } from 'node:timers/promises';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, streamText, type LanguageModel, type LanguageModelUsage } from 'ai';
import type { AiSettings } from './ai-config.ts';
import { aiFailureOf, type StepSignals } from './ai-failures.ts';
import type { AiUsageEvent, ChatRequest, ChatStep, ChatToolCall, ChatUsage } from './chat-types.ts';
import { backoffDelayMs, retryAfterMs } from './retry-delay.ts';
import { chatToolCallOf, modelMessagesOf, toolSetOf } from './sdk-messages.ts';
import { TokenBudget } from './token-budget.ts';

export interface AiProviderOptions {
  /** called once per successful step; the caller stores it (awaited: a failure to store fails the step) */
  onUsage?: (event: AiUsageEvent) => void | Promise<void>;
}

/** an error thrown by the caller's own callback, passed through untouched */
class CallerCallbackError {
  readonly error: unknown;
  constructor(error: unknown) {
    this.error = error;
  }
}

export class AiProvider {
  readonly settings: AiSettings;
  readonly #model: LanguageModel;
  readonly #onUsage: AiProviderOptions['onUsage'];

  constructor(settings: AiSettings, options: AiProviderOptions = {}) {
    this.settings = settings;
    this.#onUsage = options.onUsage;
    const provider = createOpenAICompatible({ name: 'platform-ai', baseURL: settings.baseUrl, apiKey: settings.apiKey, includeUsage: true });
    this.#model = provider.chatModel(settings.model);
  }

  /** a fresh budget for one run, of AI_RUN_TOKEN_BUDGET tokens */
  runBudget(): TokenBudget {
    return new TokenBudget(this.settings.runTokenBudget);
  }

  /** One model step. Throws only AiError (or what the caller's own callbacks throw). */
  async complete(request: ChatRequest): Promise<ChatStep> {
    request.budget?.assertAvailable();
    const step = await this.#withRetries(request);
    request.budget?.charge(step.usage);
    await this.#onUsage?.({ teamId: request.teamId, feature: request.feature, model: this.settings.model, ...step.usage, at: new Date() });
    return step;
  }

  async #withRetries(request: ChatRequest): Promise<ChatStep> {
    const deadline = AbortSignal.timeout(this.settings.timeoutMs);
    const signals: StepSignals = { caller: request.signal, deadline };
    const signal = request.signal ? AbortSignal.any([request.signal, deadline]) : deadline;
    const startedAt = Date.now();
    let textSent = false;
    for (let attempts = 1; ; attempts++) {
      // each attempt's own signal: leaving an attempt early (an error, a callback throwing) closes its request
      const attempt = new AbortController();
      try {
        if (signal.aborted) throw signal.reason;
        const attemptSignal = AbortSignal.any([signal, attempt.signal]);
        return request.stream
          ? await this.#stream(request, attemptSignal, () => (textSent = true))
          : await this.#generate(request, attemptSignal);
      } catch (raw) {
        attempt.abort();
        if (raw instanceof CallerCallbackError) throw raw.error;
        const failure = aiFailureOf(raw, signals, attempts);
        // text already handed to the caller cannot be taken back: a retry would repeat it
        if (!failure.retryable || attempts > this.settings.maxRetries || textSent) throw failure.error;
        const wait = Math.max(backoffDelayMs(attempts, this.settings.retryBaseDelayMs), retryAfterMs(raw) ?? 0);
        // a wait past the deadline would end in a timeout that hides why: give up with the cause now
        if (Date.now() - startedAt + wait >= this.settings.timeoutMs) throw failure.error;
        try {
          await sleep(wait, undefined, { signal });
        } catch (aborted) {
          throw aiFailureOf(aborted, signals, attempts).error;
        }
      } finally {
        attempt.abort();
      }
    }
  }

  #options(request: ChatRequest, signal: AbortSignal) {
    return {
      model: this.#model,
      instructions: request.system,
      messages: modelMessagesOf(request.messages),
      // a feature's stored conversation may carry system turns of its own
      allowSystemInMessages: true,
      tools: toolSetOf(request.tools),
      maxOutputTokens: outputCap(request),
      // this layer retries itself: shorter, jittered waits within the step's deadline
      maxRetries: 0,
      abortSignal: signal,
    };
  }

  async #generate(request: ChatRequest, signal: AbortSignal): Promise<ChatStep> {
    const result = await generateText(this.#options(request, signal));
    return { text: result.text, toolCalls: result.toolCalls.map(chatToolCallOf), finishReason: result.finishReason, usage: usageOf(result.usage) };
  }

  async #stream(request: ChatRequest, signal: AbortSignal, markTextSent: () => void): Promise<ChatStep> {
    // errors come as stream parts, handled below; the default handler would print them
    const result = streamText({ ...this.#options(request, signal), onError: () => {} });
    let text = '';
    const toolCalls: ChatToolCall[] = [];
    let finishReason = 'other';
    let usage: ChatUsage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
    for await (const part of result.fullStream) {
      switch (part.type) {
        case 'text-delta':
          text += part.text;
          markTextSent();
          try {
            request.onTextDelta?.(part.text);
          } catch (error) {
            throw new CallerCallbackError(error);
          }
          break;
        case 'tool-call':
          toolCalls.push(chatToolCallOf(part));
          break;
        case 'finish-step':
          finishReason = part.finishReason;
          usage = usageOf(part.usage);
          break;
        case 'error':
          throw part.error;
        case 'abort':
          throw signal.reason ?? new Error('the model stream was aborted');
      }
    }
    return { text, toolCalls, finishReason, usage };
  }
}

function outputCap(request: ChatRequest): number | undefined {
  if (!request.budget) return request.maxOutputTokens;
  return Math.min(request.maxOutputTokens ?? Number.MAX_SAFE_INTEGER, request.budget.remaining);
}

function usageOf(usage: LanguageModelUsage): ChatUsage {
  const inputTokens = usage.inputTokens ?? 0;
  const outputTokens = usage.outputTokens ?? 0;
  return { inputTokens, outputTokens, totalTokens: usage.totalTokens ?? inputTokens + outputTokens };
}
