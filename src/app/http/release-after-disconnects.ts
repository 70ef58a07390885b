// Thousands of WebSocket clients leaving at once free their objects, but V8 hands the heap pages
// they used back only after a major collection, and a server gone quiet allocates too little to
// start one: its resident memory would stay at the peak. So once many connections have closed and
// the closing has paused, one major collection runs (V8's concurrent marking, not a pause of the
// size of the heap). It needs --expose-gc, which serving processes get (src/cli/server-flags.ts);
// without it this does nothing.
import type { WebSocketServer } from 'ws';

/** closed connections that make a collection worth it */
const CLOSES_WORTH_A_COLLECTION = 200;
/** the closing must have paused this long (ms): a collection per departing client would cost more than it frees */
const QUIET_MS = 2000;

type Gc = (options: { type: 'major'; execution: 'async' }) => Promise<void>;

export function releaseMemoryAfterDisconnects(wsServer: WebSocketServer): void {
  const gc = (globalThis as { gc?: Gc }).gc;
  if (!gc) return;
  let closed = 0;
  let timer: NodeJS.Timeout | null = null;
  const collect = () => {
    timer = null;
    if (closed < CLOSES_WORTH_A_COLLECTION) return;
    closed = 0;
    void gc({ type: 'major', execution: 'async' });
  };
  wsServer.on('connection', (socket) =>
    socket.once('close', () => {
      closed++;
      if (timer) clearTimeout(timer);
      timer = setTimeout(collect, QUIET_MS).unref();
    }),
  );
}
