// The AI layer's own plain types: what a feature stores and sends, independent of the SDK's types,
// so a conversation kept in the database stays readable whatever the SDK becomes.
import type { TokenBudget } from './token-budget.ts';

export type JsonValue = null | string | number | boolean | JsonValue[] | { [key: string]: JsonValue };

export interface ChatToolCall {
  id: string;
  name: string;
  /** the parsed JSON arguments; with `invalid: 'invalid_input'`, the raw text the model sent */
  input: unknown;
  /**
   * Set when the call cannot be run: a tool that was not declared, or arguments that are not JSON.
   * Such calls are returned, not thrown, so the caller can answer them with an error tool result
   * and let the model correct itself. Arguments are not checked against the declared schema:
   * the caller validates them before running the tool.
   */
  invalid?: 'unknown_tool' | 'invalid_input';
}

export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; toolCalls?: ChatToolCall[] }
  | { role: 'tool'; toolCallId: string; name: string; output: JsonValue; isError?: boolean };

export interface ToolDeclaration {
  name: string;
  description: string;
  /** a JSON Schema (an object schema) of the tool's input */
  inputSchema: Record<string, unknown>;
}

export interface ChatRequest {
  system?: string;
  messages: ChatMessage[];
  /** declared without code: the model's calls come back in ChatStep.toolCalls for the caller to run */
  tools?: ToolDeclaration[];
  maxOutputTokens?: number;
  signal?: AbortSignal;
  stream?: boolean;
  /** with `stream`, each piece of text as it arrives */
  onTextDelta?: (text: string) => void;
  /** the run's budget: checked before the step, charged after it; it also caps the step's output tokens */
  budget?: TokenBudget;
  teamId: bigint;
  /** who asked, for the usage records (e.g. 'team-assistant') */
  feature: string;
}

export interface ChatUsage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
}

export interface ChatStep {
  text: string;
  toolCalls: ChatToolCall[];
  /** 'stop', 'tool-calls', 'length', 'content-filter', 'error', 'other' */
  finishReason: string;
  usage: ChatUsage;
}

export interface AiUsageEvent extends ChatUsage {
  teamId: bigint;
  feature: string;
  model: string;
  at: Date;
}
