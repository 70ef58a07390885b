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
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type pg from 'pg';

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

export interface BaselineServer {
  /** http(s)://127.0.0.1:<port> */
  url: string;
  close(): Promise<void>;
}

export async function startBaselineServer(options: {
  pool: pg.Pool;
  /** the bench team: records are read within it, as the platform reads them within the caller's */
  teamId: bigint;
  /** the platform's certificate and key; null: plain HTTP */
  tls: { cert: string; key: string } | null;
}): Promise<BaselineServer> {
  const { pool, teamId } = options;
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
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return {
    url: `${options.tls ? 'https' : 'http'}://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
