// Ending a pg pool by a deadline. pool.end() closes idle connections at once but waits, with no
// limit, for every checked-out one to be released: a slow transaction (a lock wait, a long query)
// would hold the shutdown for as long as it runs. Past the deadline the connections still checked
// out are ended: their backends are terminated through one short-lived connection (a backend busy
// in a query does not notice its client going away), which rolls their transactions back, and
// the clients are closed so their holders fail at once.
import pg from 'pg';

const tracked = new WeakMap<pg.Pool, { clients: Set<pg.Client>; connectionString: string }>();

/** Keeps the pool's connections known (pg-pool has no public list of them); call once, at creation. */
export function trackPoolClients(pool: pg.Pool, connectionString: string): void {
  const clients = new Set<pg.Client>();
  tracked.set(pool, { clients, connectionString });
  pool.on('connect', (client) => void clients.add(client));
  pool.on('remove', (client) => void clients.delete(client));
}

/** Resolves with true when `promise` settles before `deadline` (epoch ms), false otherwise. */
export async function settlesBy(promise: Promise<unknown>, deadline: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), Math.max(0, deadline - Date.now()))));
  try {
    return await Promise.race([promise.then(() => true, () => true), timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Ends `pool`: waits for checked-out connections until `deadline`, then ends them; resolves by
 * `hardDeadline` at the latest (what is still open then is left to the process exit).
 */
export async function endPool(pool: pg.Pool, deadline: number, hardDeadline: number): Promise<void> {
  const ended = pool.ending ? Promise.resolve() : pool.end();
  if (await settlesBy(ended, deadline)) return;
  const known = tracked.get(pool);
  const busy = [...(known?.clients ?? [])];
  // (pg keeps each connection's backend pid, for cancel requests, without declaring it)
  const pids = busy.map((client) => (client as pg.Client & { processID?: number }).processID).filter((pid): pid is number => typeof pid === 'number');
  if (known && pids.length > 0) await settlesBy(terminateBackends(known.connectionString, pids, hardDeadline), hardDeadline);
  for (const client of busy) void client.end().catch(() => {});
  await settlesBy(ended, hardDeadline);
}

async function terminateBackends(connectionString: string, pids: number[], hardDeadline: number): Promise<void> {
  const client = new pg.Client({ connectionString, application_name: 'svc-shutdown', connectionTimeoutMillis: Math.max(1, hardDeadline - Date.now()) });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid', [pids]);
  } catch {
    // the database is unreachable: its backends end with their sockets
  } finally {
    void client.end().catch(() => {});
  }
}
