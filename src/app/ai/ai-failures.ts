// What went wrong with one request to the model, as an AiError, and whether trying again can help:
// only throttling (429), the provider's own failures (5xx) and the network. Anything else, a 400
// above all, would fail the same way again.
import {
  APICallError,
  EmptyResponseBodyError,
  InvalidResponseDataError,
  JSONParseError,
  NoContentGeneratedError,
  NoOutputGeneratedError,
  RetryError,
  TypeValidationError,
} from 'ai';
import { AiError } from './ai-errors.ts';

export interface AiFailure {
  error: AiError;
  retryable: boolean;
}

/** the signals a step runs under: the caller's, and the step's own deadline */
export interface StepSignals {
  caller: AbortSignal | undefined;
  deadline: AbortSignal;
}

const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_SOCKET']);

export function aiFailureOf(raw: unknown, signals: StepSignals, attempts: number): AiFailure {
  // the signals first: an abort surfaces from the SDK as many different errors
  if (signals.caller?.aborted) return { error: new AiError('cancelled', { cause: raw, attempts }), retryable: false };
  if (signals.deadline.aborted) return { error: new AiError('timeout', { cause: raw, attempts }), retryable: false };
  if (raw instanceof AiError) return { error: raw, retryable: false };
  const error = RetryError.isInstance(raw) ? raw.lastError : raw;
  // before the status: a connection lost while reading a 200 answer is the network's doing, not the model's
  if (isConnectionLoss(error)) return { error: new AiError('unavailable', { cause: raw, attempts }), retryable: true };
  if (APICallError.isInstance(error)) {
    const status = error.statusCode;
    if (status === 429) return { error: new AiError('rate_limited', { cause: raw, status, attempts }), retryable: true };
    if (status === undefined || status >= 500) return { error: new AiError('unavailable', { cause: raw, status, attempts }), retryable: true };
    if (status < 300) return { error: new AiError('bad_response', { cause: raw, status, attempts }), retryable: false };
    return { error: new AiError('provider_error', { cause: raw, status, attempts }), retryable: false };
  }
  if ([TypeValidationError, JSONParseError, InvalidResponseDataError, EmptyResponseBodyError, NoContentGeneratedError, NoOutputGeneratedError].some((kind) => kind.isInstance(error))) {
    return { error: new AiError('bad_response', { cause: raw, attempts }), retryable: false };
  }
  return { error: new AiError('provider_error', { cause: raw, attempts }), retryable: false };
}

/** a connection that failed or broke, however deep in the causes the SDK put it */
function isConnectionLoss(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && SOCKET_CODES.has(code)) return true;
    if (e.name === 'TypeError' && (e.message === 'terminated' || e.message === 'fetch failed')) return true;
  }
  return false;
}
