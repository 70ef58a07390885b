// An answer sent before the client has finished sending its request (a refused upload form, a body
// over its limit, a plain-HTTP request on the TLS port, a draining server, a malformed head) must
// still reach the client. Node ends such a connection (`Connection: close`) with destroySoon() the
// moment the answer is written: the rest of the body then arrives at a closed socket, the kernel
// answers it with a reset, and a client still writing (undici's fetch, a browser's form post)
// reports EPIPE or ECONNRESET instead of the answer, which it often never reads.
//
// The lingering close, as web servers do it: after the answer, the connection stays open while
// the rest of the request is read and dropped; once it has all arrived (or the client closed its
// side, or went quiet for LINGER_IDLE_MS), our side closes after the answer is flushed. A client
// cannot hold a refused connection longer than LINGER_MAX_MS by sending.
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';

/** quiet this long, the client is taken to have sent all it will */
export const LINGER_IDLE_MS = 5_000;
/** the most a refused client may keep a connection open by sending */
export const LINGER_MAX_MS = 30_000;

const requestOn = new WeakMap<Socket, IncomingMessage>();

/**
 * Makes every close Node's HTTP server asks of `socket` (destroySoon, after an answer that ends
 * the connection) a lingering one.
 */
export function closeLingering(socket: Socket): void {
  socket.destroySoon = function destroySoonLingering(this: Socket) {
    lingerThenClose(this, requestOn.get(this));
  };
}

/** Notes the request being answered on its connection (the handler calls it first). */
export function noteRequest(req: IncomingMessage): void {
  requestOn.set(req.socket, req);
}

/**
 * Ends `socket` once `request` has been read to its end (its body is dropped meanwhile), or, with
 * no request, once the client stops sending. What was written before is flushed first.
 */
export function lingerThenClose(socket: Socket, request?: IncomingMessage): void {
  if (socket.destroyed) return;
  if (request?.complete) return endAfterFlush(socket);
  let idle: NodeJS.Timeout;
  const close = () => {
    clearTimeout(idle);
    clearTimeout(cap);
    socket.off('data', onData);
    socket.off('end', close);
    request?.off('end', close);
    endAfterFlush(socket);
  };
  const onData = () => {
    clearTimeout(idle);
    idle = setTimeout(close, LINGER_IDLE_MS).unref();
  };
  const cap = setTimeout(close, LINGER_MAX_MS).unref();
  onData();
  socket.on('data', onData);
  socket.once('end', close);
  // the server's parser drops the unread body of an answered request; its end is the body's end
  request?.once('end', close);
  request?.resume();
  socket.resume();
}

function endAfterFlush(socket: Socket): void {
  if (socket.destroyed) return;
  if (socket.writable) socket.end();
  if (socket.writableFinished) return void socket.destroy();
  socket.once('finish', () => socket.destroy());
  // a client that reads nothing cannot keep the answer, and the socket, waiting for ever
  setTimeout(() => socket.destroy(), LINGER_IDLE_MS).unref();
}
