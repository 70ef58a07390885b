// One HTTP attempt of a delivery: resolve and check the target (target-guard.ts), connect only to
// a checked address (a kept-alive connection of the agent pinned to exactly the checked set,
// target-agents.ts), POST the stored body with the signature headers, never follow a redirect,
// and report status, time and the first 4 096 characters of the response. Never throws: every
// failure is an outcome with an error message, logged like any other attempt.
import { undici } from '../../app/on-first-use.ts';
import { withTargetAgent } from './target-agents.ts';
import { parseTargetUrl, resolveTarget, TargetRefused, type TargetPolicy } from './target-guard.ts';

export const RESPONSE_BODY_LIMIT = 4096;
// bytes read from a response at most: enough for 4 096 characters of any UTF-8 text
const RESPONSE_READ_LIMIT = RESPONSE_BODY_LIMIT * 4;
const ERROR_MESSAGE_LIMIT = 1000;

export interface WebhookRequest {
  targetUrl: string;
  body: string;
  headers: Record<string, string>;
  timeoutMs: number;
  policy: TargetPolicy;
  /** extra CA certificates (PEM) trusted besides the system roots */
  extraCa?: string;
  /** aborts the attempt (the job's claim lapsed, the worker is stopping) */
  signal?: AbortSignal;
}

export interface AttemptOutcome {
  success: boolean;
  startedAt: Date;
  completedAt: Date;
  responseStatus: number | null;
  responseTimeMs: number | null;
  responseBody: string | null;
  errorMessage: string | null;
}

function describe(error: unknown, timedOut: boolean, timeoutMs: number): string {
  if (timedOut) return `timed out after ${timeoutMs / 1000} s`;
  if (error instanceof TargetRefused) return `refused target: ${error.message}`;
  const e = error as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  const inner = e.cause?.message && e.cause.message !== e.message ? ` (${e.cause.code ?? ''}${e.cause.code ? ': ' : ''}${e.cause.message})` : '';
  return `${e.code ? `${e.code}: ` : ''}${e.message ?? String(error)}${inner}`.slice(0, ERROR_MESSAGE_LIMIT);
}

async function readCapped(body: AsyncIterable<Buffer> & { destroy?: () => void }): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  let cut = false;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= RESPONSE_READ_LIMIT) {
      cut = true;
      break;
    }
  }
  // only a body left unread is dropped (with its connection); a body read to its end leaves the
  // connection to the agent for the next attempt
  if (cut) body.destroy?.();
  const text = new TextDecoder('utf-8', { fatal: false }).decode(Buffer.concat(chunks).subarray(0, RESPONSE_READ_LIMIT));
  return [...text].slice(0, RESPONSE_BODY_LIMIT).join('');
}

export async function sendWebhook(req: WebhookRequest): Promise<AttemptOutcome> {
  const startedAt = new Date();
  const started = performance.now();
  const deadline = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    deadline.abort(new Error('timeout'));
  }, req.timeoutMs);
  const signal = req.signal ? AbortSignal.any([deadline.signal, req.signal]) : deadline.signal;
  let responseStatus: number | null = null;
  let responseTimeMs: number | null = null;
  let responseBody: string | null = null;
  try {
    const url = parseTargetUrl(req.targetUrl);
    const addresses = await Promise.race([
      resolveTarget(url, req.policy),
      new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true })),
    ]);
    const response = await withTargetAgent(url.origin, addresses, req.extraCa, async (dispatcher) => {
      const answer = await undici().request(url, { method: 'POST', headers: req.headers, body: req.body, dispatcher, signal });
      responseStatus = answer.statusCode;
      responseTimeMs = Math.round(performance.now() - started);
      // the status decides; a body cut short by the deadline is kept as far as it was read. Read
      // (or dropped) inside, so the connection is back in the agent's pool when the attempt ends
      responseBody = await readCapped(answer.body as never).catch(() => null);
      // the agent takes the connection back a turn after the body ended: an attempt of this same
      // slot that started sooner would find it busy and open another
      await new Promise((resolve) => setImmediate(resolve));
      return answer;
    });
    responseStatus = response.statusCode;
    const success = responseStatus >= 200 && responseStatus < 300;
    return {
      success,
      startedAt,
      completedAt: new Date(),
      responseStatus,
      responseTimeMs,
      responseBody,
      errorMessage: success ? null : responseStatus >= 300 && responseStatus < 400 ? `redirect (${responseStatus}) not followed` : `HTTP ${responseStatus}`,
    };
  } catch (error) {
    return {
      success: false,
      startedAt,
      completedAt: new Date(),
      responseStatus,
      responseTimeMs: responseTimeMs ?? (timedOut ? Math.round(performance.now() - started) : null),
      responseBody,
      errorMessage: describe(error, timedOut, req.timeoutMs),
    };
  } finally {
    clearTimeout(timer);
  }
}
