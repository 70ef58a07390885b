// The response envelope (Document 1 §1.2): `{ data, meta }` on success, and one error shape:
// `{ error: { code, message, requestId, details? }, meta: { requestId } }`.
import type { ServerResponse } from 'node:http';
import type { PublicError } from '../error-mapping.ts';

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent) return;
  // encoded once: a string body is measured (byteLength) and then encoded again when written
  const payload = Buffer.from(JSON.stringify(body));
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': payload.length,
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
