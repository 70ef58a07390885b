// Requests Node's HTTP parser refuses before any handler runs (a request line and headers over
// its 16 KiB limit, malformed syntax, a head or body that arrives too slowly). Node's own answer
// is a bare status without the envelope, and for a large head often none at all: the socket is
// destroyed while the client is still sending. Here they get the documented envelope, and the
// connection closes lingering after it (lingering-close.ts), so the answer reaches the client
// instead of a reset.
import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { lingerThenClose } from './lingering-close.ts';

/** sockets already answered: the parser reports every later chunk as another error */
const answered = new WeakSet<Duplex>();

interface Refusal {
  status: number;
  code: string;
  message: string;
}

function refusalFor(code: string | undefined): Refusal {
  if (code === 'HPE_HEADER_OVERFLOW') {
    return { status: 431, code: 'REQUEST_HEADERS_TOO_LARGE', message: 'The request line and headers together exceed 16 KiB' };
  }
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return { status: 408, code: 'REQUEST_TIMEOUT', message: 'The request did not arrive in time' };
  }
  return { status: 400, code: 'VALIDATION_ERROR', message: 'The request is not well-formed HTTP/1.1' };
}

export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (answered.has(socket)) return;
  // a response already under way on this socket (or a socket gone) cannot take another
  if (error.code === 'ECONNRESET' || !socket.writable || (socket as { _httpMessage?: unknown })._httpMessage) {
    socket.destroy();
    return;
  }
  const refusal = refusalFor(error.code);
  const requestId = randomUUID();
  const body = JSON.stringify({ error: { code: refusal.code, message: refusal.message, requestId }, meta: { requestId } });
  answered.add(socket);
  socket.write(
    `HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status]}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Cache-Control: no-store\r\n' +
      `X-Request-Id: ${requestId}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
  lingerThenClose(socket as Socket);
}
