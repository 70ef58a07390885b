// The graphql-ws subscribers of the subscriber scenario, in forked child processes (this file, run
// with `--subscriber-clients`) driven over IPC: their TLS, parsing and bookkeeping is not the
// server's and not the writer's. Each client is one WebSocket (graphql-ws over `ws`, checking the
// server's certificate, no retries) with one subscription; a receipt is stamped (stats.ts
// wallClockMs) as the client library hands the `next` message over.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { wallClockMs } from './stats.ts';

export interface ConnectOrder {
  url: string;
  ca: string;
  connectionParams: Record<string, string>;
  query: string;
  variables: Record<string, unknown>;
  /** the field of `data` the subscription answers on */
  field: string;
  /** the member of that field naming the write a receipt answers (its first element when a list); default dataRecordSimplyId */
  idField?: string;
  /** the member a receipt must carry (counted as a null record when missing); default record */
  payloadField?: string;
  count: number;
  /** connection attempts in flight at once */
  concurrency: number;
}

export interface ClientsStatus {
  connected: number;
  failed: number;
  closed: number;
  /** clients that received at least one event since the last reset */
  live: number;
  receipts: number;
  /** `next` messages carrying errors or no data, and `error` messages */
  errors: number;
  firstError: string | null;
}

export interface Collected {
  /** ms from the write being sent to each receipt of it */
  latencies: number[];
  /** (client, write) pairs with no receipt */
  missing: number;
  duplicates: number;
  /** receipts whose `record` was null */
  nullRecords: number;
  /** receipts of records not in the measured set (warm-up stragglers) */
  others: number;
}

type ToChild =
  | { kind: 'connect'; order: ConnectOrder }
  | { kind: 'status' }
  | { kind: 'reset' }
  | { kind: 'collect'; sentAt: Record<string, number> }
  | { kind: 'disconnect' };
type FromChild =
  | { kind: 'ready' }
  | { kind: 'status'; status: ClientsStatus }
  | { kind: 'collected'; collected: Collected }
  | { kind: 'disconnected'; status: ClientsStatus }
  | { kind: 'failed'; message: string };

async function runClients(): Promise<void> {
  process.on('disconnect', () => process.exit(0));
  const clients: Client[] = [];
  const state = { connected: 0, failed: 0, closed: 0, errors: 0, firstError: null as string | null };
  // receipts since the last reset: client index, record id, time, whether `record` was null
  let receipts: { client: number; id: string; at: number; nullRecord: boolean }[] = [];
  let liveClients = new Set<number>();
  const fail = (message: string) => {
    state.errors++;
    state.firstError ??= message;
  };
  const status = (): ClientsStatus => ({ ...state, live: liveClients.size, receipts: receipts.length });

  const idOf = (change: Record<string, unknown>, order: ConnectOrder): string | undefined => {
    const value = change[order.idField ?? 'dataRecordSimplyId'];
    const id = Array.isArray(value) ? value[0] : value;
    return typeof id === 'string' ? id : undefined;
  };

  const connectOne = (order: ConnectOrder, index: number, ca: string) =>
    new Promise<void>((resolve) => {
      let settled = false;
      const settle = (ok: boolean, why?: string) => {
        if (settled) return;
        settled = true;
        if (ok) state.connected++;
        else {
          state.failed++;
          if (why) state.firstError ??= why;
        }
        resolve();
      };
      const client = createClient({
        url: order.url,
        webSocketImpl: class extends WebSocket {
          constructor(url: string, protocols?: string | string[]) {
            super(url, protocols, { ca, perMessageDeflate: false });
          }
        },
        retryAttempts: 0,
        connectionParams: order.connectionParams,
        on: {
          connected: () => settle(true),
          closed: (event) => {
            if (settled) state.closed++;
            settle(false, `closed before connection_ack: ${(event as { code?: number; reason?: string })?.code ?? ''} ${(event as { reason?: string })?.reason ?? ''}`);
          },
          error: (error) => settle(false, String(error)),
        },
      });
      clients.push(client);
      client.subscribe<Record<string, Record<string, unknown> | null>>(
        { query: order.query, variables: order.variables },
        {
          next: (result) => {
            const at = wallClockMs();
            const change = result.data?.[order.field];
            const id = change ? idOf(change, order) : undefined;
            if (result.errors || !change || !id) return fail(JSON.stringify(result.errors ?? result).slice(0, 500));
            const payload = change[order.payloadField ?? 'record'];
            receipts.push({ client: index, id, at, nullRecord: payload === null || payload === undefined });
            liveClients.add(index);
          },
          error: (error) => fail(JSON.stringify(error instanceof Error ? error.message : error).slice(0, 500)),
          complete: () => {},
        },
      );
    });

  process.on('message', async (message: ToChild) => {
    try {
      if (message.kind === 'connect') {
        const { order } = message;
        // client indexes stay unique across several connect orders (e.g. one per server instance)
        let next = 0;
        const first = clients.length;
        const lane = async () => {
          while (next < order.count) await connectOne(order, first + next++, order.ca);
        };
        await Promise.all(Array.from({ length: Math.min(order.concurrency, order.count) }, lane));
        process.send!({ kind: 'status', status: status() } satisfies FromChild);
      } else if (message.kind === 'status') {
        process.send!({ kind: 'status', status: status() } satisfies FromChild);
      } else if (message.kind === 'reset') {
        receipts = [];
        liveClients = new Set();
        process.send!({ kind: 'status', status: status() } satisfies FromChild);
      } else if (message.kind === 'collect') {
        const latencies: number[] = [];
        const seen = new Set<string>();
        let duplicates = 0;
        let nullRecords = 0;
        let others = 0;
        for (const r of receipts) {
          const sentAt = message.sentAt[r.id];
          if (sentAt === undefined) {
            others++;
            continue;
          }
          const key = `${r.client}:${r.id}`;
          if (seen.has(key)) {
            duplicates++;
            continue;
          }
          seen.add(key);
          if (r.nullRecord) nullRecords++;
          latencies.push(r.at - sentAt);
        }
        const expected = Object.keys(message.sentAt).length * clients.length;
        process.send!({ kind: 'collected', collected: { latencies, missing: expected - seen.size, duplicates, nullRecords, others } } satisfies FromChild);
      } else if (message.kind === 'disconnect') {
        await Promise.all(clients.map((c) => c.dispose()));
        clients.length = 0;
        process.send!({ kind: 'disconnected', status: status() } satisfies FromChild);
      }
    } catch (error) {
      process.send!({ kind: 'failed', message: error instanceof Error ? (error.stack ?? error.message) : String(error) } satisfies FromChild);
    }
  });
  process.send!({ kind: 'ready' } satisfies FromChild);
}

/** The client processes, each holding its share of the subscribers. */
export class SubscriberClients {
  private readonly children: ChildProcess[];
  private readonly waiting = new Map<ChildProcess, ((message: FromChild) => void)[]>();
  readonly ready: Promise<void>;

  constructor(processes: number) {
    this.children = Array.from({ length: processes }, () =>
      fork(fileURLToPath(import.meta.url), ['--subscriber-clients'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv: [] }),
    );
    this.ready = Promise.all(
      this.children.map(
        (child) =>
          new Promise<void>((resolve, reject) => {
            this.waiting.set(child, []);
            child.once('error', reject);
            child.once('exit', (code) => {
              const message = `a subscriber client process exited (code ${code})`;
              reject(new Error(message));
              // whoever still waits for this child's answer gets the failure instead
              for (const waiter of this.waiting.get(child)!.splice(0)) waiter({ kind: 'failed', message });
            });
            child.on('message', (message: FromChild) => {
              if (message.kind === 'ready') return resolve();
              this.waiting.get(child)!.shift()?.(message);
            });
          }),
      ),
    ).then(() => {});
  }

  pids(): number[] {
    return this.children.map((c) => c.pid!).filter(Boolean);
  }

  /** one message to every child, one answer from each (children answer in order) */
  private ask(make: (index: number) => ToChild): Promise<FromChild[]> {
    return Promise.all(
      this.children.map(
        (child, index) =>
          new Promise<FromChild>((resolve, reject) => {
            this.waiting.get(child)!.push((message) => (message.kind === 'failed' ? reject(new Error(message.message)) : resolve(message)));
            child.send(make(index));
          }),
      ),
    );
  }

  private static sum(statuses: ClientsStatus[]): ClientsStatus {
    return statuses.reduce((a, b) => ({
      connected: a.connected + b.connected,
      failed: a.failed + b.failed,
      closed: a.closed + b.closed,
      live: a.live + b.live,
      receipts: a.receipts + b.receipts,
      errors: a.errors + b.errors,
      firstError: a.firstError ?? b.firstError,
    }));
  }

  private async statuses(make: (index: number) => ToChild): Promise<ClientsStatus> {
    const answers = await this.ask(make);
    const statusOf = (m: FromChild): ClientsStatus => {
      if (m.kind === 'status' || m.kind === 'disconnected') return m.status;
      throw new Error(`a subscriber client process answered ${m.kind}`);
    };
    return SubscriberClients.sum(answers.map(statusOf));
  }

  /** spreads `order.count` clients over the processes; resolves once each has connected or failed */
  connect(order: ConnectOrder): Promise<ClientsStatus> {
    const n = this.children.length;
    return this.statuses((i) => ({ kind: 'connect', order: { ...order, count: Math.floor(order.count / n) + (i < order.count % n ? 1 : 0) } }));
  }

  status(): Promise<ClientsStatus> {
    return this.statuses(() => ({ kind: 'status' }));
  }

  /** forgets the receipts so far */
  reset(): Promise<ClientsStatus> {
    return this.statuses(() => ({ kind: 'reset' }));
  }

  async collect(sentAt: Record<string, number>): Promise<Collected> {
    const answers = await this.ask(() => ({ kind: 'collect', sentAt }));
    const parts = answers.map((m) => (m.kind === 'collected' ? m.collected : null)).filter((c): c is Collected => c !== null);
    return {
      latencies: parts.flatMap((p) => p.latencies),
      missing: parts.reduce((s, p) => s + p.missing, 0),
      duplicates: parts.reduce((s, p) => s + p.duplicates, 0),
      nullRecords: parts.reduce((s, p) => s + p.nullRecords, 0),
      others: parts.reduce((s, p) => s + p.others, 0),
    };
  }

  disconnect(): Promise<ClientsStatus> {
    return this.statuses(() => ({ kind: 'disconnect' }));
  }

  async close(): Promise<void> {
    await Promise.all(
      this.children.map(async (child) => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        const exited = new Promise((resolve) => child.once('exit', resolve));
        if (child.connected) child.disconnect();
        const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(timer);
      }),
    );
  }
}

if (process.argv.includes('--subscriber-clients')) await runClients();
