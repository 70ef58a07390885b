// Load leaves memory resident after it has gone. Thousands of WebSocket clients leaving at once, or
// a burst of large request bodies, free their objects, but V8 keeps the heap pages it freed for
// reuse, and glibc's malloc keeps freed native memory (OpenSSL state, socket buffers, the bodies'
// buffers) mapped, and a server gone quiet allocates too little to change either.
//
// A full release is one memory-reducing collection (V8's "last resort" flavor, which also releases
// its pooled pages; a pause of the order of 100 ms) and then malloc_trim (native-heap.ts). It has a
// cost beyond the pause: the collection takes the objects the request path's optimized code was
// specialized for, so the next load runs deoptimized and recompiling, about a third more CPU a
// request for well over ten seconds (docs/benchmark.md, "The first seconds after a release"). So a
// full release comes only where it pays:
// - after departures: many WebSocket closes, or many megabytes of large bodies, once a look finds
//   the server quiet: that memory is large and the clients are gone;
// - at start, once (every module compiled, the schema built, the migrations checked);
// - when the resident set is above ceilingBytes at a quiet look after a load: memory comes before
//   speed, and the next load would start from too high;
// - at rest: no look with more than one request a second for restMs. A server whose load
//   comes back within minutes keeps its memory for the next load, where a release would save
//   nothing and cost the recompilation. At rest it releases again every idleMs, since job polling
//   and pool upkeep creep back into the resident set (about 5 MiB a minute).
// A load of many requests on kept-alive connections gets a light release (no collection: the
// malloc_trim alone) once a look finds it paused.
// The collection needs --expose-gc, which serving processes get (src/cli/server-flags.ts); without
// it only the trim runs. Each release also flushes Node's compile cache (below).
import module from 'node:module';
import type http from 'node:http';
import type { WebSocketServer } from 'ws';
import { trimNativeHeap } from '../native-heap.ts';

export interface ReleaseOptions {
  /** closed WebSocket connections that make a full release worth it at the next quiet look */
  closes: number;
  /** bytes of large request bodies (each of largeBody bytes or more) that make a full release worth it at the next quiet look */
  bytes: number;
  /** a request body this large (content-length) counts towards `bytes` */
  largeBody: number;
  /** requests (on any connection) that make a light release worth it at the next quiet look */
  requests: number;
  /** how often the server looks (ms); a look is quiet when no request came and no WebSocket closed since the one before */
  quietMs: number;
  /** how long the server must have been at rest before a full release that is not for departures (ms) */
  restMs: number;
  /** a server at rest releases again at a quiet look this long after its last full release (ms); 0: never */
  idleMs: number;
  /** the full release after start, this long after the server is set up (ms); 0: none */
  afterStartMs: number;
  /** a resident set above this (bytes) at a quiet look after a load releases fully at once: the next load would start too high */
  ceilingBytes: number;
  /** what a release does (default: the compile-cache flush and malloc_trim; a full one also collects first) */
  release: (kind: ReleaseKind) => void;
}

/** light: give back native memory only; full: also one memory-reducing collection, whose cost the next load pays */
export type ReleaseKind = 'light' | 'full';

type Gc = (options: { type: 'major'; flavor: 'last-resort' }) => void;

function releaseMemory(kind: ReleaseKind): void {
  // Node's compile cache keeps every loaded module's cache entry (its code cache, and a TypeScript
  // file's stripped source) in native memory until it is written out, for the life of the process
  // otherwise: about 17 MiB once the platform is loaded. Flushing writes what changed and frees them.
  module.flushCompileCache?.();
  if (kind === 'full') (globalThis as { gc?: Gc }).gc?.({ type: 'major', flavor: 'last-resort' });
  trimNativeHeap();
}

export function releaseMemoryAfterLoad(servers: { ws: WebSocketServer; http?: http.Server }, options: Partial<ReleaseOptions> = {}): void {
  const {
    closes = 200, bytes = 64 * 1024 * 1024, largeBody = 64 * 1024, requests = 10_000,
    quietMs = 2000, restMs = 5 * 60_000, idleMs = 30_000, afterStartMs = 5000,
    ceilingBytes = 240 * 1024 * 1024, release = releaseMemory,
  } = options;
  const busyLook = Math.max(1, quietMs / 1000); // more requests than this in a look: more than one a second
  let closed = 0; // WebSocket closes since the last full release
  let bodies = 0; // bytes of large bodies since the last full release
  let served = 0; // requests since the last release of either kind
  let loaded = false; // a load came since the last full release
  let sinceLook = 0;
  let closedSinceLook = false;
  let restingFor = restMs; // a server that has served nothing yet is at rest
  let sinceFull = 0;
  const full = () => {
    closed = 0;
    bodies = 0;
    served = 0;
    loaded = false;
    sinceFull = 0;
    release('full');
  };
  if (afterStartMs > 0) setTimeout(full, afterStartMs).unref();
  servers.ws.on('connection', (socket) =>
    socket.once('close', () => {
      closed++;
      closedSinceLook = true;
    }),
  );
  servers.http?.on('request', (req: http.IncomingMessage) => {
    sinceLook++;
    const length = req.headers['content-length'];
    if (length === undefined) return;
    const size = Number(length);
    if (size >= largeBody) bodies += size;
  });
  setInterval(() => {
    const quiet = sinceLook === 0 && !closedSinceLook;
    restingFor = sinceLook > busyLook ? 0 : restingFor + quietMs;
    sinceFull += quietMs;
    served += sinceLook;
    sinceLook = 0;
    closedSinceLook = false;
    if (!quiet) return;
    if (served >= requests) loaded = true;
    if (closed >= closes || bodies >= bytes) return full();
    // once a load: a process that stays above the ceiling at rest must not collect every look
    if (loaded && process.memoryUsage.rss() > ceilingBytes) return full();
    if (restingFor >= restMs && (loaded || (idleMs > 0 && sinceFull >= idleMs))) return full();
    if (served >= requests) {
      served = 0;
      release('light');
    }
  }, quietMs).unref();
}
