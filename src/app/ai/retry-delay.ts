// How long to wait before the next attempt: exponential, with jitter so that callers throttled
// together do not come back together, and never shorter than the provider's own Retry-After.
import { APICallError, RetryError } from 'ai';

/** `retry` counts from 1: base·2^(retry-1), of which the upper half is random */
export function backoffDelayMs(retry: number, baseMs: number, random: () => number = Math.random): number {
  const ceiling = baseMs * 2 ** (retry - 1);
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}

/** the wait a provider asked for (`retry-after-ms`, or `retry-after` in seconds or as a date), if any */
export function retryAfterMs(error: unknown, now = Date.now()): number | undefined {
  const apiError = RetryError.isInstance(error) ? error.lastError : error;
  if (!APICallError.isInstance(apiError)) return undefined;
  const headers = apiError.responseHeaders ?? {};
  const ms = Number(headers['retry-after-ms']);
  if (headers['retry-after-ms'] && Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers['retry-after'];
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
