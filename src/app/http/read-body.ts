// Reads a JSON request body within the size limit. Each failure has its own documented answer:
// 413 PAYLOAD_TOO_LARGE, 415 UNSUPPORTED_MEDIA_TYPE, 400 VALIDATION_ERROR for malformed JSON or
// JSON nested too deeply (json-depth.ts).
import type { IncomingMessage } from 'node:http';
import { ApiError, ValidationError } from '../errors.ts';
import { nestsDeeperThan, tooDeepError } from './json-depth.ts';

export class PayloadTooLargeError extends ApiError {
  /** `unread`: the rest of the body is still on the connection, which must then close after the answer */
  constructor(limit: number, unread = false) {
    super(413, 'PAYLOAD_TOO_LARGE', `The request body exceeds ${limit} bytes`, unread ? { headers: { Connection: 'close' } } : {});
  }
}

export class UnsupportedMediaTypeError extends ApiError {
  constructor() {
    super(415, 'UNSUPPORTED_MEDIA_TYPE', 'Send request bodies as JSON with Content-Type: application/json');
  }
}

export async function readJsonBody(req: IncomingMessage, limit: number): Promise<unknown> {
  // a request without either header has no body (RFC 9112 §6.3): nothing to wait for (most GETs);
  // Node discards what is left of an unread request once the answer is sent
  if (req.headers['transfer-encoding'] === undefined && (req.headers['content-length'] === undefined || req.headers['content-length'] === '0')) return undefined;
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (Number.isFinite(declared) && declared > limit) {
    // not read to the end: the connection closes (lingering) after the answer
    throw new PayloadTooLargeError(limit, true);
  }
  const body = await readUpTo(req, limit);
  if (body.length === 0) return undefined;
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json' && !type.endsWith('+json')) throw new UnsupportedMediaTypeError();
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch (error) {
    throw new ValidationError('The request body is not valid JSON', [{ message: (error as Error).message }]);
  }
  if (nestsDeeperThan(value)) throw tooDeepError('The request body');
  return value;
}

/**
 * The body, or PayloadTooLargeError once more than `limit` bytes arrived. A streamed (chunked) body
 * has no end in sight then: reading it to its end would let a client feed the server for ever, and
 * destroying the request mid-stream left the connection half-read, so the next request on it hung.
 * The answer says `Connection: close` instead, and the connection closes once the client has sent
 * its body or has been cut off (lingering-close.ts).
 */
export function readUpTo(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      done();
      req.pause();
      reject(new PayloadTooLargeError(limit, true));
    };
    const onEnd = () => {
      done();
      resolve(Buffer.concat(chunks, size));
    };
    const onError = (error: Error) => {
      done();
      reject(error);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}

/** A text upload over its route's documented size: a bad input naming the body (the connection closes when it was not read to its end). */
export class TextBodyTooLargeError extends ApiError {
  constructor(limit: number, unread: boolean) {
    super(400, 'VALIDATION_ERROR', `body is larger than ${limit} bytes`, {
      details: [{ field: 'body', message: `must be at most ${limit} bytes` }],
      ...(unread ? { headers: { Connection: 'close' } } : {}),
    });
  }
}

/**
 * A route's non-JSON body (a CSV upload) as UTF-8 text, for routes that declare its media types
 * and size (RestRoute.rawBody): another type is a 400 naming Content-Type, more than `limit` bytes
 * a 400 naming the body, bytes that are not UTF-8 a 400 too.
 */
export async function readTextBody(req: IncomingMessage, limit: number, mediaTypes: readonly string[]): Promise<string | undefined> {
  if (req.headers['transfer-encoding'] === undefined && (req.headers['content-length'] === undefined || req.headers['content-length'] === '0')) return undefined;
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  // the body is the route's input itself: the wrong kind of file is bad input, named like any other
  if (!mediaTypes.includes(type)) throw new ValidationError(`Content-Type must be ${mediaTypes.join(' or ')}`, [{ field: 'Content-Type', message: `must be ${mediaTypes.join(' or ')}: the file itself is the body` }]);
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (Number.isFinite(declared) && declared > limit) throw new TextBodyTooLargeError(limit, true);
  let body: Buffer;
  try {
    body = await readUpTo(req, limit);
  } catch (error) {
    if (error instanceof PayloadTooLargeError) throw new TextBodyTooLargeError(limit, true);
    throw error;
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    throw new ValidationError('body is not UTF-8 text', [{ field: 'body', message: 'must be UTF-8 text' }]);
  }
}
