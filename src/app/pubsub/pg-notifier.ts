// PostgreSQL LISTEN/NOTIFY shared by every instance: one dedicated listening connection
// per process, reconnecting with backoff (250 ms doubling to 2 s). NOTIFY payloads are capped at
// 8000 bytes, so callers publish identifiers and small facts, never rows. Notifications sent while
// the connection is down are lost: `onDisconnect`/`onReconnect` let the event bus catch up
// (event-catch-up.ts) and caches start over.
import pg from 'pg';

type Handler = (payload: string) => void;

// short: whatever was missed is caught up after the reconnect, so the sooner the better
const MAX_RECONNECT_DELAY_MS = 2000;

export class PgNotifier {
  private client: pg.Client | null = null;
  private readonly handlers = new Map<string, Set<Handler>>();
  private readonly reconnectHandlers = new Set<() => void>();
  private readonly disconnectHandlers = new Set<() => void>();
  private stopped = false;
  private connecting: Promise<void> | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  /** the listening connection's last statement: the next one waits for it (see inTurn) */
  private turn: Promise<unknown> = Promise.resolve();

  private readonly connectionString: string;
  /** the instance's pool, which NOTIFYs go through (and the catch-up reads with) */
  readonly pool: pg.Pool;
  /** the instance's warning log */
  readonly log: (msg: string, err?: unknown) => void;

  constructor(connectionString: string, pool: pg.Pool, log: (msg: string, err?: unknown) => void = () => {}) {
    this.connectionString = connectionString;
    this.pool = pool;
    this.log = log;
  }

  async start(): Promise<void> {
    await this.connect();
  }

  onReconnect(handler: () => void): void {
    this.reconnectHandlers.add(handler);
  }

  /** Called as soon as the listening connection is found lost (before any reconnect attempt). */
  onDisconnect(handler: () => void): void {
    this.disconnectHandlers.add(handler);
  }

  /** Whether notifications are being received now. */
  get connected(): boolean {
    return this.client !== null;
  }

  /**
   * Runs a read on the listening connection itself; null while it is down. A read that succeeds
   * there was taken while notifications were being received (the event catch-up samples this way,
   * and stays off the request pool).
   */
  async queryOnListener<R extends pg.QueryResultRow>(text: string): Promise<R[] | null> {
    const client = this.client;
    if (!client) return null;
    return (await this.inTurn<R>(client, text)).rows;
  }

  async listen(channel: string, handler: Handler): Promise<() => void> {
    assertChannel(channel);
    let set = this.handlers.get(channel);
    if (!set) {
      set = new Set();
      this.handlers.set(channel, set);
      if (this.client) await this.inTurn(this.client, `LISTEN ${channel}`);
    }
    set.add(handler);
    return () => {
      set.delete(handler);
    };
  }

  // Modules listen and the event catch-up reads at the same moments (start, reconnect): node-postgres
  // queues a statement given to a busy client, but deprecates it with a warning on stderr (and will
  // refuse it), so the listening connection's statements run one after another here.
  private inTurn<R extends pg.QueryResultRow>(client: pg.Client, text: string): Promise<pg.QueryResult<R>> {
    const result = this.turn.then(() => client.query<R>(text));
    this.turn = result.catch(() => {});
    return result;
  }

  async notify(channel: string, payload: string): Promise<void> {
    assertChannel(channel);
    await this.pool.query('SELECT pg_notify($1, $2)', [channel, payload]);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = null;
    if (client) await client.end().catch(() => {});
  }

  private connect(): Promise<void> {
    if (this.connecting) return this.connecting;
    this.connecting = (async () => {
      const client = new pg.Client({ connectionString: this.connectionString, application_name: 'svc-listener' });
      client.on('notification', (message) => {
        const set = this.handlers.get(message.channel);
        if (!set) return;
        for (const handler of set) {
          try {
            handler(message.payload ?? '');
          } catch (error) {
            this.log('notification handler failed', error);
          }
        }
      });
      client.on('error', (error) => {
        this.log('listener connection error', error);
        this.scheduleReconnect(client);
      });
      client.on('end', () => this.scheduleReconnect(client));
      try {
        await client.connect();
        for (const channel of this.handlers.keys()) await client.query(`LISTEN ${channel}`);
      } catch (error) {
        await client.end().catch(() => {});
        throw error;
      }
      this.client = client;
      this.turn = Promise.resolve();
    })().finally(() => {
      this.connecting = null;
    });
    return this.connecting;
  }

  private scheduleReconnect(dead: pg.Client, delayMs = 250): void {
    if (this.stopped || this.client !== dead) return;
    this.client = null;
    for (const handler of this.disconnectHandlers) handler();
    const attempt = (delay: number) => {
      this.retryTimer = setTimeout(() => {
        if (this.stopped) return;
        this.connect().then(
          () => {
            // notifications sent while we were away are lost: let subscribers resynchronize
            for (const handler of this.reconnectHandlers) handler();
          },
          (error) => {
            this.log('listener reconnect failed', error);
            attempt(Math.min(delay * 2, MAX_RECONNECT_DELAY_MS));
          },
        );
      }, delay);
      this.retryTimer.unref();
    };
    attempt(delayMs);
  }
}

function assertChannel(channel: string): void {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(channel)) throw new Error(`invalid channel name ${channel}`);
}
