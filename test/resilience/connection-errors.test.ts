// The shapes "the database cannot be reached" takes through pg, pg-pool, @prisma/adapter-pg and
// Prisma, produced for real (a closed port, a pool with no free connection, a backend terminated
// mid-query, a proxy cut mid-query), each recognised as such; a fault of the request is not.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import net from 'node:net';
import pg from 'pg';
import { toPublicError } from '../../src/app/error-mapping.ts';
import { isDatabaseUnavailable } from '../../src/db/connection-errors.ts';
import { createPool, createPrisma } from '../../src/db/prisma.ts';
import { startPostgresProxy, type PostgresProxy } from '../support/postgres-proxy.ts';

const databaseUrl = inject('databaseUrl');

/** A URL of the test database on a port nothing listens on. */
async function closedPortUrl(): Promise<string> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  const url = new URL(databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return url.toString();
}

async function failure(work: () => Promise<unknown>): Promise<unknown> {
  try {
    await work();
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

async function terminateFrom(sql: string, run: (sql: string) => Promise<unknown>): Promise<unknown> {
  const pending = failure(() => run(sql));
  const killer = new pg.Client({ connectionString: databaseUrl });
  await killer.connect();
  try {
    for (;;) {
      const { rows } = await killer.query(`SELECT pid FROM pg_stat_activity WHERE query = $1 AND state = 'active'`, [sql]);
      if (rows.length > 0) {
        await killer.query('SELECT pg_terminate_backend($1)', [rows[0].pid]);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    await killer.end();
  }
  return pending;
}

describe('database-unreachable failures', () => {
  let refusedUrl: string;
  let proxy: PostgresProxy;
  beforeAll(async () => {
    refusedUrl = await closedPortUrl();
    proxy = await startPostgresProxy(databaseUrl);
  });
  afterAll(() => proxy?.close());

  it('connection refused: pg, the pool and Prisma (P1001)', async () => {
    const pool = createPool(refusedUrl, 1);
    const prisma = createPrisma(pool);
    try {
      const shapes = [
        await failure(() => pool.query('SELECT 1')),
        await failure(() => prisma.team.findFirst()),
        await failure(() => prisma.$transaction(async (tx) => tx.team.findFirst())),
        await failure(() => prisma.$queryRaw`SELECT 1`),
      ];
      expect((shapes[1] as { code?: string }).code).toBe('P1001');
      for (const error of shapes) {
        expect(isDatabaseUnavailable(error), String(error)).toBe(true);
        expect(toPublicError(error)).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE', headers: { 'Retry-After': '5' }, unexpected: false });
      }
    } finally {
      await prisma.$disconnect();
      await pool.end();
    }
  });

  it('no connection free in time: the pool gives up after its connect timeout', async () => {
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 1, connectionTimeoutMillis: 100 });
    const held = await pool.connect();
    try {
      const error = await failure(() => pool.query('SELECT 1'));
      expect((error as Error).message).toMatch(/timeout exceeded when trying to connect/);
      expect(isDatabaseUnavailable(error)).toBe(true);
    } finally {
      held.release();
      await pool.end();
    }
  });

  it('a transaction that finds no connection within its wait is a 503 to retry, not a 500 (Prisma P2028)', async () => {
    const pool = createPool(databaseUrl, 1);
    const prisma = createPrisma(pool);
    const held = await pool.connect();
    try {
      // the platform's transactions wait as long as the pool does; a shorter wait shows the same failure sooner
      const error = await failure(() => prisma.$transaction(async (tx) => tx.$queryRaw`SELECT 1`, { maxWait: 100 }));
      expect((error as { code?: string }).code).toBe('P2028');
      const answered = toPublicError(error);
      expect(answered).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE', unexpected: false });
      expect(answered.headers?.['Retry-After']).toBeDefined();
    } finally {
      held.release();
      await prisma.$disconnect();
      await pool.end();
    }
  });

  it('the backend terminated mid-query (a restart): pg (57P01) and Prisma', async () => {
    const pool = createPool(databaseUrl, 2);
    const prisma = createPrisma(pool);
    try {
      const viaPg = await terminateFrom('SELECT pg_sleep(5) AS pg_path', (sql) => pool.query(sql));
      const viaPrisma = await terminateFrom('SELECT pg_sleep(5) AS prisma_path', (sql) => prisma.$queryRawUnsafe(sql));
      for (const error of [viaPg, viaPrisma]) expect(isDatabaseUnavailable(error), String(error)).toBe(true);
      // the pool dropped the broken connections: the next queries work
      expect((await pool.query('SELECT 1 AS ok')).rows).toEqual([{ ok: 1 }]);
      expect(await prisma.team.count()).toEqual(expect.any(Number));
    } finally {
      await prisma.$disconnect();
      await pool.end();
    }
  });

  it('the connection cut mid-query (a network cut): pg and Prisma', async () => {
    const pool = createPool(proxy.url, 2);
    const prisma = createPrisma(pool);
    try {
      const viaPg = failure(() => pool.query('SELECT pg_sleep(5)'));
      const viaPrisma = failure(() => prisma.$transaction(async (tx) => tx.$queryRaw`SELECT pg_sleep(5)`));
      await new Promise((resolve) => setTimeout(resolve, 300));
      await proxy.cut();
      for (const error of [await viaPg, await viaPrisma]) expect(isDatabaseUnavailable(error), String(error)).toBe(true);
      await proxy.restore();
      expect((await pool.query('SELECT 1 AS ok')).rows).toEqual([{ ok: 1 }]);
    } finally {
      await proxy.restore();
      await prisma.$disconnect();
      await pool.end();
    }
  });

  it('faults of the request are not outages', async () => {
    const pool = createPool(databaseUrl, 1);
    const prisma = createPrisma(pool);
    try {
      for (const error of [
        await failure(() => pool.query('SELECT * FROM "NoSuchTable"')),
        await failure(() => pool.query(`SELECT 'x'::int`)),
        await failure(() => prisma.$queryRaw`SELECT 1/0`),
        new Error('something else'),
      ]) {
        expect(isDatabaseUnavailable(error), String(error)).toBe(false);
      }
    } finally {
      await prisma.$disconnect();
      await pool.end();
    }
  });
});
