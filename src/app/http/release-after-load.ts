// Load leaves memory resident after it has gone. Thousands of WebSocket clients leaving at once, or
// a burst of large request bodies, free their objects, but V8 keeps the heap pages it freed for
// reuse, and glibc's malloc keeps freed native memory (OpenSSL state, socket buffers, the bodies'
// buffers) mapped, and a server gone quiet allocates too little to change either. So once enough
// has passed through — many closed WebSocket connections, many megabytes read by HTTP
// connections that have since closed, or many requests on connections kept open — and it has
// paused, the server runs one
// memory-reducing collection (V8's "last resort" flavor, which also releases its pooled pages; a
// pause of the order of 100 ms with a heap of a few hundred MiB, at a moment when the load has
// just gone) and then malloc_trim (native-heap.ts). The collection needs --expose-gc, which
// serving processes get (src/cli/server-flags.ts); without it only the trim runs. Starting is such a
// load too (every module compiled, the schema built, the migrations checked): one release follows it,
// so a server at rest does not keep the garbage of its own start.
// Each release also flushes Node's compile cache (below).
import module from 'node:module';
import type http from 'node:http';
import type net from 'node:net';
import type { WebSocketServer } from 'ws';
import { trimNativeHeap } from '../native-heap.ts';

export interface ReleaseOptions {
  /** closed WebSocket connections that make a release worth it */
  closes: number;
  /** bytes read by closed HTTP connections that make a release worth it */
  bytes: number;
  /** requests (on any connection) that make a release worth it once none has come for quietMs */
  requests: number;
  /** the closing must have paused this long (ms): a release per departing client would cost more than it frees */
  quietMs: number;
  /** what a release does (default: collection + trim) */
  release: () => void;
  /** the release after start, this long after the server is set up (ms); 0: none */
  afterStartMs: number;
  /** a server with little traffic releases again at its first quiet look this long after the last release (ms); 0: never */
  idleMs: number;
}

type Gc = (options: { type: 'major'; flavor: 'last-resort' }) => void;

function collectAndTrim(): void {
  // Node's compile cache keeps every loaded module's cache entry (its code cache, and a TypeScript
  // file's stripped source) in native memory until it is written out, for the life of the process
  // otherwise: about 17 MiB once the platform is loaded. Flushing writes what changed and frees them.
  module.flushCompileCache?.();
  (globalThis as { gc?: Gc }).gc?.({ type: 'major', flavor: 'last-resort' });
  trimNativeHeap();
}

export function releaseMemoryAfterLoad(servers: { ws: WebSocketServer; http?: http.Server }, options: Partial<ReleaseOptions> = {}): void {
  const { closes = 200, bytes = 64 * 1024 * 1024, requests = 10_000, quietMs = 2000, afterStartMs = 5000, idleMs = 30_000 } = options;
  let sinceRelease = 0;
  const release = () => {
    sinceRelease = 0;
    (options.release ?? collectAndTrim)();
  };
  if (afterStartMs > 0) setTimeout(release, afterStartMs).unref();
  let closed = 0;
  let read = 0;
  let timer: NodeJS.Timeout | null = null;
  const releaseIfWorthIt = () => {
    timer = null;
    if (closed < closes && read < bytes) return;
    closed = 0;
    read = 0;
    release();
  };
  const departed = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(releaseIfWorthIt, quietMs).unref();
  };
  servers.ws.on('connection', (socket) =>
    socket.once('close', () => {
      closed++;
      departed();
    }),
  );
  servers.http?.on('connection', (socket: net.Socket) =>
    socket.once('close', () => {
      read += socket.bytesRead;
      departed();
    }),
  );
  // Clients that keep their connections open (a load balancer's pool) never close them: requests
  // are counted instead (a timer per request would cost more than the count) and looked at every
  // quietMs; the release comes at the first look that finds none arrived since the one before.
  // A server at rest, or with a trickle of requests, still allocates a little (job polling, pool
  // upkeep): young-generation pages and old garbage creep back into the resident set, about 5 MiB a
  // minute after start. So it also releases at a quiet look idleMs after the last release: a
  // collection of a small heap, at most every 30 s, when nothing is waiting for the process.
  if (!servers.http) return;
  let served = 0;
  let atLastLook = 0;
  servers.http.on('request', () => served++);
  setInterval(() => {
    sinceRelease += quietMs;
    if (served === atLastLook && (served >= requests || (idleMs > 0 && sinceRelease >= idleMs))) {
      served = 0;
      release();
    }
    atLastLook = served;
  }, quietMs).unref();
}
