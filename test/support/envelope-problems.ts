// The documented envelope (docs/api/conventions.md) checked without stopping: for the suites that
// collect every problem of a run (fuzz, tenancy, concurrency) and for scripts outside vitest.
// expectOk and expectError (expect-envelope.ts) assert the same inside a test.
import type { TestResponse } from './server.ts';

/** An answer as the envelope check reads it: whichever client sent the request. */
export interface EnvelopeAnswer {
  status: number;
  /** the parsed JSON body (anything else fails the check) */
  body: any;
  requestIdHeader: string | null | undefined;
  /** the Content-Type header, when known: a file a route answers (a CSV download, an image) is not an envelope */
  contentType?: string | null;
}

export const envelopeAnswer = (res: TestResponse): EnvelopeAnswer => ({
  status: res.status,
  body: res.body,
  requestIdHeader: res.headers.get('x-request-id'),
  contentType: res.headers.get('content-type'),
});

/** a success that is a file (RestResult.raw), not JSON: it still names its request */
const isFileAnswer = (answer: EnvelopeAnswer) => answer.status < 300 && !!answer.contentType && !/json/i.test(answer.contentType);

/**
 * What is wrong with an answer's envelope, or null; for suites that collect problems instead of
 * stopping at the first (expectOk and expectError assert the same). A 5xx is the caller's to judge.
 */
export function envelopeProblem(answer: EnvelopeAnswer): string | null {
  const { body } = answer;
  if (isFileAnswer(answer)) return answer.requestIdHeader ? null : 'envelope: a file answer without X-Request-Id';
  if (!body || typeof body !== 'object') return 'envelope: the body is not a JSON object';
  if (answer.status < 300) return typeof body.meta?.requestId === 'string' ? null : 'envelope: a success without meta.requestId';
  const error = body.error;
  if (!error || typeof error !== 'object') return 'envelope: no error object';
  for (const field of ['code', 'message', 'requestId'] as const) if (typeof error[field] !== 'string' || error[field] === '') return `envelope: error.${field} is not a non-empty string`;
  if (body.meta?.requestId !== error.requestId) return 'envelope: meta.requestId differs from error.requestId';
  if (answer.requestIdHeader !== error.requestId) return 'envelope: the X-Request-Id header differs from error.requestId';
  if ('data' in body) return 'envelope: an error with data';
  return null;
}
