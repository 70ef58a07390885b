// The listening socket. HTTPS only (Document 1 §1.1): by default TLS is terminated here and a
// plain-HTTP request on the same port is answered 400 HTTPS_REQUIRED by a separate server that
// has no route to any resolver. Behind a TLS-terminating proxy (TRUST_PROXY) the app itself
// refuses requests without X-Forwarded-Proto: https.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { Duplex } from 'node:stream';
import { answerClientError } from './client-errors.ts';
import { sendError } from './envelope.ts';
import { closeLingering, noteRequest } from './lingering-close.ts';
import type { TlsMaterial } from './tls.ts';

export const HTTPS_REQUIRED = {
  status: 400,
  code: 'HTTPS_REQUIRED',
  message: 'Requests are HTTPS only; plain HTTP is rejected',
};

const TLS_HANDSHAKE = 0x16;

export interface FrontDoor {
  /** the server to listen on */
  listener: net.Server;
  /** the server that runs the application (https, or http behind a proxy) */
  app: http.Server;
  close(timeoutMs: number): Promise<void>;
}

export type UpgradeHandler = (req: http.IncomingMessage, socket: Duplex, head: Buffer) => void;

export function createFrontDoor(options: {
  tls: TlsMaterial | null;
  handler: http.RequestListener;
  onUpgrade: UpgradeHandler;
}): FrontDoor {
  // requestTimeout bounds a whole request, body included: a 500 MiB file upload to the local
  // storage endpoint needs minutes on a slow link (that endpoint cuts a stalled client after 60 s)
  const serverOptions = { keepAliveTimeout: 5_000, headersTimeout: 10_000, requestTimeout: 15 * 60_000 };
  // every connection that ends after an answer ends lingering (lingering-close.ts), so an answer
  // given before the request was read to its end reaches the client
  const handler: http.RequestListener = (req, res) => {
    noteRequest(req);
    return options.handler(req, res);
  };
  if (!options.tls) {
    const app = http.createServer(serverOptions, handler);
    app.on('connection', closeLingering);
    app.on('upgrade', options.onUpgrade);
    app.on('clientError', answerClientError);
    return { listener: app, app, close: (ms) => closeServer(app, ms) };
  }

  const app = https.createServer({ ...serverOptions, cert: options.tls.cert, key: options.tls.key }, handler);
  app.on('secureConnection', closeLingering);
  app.on('upgrade', options.onUpgrade);
  app.on('clientError', answerClientError);
  app.on('tlsClientError', (_err, socket) => socket.destroy());

  const plain = http.createServer(serverOptions, (req, res) => {
    noteRequest(req);
    const requestId = randomUUID();
    res.setHeader('connection', 'close');
    res.setHeader('x-request-id', requestId);
    sendError(res, requestId, HTTPS_REQUIRED);
  });
  plain.on('upgrade', (_req, socket) => {
    socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
  });

  // Sockets handed over with emit('connection') are not counted by the servers (their close()
  // would not wait for them) and closing the TLS socket leaves the raw one open; one that never
  // sends a byte is handed to no server at all. So close() tracks both kinds itself.
  const sockets = new Set<net.Socket>();
  const served = new Set<Duplex>();
  const track = (socket: Duplex) => {
    served.add(socket);
    socket.once('close', () => served.delete(socket));
  };
  app.on('secureConnection', track);
  plain.on('connection', track);
  plain.on('connection', closeLingering);
  // Node sets up connection tracking (closeIdleConnections, headersTimeout/requestTimeout checks)
  // when a server starts listening; these two never listen themselves
  app.emit('listening');
  plain.emit('listening');
  const listener = net.createServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.once('data', (first: Buffer) => {
      socket.pause();
      socket.unshift(first);
      (first[0] === TLS_HANDSHAKE ? app : plain).emit('connection', socket);
      process.nextTick(() => socket.resume());
    });
    socket.on('error', () => socket.destroy());
  });

  return {
    listener,
    app,
    close: async (ms) => {
      const listenerClosed = new Promise<void>((resolve) => listener.close(() => resolve()));
      app.close();
      plain.close();
      plain.closeAllConnections();
      // in-flight requests finish (up to ms); a connection is ended as soon as it is idle
      const deadline = Date.now() + ms;
      while (served.size > 0 && Date.now() < deadline) {
        app.closeIdleConnections();
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      app.closeAllConnections();
      for (const socket of served) socket.destroy();
      for (const socket of sockets) socket.destroy();
      await listenerClosed;
    },
  };
}

/**
 * Stop accepting, let in-flight requests finish (up to timeoutMs), then cut what remains. Resolves
 * by timeoutMs at the latest: upgraded (WebSocket) sockets, which closeAllConnections does not
 * reach, keep the server's 'close' waiting; the caller terminates them.
 */
function closeServer(server: http.Server, timeoutMs: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      server.closeAllConnections();
      resolve();
    }, timeoutMs);
    timer.unref();
    server.close(() => {
      clearTimeout(timer);
      resolve();
    });
    server.closeIdleConnections();
  });
}
