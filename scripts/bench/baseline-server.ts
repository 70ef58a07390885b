// The baselines of `npm run bench`: a bare server with its own pg.Pool and no framework, the
// cheapest service that still answers from the same database. It speaks HTTPS with the
// platform's certificate, or plain HTTP when the platform is measured behind a TLS-terminating
// proxy (TRUST_PROXY), so every ratio compares servers that pay for the same transport.
//
//   GET /teams/{teamSimplyId}               one indexed SELECT of a team (id, name)
//   GET /records/{dataRecordSimplyId}       one indexed SELECT of a record of the bench team
//   GET /collections/{collectionId}/records the 25 newest records of a collection, through the
//                                           membership index the platform's default page uses
//
// Statements are unnamed and parameterised, as a plain `pool.query(text, values)` sends them.
//
// It runs in a child process of its own (this file, run with `--baseline-server`, started by
// baseline-process.ts), so it has a heap and a garbage collector of its own, as a deployed bare
// server would, rather than sharing the bench process's with the platform.
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { CpuProfiler } from './cpu-profiler.ts';
import { countPgQueries } from './pg-query-counter.ts';

const TEAM = 'SELECT id, name FROM "Team" WHERE "simplyId" = $1';

const RECORD_COLUMNS = 'r.id, r."simplyId", r."values", r."calculatedName", r."createdAt", r."updatedAt"';

const RECORD = `SELECT ${RECORD_COLUMNS} FROM "DataRecord" r WHERE r."teamId" = $1 AND r."simplyId" = $2 AND r."deletedAt" IS NULL`;

// (teamId, collectionId, state, recordCreatedAt, recordId) gives the order; the record rows are
// read for the 25 memberships only
const NEWEST_RECORDS = `SELECT ${RECORD_COLUMNS}
   FROM "DataRecordMembership" m
   JOIN "DataRecord" r ON r."teamId" = m."teamId" AND r.id = m."recordId"
  WHERE m."teamId" = $1 AND m."collectionId" = $2 AND m.state = 'ACTIVE'
  ORDER BY m."recordCreatedAt" DESC, m."recordId" DESC
  LIMIT 25`;

export interface BaselineOptions {
  databaseUrl: string;
  /** the platform's DB_POOL_SIZE */
  poolSize: number;
  /** the bench team (a bigint as a string): records are read within it, as the platform reads them within the caller's */
  teamId: string;
  /** the platform's certificate and key; null: plain HTTP */
  tls: { cert: string; key: string } | null;
}

/** What one measured run saw inside the child. */
export interface BaselineRunCounters {
  /** statements sent through pg */
  pgQueries: number;
  /** largest V8 heap in use, sampled every 200 ms */
  heapUsedMaxBytes: number;
  /** the CPU profile written, when one was asked for */
  cpuProfile: string | null;
}

export type ToBaseline =
  | { kind: 'start'; options: BaselineOptions }
  | { kind: 'begin-run'; profileDir: string | null }
  | { kind: 'end-run'; profileName: string | null }
  | { kind: 'close' };

export type FromBaseline =
  | { kind: 'listening'; url: string }
  | { kind: 'run-begun' }
  | { kind: 'run-ended'; counters: BaselineRunCounters }
  | { kind: 'failed'; message: string };

function serve(options: BaselineOptions, pool: pg.Pool): Promise<{ url: string; close: () => Promise<void> }> {
  const { teamId } = options;
  const send = (res: http.ServerResponse, status: number, payload: string) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(payload) });
    res.end(payload);
  };
  const answer = (res: http.ServerResponse, query: Promise<pg.QueryResult>, shape: (rows: any[]) => unknown | null) =>
    query.then(
      (result) => {
        const data = shape(result.rows);
        send(res, data === null ? 404 : 200, JSON.stringify(data === null ? { error: 'not found' } : { data }));
      },
      () => send(res, 500, JSON.stringify({ error: 'query failed' })),
    );
  const handler = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const parts = (req.url ?? '').split('/');
    if (parts[1] === 'teams' && parts.length === 3) {
      return answer(res, pool.query(TEAM, [decodeURIComponent(parts[2]!)]), (rows) => (rows[0] ? { id: String(rows[0].id), name: rows[0].name } : null));
    }
    if (parts[1] === 'records' && parts.length === 3) {
      return answer(res, pool.query(RECORD, [teamId, decodeURIComponent(parts[2]!)]), (rows) => rows[0] ?? null);
    }
    if (parts[1] === 'collections' && parts[3] === 'records' && parts.length === 4 && /^\d+$/.test(parts[2]!)) {
      return answer(res, pool.query(NEWEST_RECORDS, [teamId, parts[2]]), (rows) => rows);
    }
    send(res, 404, JSON.stringify({ error: 'no route' }));
  };
  const serverOptions = { keepAliveTimeout: 5_000, headersTimeout: 10_000, requestTimeout: 60_000 };
  const server = options.tls ? https.createServer({ ...serverOptions, cert: options.tls.cert, key: options.tls.key }, handler) : http.createServer(serverOptions, handler);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `${options.tls ? 'https' : 'http'}://127.0.0.1:${(server.address() as AddressInfo).port}`,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      }),
    );
  });
}

async function baselineProcess(): Promise<void> {
  // the parent going away without closing (crash, SIGKILL) ends this process too
  process.on('disconnect', () => process.exit(0));
  const reply = (message: FromBaseline): void => {
    process.send!(message);
  };

  const { count: pgQueries } = countPgQueries(pg);

  let pool: pg.Pool | null = null;
  let server: { url: string; close: () => Promise<void> } | null = null;
  let profiler: CpuProfiler | null = null;
  let run: { queriesBefore: number; heapUsedMax: number; timer: NodeJS.Timeout; profiling: boolean } | null = null;
  const sampleHeap = () => {
    if (run) run.heapUsedMax = Math.max(run.heapUsedMax, process.memoryUsage().heapUsed);
  };

  const handle = async (message: ToBaseline): Promise<void> => {
    switch (message.kind) {
      case 'start': {
        const { options } = message;
        pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize, application_name: 'svc-bench-baseline' });
        pool.on('error', () => {});
        server = await serve(options, pool);
        return reply({ kind: 'listening', url: server.url });
      }
      case 'begin-run': {
        if (message.profileDir) {
          profiler ??= new CpuProfiler(message.profileDir);
          await profiler.start();
        }
        run = { queriesBefore: pgQueries(), heapUsedMax: 0, timer: setInterval(sampleHeap, 200), profiling: message.profileDir !== null };
        sampleHeap();
        return reply({ kind: 'run-begun' });
      }
      case 'end-run': {
        if (!run) throw new Error('end-run without begin-run');
        const ended = run;
        clearInterval(ended.timer);
        sampleHeap();
        run = null;
        const cpuProfile = ended.profiling && profiler && message.profileName ? await profiler.stop(message.profileName) : null;
        return reply({ kind: 'run-ended', counters: { pgQueries: pgQueries() - ended.queriesBefore, heapUsedMaxBytes: ended.heapUsedMax, cpuProfile } });
      }
      case 'close': {
        if (run) clearInterval(run.timer);
        await profiler?.close();
        await server?.close();
        await pool?.end();
        process.exit(0);
      }
    }
  };
  process.on('message', (message: ToBaseline) => {
    handle(message).catch((error: unknown) => reply({ kind: 'failed', message: error instanceof Error ? error.message : String(error) }));
  });
}

if (process.argv.includes('--baseline-server')) await baselineProcess();
