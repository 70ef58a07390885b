// The response envelope (Document 1 §1.2): `{ data, meta }` on success, and one error shape:
// `{ error: { code, message, requestId, details? }, meta: { requestId } }`.
import type { ServerResponse } from 'node:http';
import type { PublicError } from '../error-mapping.ts';

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent) return;
  // a string body: Node writes the head and a string body as one string (one socket write, one
  // TLS record) where a Buffer body goes out as a second chunk
  const payload = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(payload),
    'cache-control': 'no-store',
    ...headers,
  });
  res.end(payload);
}

export function sendData(res: ServerResponse, status: number, requestId: string, data: unknown, meta: Record<string, unknown> = {}): void {
  sendJson(res, status, { data, meta: { requestId, ...meta } });
}

export function sendError(res: ServerResponse, requestId: string, error: Omit<PublicError, 'unexpected'>): void {
  const body: Record<string, unknown> = { code: error.code, message: error.message, requestId };
  if (error.details && error.details.length > 0) body.details = error.details;
  sendJson(res, error.status, { error: body, meta: { requestId } }, error.headers ?? {});
}
