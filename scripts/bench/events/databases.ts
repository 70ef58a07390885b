// The events section's PostgreSQL: an embedded cluster of its own in a temp folder (or the server
// of DATABASE_URL, whose role then needs CREATEDB). Each scenario runs on a fresh copy of one
// template database, bootstrapped once, so no scenario inherits another's queued jobs, webhooks
// or automations, and the figures of one do not depend on how far the previous one got.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres } from '../../../src/db/embedded-postgres.ts';

export interface ScenarioDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

export interface EventDatabases {
  embedded: boolean;
  /** the embedded cluster's postmaster (for its CPU); null with DATABASE_URL */
  postmasterPid(): number | null;
  /** a new, empty database on the cluster */
  create(label: string): Promise<ScenarioDatabase>;
  /** a new database copied from `template` (which nobody may be connected to) */
  copy(template: ScenarioDatabase, label: string): Promise<ScenarioDatabase>;
  serverVersion(): Promise<string>;
  stop(): Promise<void>;
}

function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function withClient<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, application_name: 'svc-bench-events' });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

export async function startEventDatabases(options: { dataDir: string; databaseUrl: string | undefined; log: (line: string) => void }): Promise<EventDatabases> {
  let serverUrl = options.databaseUrl;
  let stopCluster = async () => {};
  const clusterDir = path.join(options.dataDir, 'postgres', 'cluster');
  if (!serverUrl) {
    options.log(`events: starting embedded PostgreSQL in ${options.dataDir}`);
    const cluster = await startEmbeddedPostgres({ dataDir: options.dataDir });
    serverUrl = cluster.url;
    stopCluster = () => cluster.stop();
  }
  const adminUrl = serverUrl;
  const embedded = !options.databaseUrl;
  const make = async (label: string, template: string | null): Promise<ScenarioDatabase> => {
    const name = `svc_bench_events_${label.replace(/[^a-z0-9]/g, '_')}_${randomBytes(4).toString('hex')}`;
    await withClient(adminUrl, (client) => client.query(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ''}`));
    return {
      name,
      url: databaseUrl(adminUrl, name),
      drop: () => withClient(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => {}),
    };
  };
  return {
    embedded,
    postmasterPid() {
      if (!embedded) return null;
      try {
        const pid = Number(fs.readFileSync(path.join(clusterDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
        return Number.isInteger(pid) && pid > 0 ? pid : null;
      } catch {
        return null;
      }
    },
    create: (label) => make(label, null),
    copy: (template, label) => make(label, template.name),
    serverVersion: () => withClient(adminUrl, async (client) => (await client.query<{ server_version: string }>('SHOW server_version')).rows[0]?.server_version ?? '?'),
    stop: () => stopCluster(),
  };
}

/** A connection of its own to a scenario's database (for polling: one backend, not one per poll). */
export async function connectDatabase(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url, application_name: 'svc-bench-events' });
  await client.connect();
  return client;
}

/** One statement on a scenario's database, on a connection of its own. */
export function queryDatabase<Row extends pg.QueryResultRow>(url: string, sql: string, values: unknown[] = []): Promise<Row[]> {
  return withClient(url, async (client) => (await client.query<Row>(sql, values)).rows);
}
