// PostgreSQL LISTEN/NOTIFY shared by every instance: one dedicated listening connection
// per process, reconnecting with backoff. NOTIFY payloads are capped at 8000 bytes, so
// callers publish identifiers and small facts, never rows.
import pg from 'pg';

type Handler = (payload: string) => void;

export class PgNotifier {
  private client: pg.Client | null = null;
  private readonly handlers = new Map<string, Set<Handler>>();
  private readonly reconnectHandlers = new Set<() => void>();
  private stopped = false;
  private connecting: Promise<void> | null = null;
  private retryTimer: NodeJS.Timeout | null = null;

  private readonly connectionString: string;
  private readonly pool: pg.Pool;
  private readonly log: (msg: string, err?: unknown) => void;

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

  async listen(channel: string, handler: Handler): Promise<() => void> {
    assertChannel(channel);
    let set = this.handlers.get(channel);
    if (!set) {
      set = new Set();
      this.handlers.set(channel, set);
      if (this.client) await this.client.query(`LISTEN ${channel}`);
    }
    set.add(handler);
    return () => {
      set.delete(handler);
    };
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
      await client.connect();
      for (const channel of this.handlers.keys()) await client.query(`LISTEN ${channel}`);
      this.client = client;
    })().finally(() => {
      this.connecting = null;
    });
    return this.connecting;
  }

  private scheduleReconnect(dead: pg.Client, delayMs = 250): void {
    if (this.stopped || this.client !== dead) return;
    this.client = null;
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
            attempt(Math.min(delay * 2, 5000));
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
