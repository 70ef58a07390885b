// Thousands of WebSocket clients leaving at once free their objects, but the memory stays resident:
// V8 keeps the heap pages it freed for reuse, and glibc's malloc keeps the connections' freed
// native memory (OpenSSL state, socket buffers) mapped, and a server gone quiet allocates too little
// to change either. So once many connections have closed and the closing has paused, the server
// runs one memory-reducing collection (V8's "last resort" flavor, which also releases its pooled
// pages; a pause of the order of 100 ms with a heap of a few hundred MiB, at a moment when clients
// have just left) and then malloc_trim (native-heap.ts). The collection needs --expose-gc, which
// serving processes get (src/cli/server-flags.ts); without it only the trim runs.
import type { WebSocketServer } from 'ws';
import { trimNativeHeap } from '../native-heap.ts';

export interface ReleaseOptions {
  /** closed connections that make a release worth it */
  closes: number;
  /** the closing must have paused this long (ms): a release per departing client would cost more than it frees */
  quietMs: number;
  /** what a release does (default: collection + trim) */
  release: () => void;
}

type Gc = (options: { type: 'major'; flavor: 'last-resort' }) => void;

function collectAndTrim(): void {
  (globalThis as { gc?: Gc }).gc?.({ type: 'major', flavor: 'last-resort' });
  trimNativeHeap();
}

export function releaseMemoryAfterDisconnects(wsServer: WebSocketServer, options: Partial<ReleaseOptions> = {}): void {
  const { closes = 200, quietMs = 2000 } = options;
  const release = options.release ?? collectAndTrim;
  let closed = 0;
  let timer: NodeJS.Timeout | null = null;
  const releaseIfWorthIt = () => {
    timer = null;
    if (closed < closes) return;
    closed = 0;
    release();
  };
  wsServer.on('connection', (socket) =>
    socket.once('close', () => {
      closed++;
      if (timer) clearTimeout(timer);
      timer = setTimeout(releaseIfWorthIt, quietMs).unref();
    }),
  );
}
