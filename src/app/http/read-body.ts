// Reads a JSON request body within the size limit. Each failure has its own documented answer:
// 413 PAYLOAD_TOO_LARGE, 415 UNSUPPORTED_MEDIA_TYPE, 400 VALIDATION_ERROR for malformed JSON.
import type { IncomingMessage } from 'node:http';
import { ApiError, ValidationError } from '../errors.ts';

export class PayloadTooLargeError extends ApiError {
  constructor(limit: number) {
    super(413, 'PAYLOAD_TOO_LARGE', `The request body exceeds ${limit} bytes`);
  }
}

export class UnsupportedMediaTypeError extends ApiError {
  constructor() {
    super(415, 'UNSUPPORTED_MEDIA_TYPE', 'Send request bodies as JSON with Content-Type: application/json');
  }
}

export async function readJsonBody(req: IncomingMessage, limit: number): Promise<unknown> {
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (Number.isFinite(declared) && declared > limit) {
    req.resume();
    throw new PayloadTooLargeError(limit);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new PayloadTooLargeError(limit);
    chunks.push(chunk);
  }
  if (size === 0) return undefined;
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json' && !type.endsWith('+json')) throw new UnsupportedMediaTypeError();
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch (error) {
    throw new ValidationError('The request body is not valid JSON', [{ message: (error as Error).message }]);
  }
}
