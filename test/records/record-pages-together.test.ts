// Identical record pages asked for together (many clients on the first page of one collection)
// share one statement; each still gets the whole page, its total and its own envelope, over REST and
// GraphQL. A page asked for after a write has returned shows that write, however many identical
// pages are being read at the time. A page's rows are frozen: one row may answer several requests.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCollection } from '../support/data-fixtures.ts';
import { expectOk, gqlData } from '../support/expect-envelope.ts';
import { startServerWithTeam, type TeamFixture } from '../support/fixtures.ts';
import { createRecord } from '../support/record-fixtures.ts';
import type { TestServer } from '../support/server.ts';
import { countSql } from '../support/sql-counter.ts';
import { until } from '../support/until.ts';

describe('record pages read together', () => {
  let server: TestServer;
  let team: TeamFixture;
  let things: string;
  let label: string;

  beforeAll(async () => {
    ({ server, team } = await startServerWithTeam({ env: { DB_POOL_SIZE: 2 } }));
    const collection = await createCollection(server, team, { name: 'Things', formula: '{label}', fields: { label: 'PLAIN_TEXT' } });
    things = collection.id;
    label = collection.fields.label!;
    for (let i = 0; i < 30; i++) await createRecord(server, team.apiKey, things, { [label]: `thing ${i}` });
  });
  afterAll(() => server?.close());

  const listPath = () => `/v1/data-records?dataCollectionSimplyId=${things}&limit=25`;

  it('answers each concurrent identical page in full, from fewer statements than pages', async () => {
    const pool = server.app.services.pool;
    const sql = countSql(pool);
    const alone = expectOk(await server.request('GET', listPath(), { token: team.apiKey }));
    const held = await Promise.all([pool.connect(), pool.connect()]);
    sql.reset();
    const answers = Promise.all([
      Promise.all(Array.from({ length: 12 }, () => server.request('GET', listPath(), { token: team.apiKey }))),
      Promise.all(
        Array.from({ length: 4 }, () =>
          server.graphql('query ($c: String!) { dataRecords(dataCollectionSimplyId: $c, limit: 25) { nodes { id name } pagination { total } } }', { c: things }, { token: team.apiKey }),
        ),
      ),
    ]);
    await until('a page waiting for a connection', () => pool.waitingCount > 0);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    for (const client of held) client.release();
    const [rest, graphql] = await answers;
    const requestIds = new Set<string>();
    for (const res of rest) {
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual(alone);
      expect(res.body.meta.pagination).toEqual({ total: 30, limit: 25, offset: 0, hasMore: true });
      requestIds.add(res.body.meta.requestId);
    }
    expect(requestIds.size).toBe(rest.length);
    for (const res of graphql) {
      const page = gqlData(res).dataRecords;
      expect(page.pagination.total).toBe(30);
      expect(page.nodes).toEqual(alone.map((r: { id: string; name: string }) => ({ id: r.id, name: r.name })));
    }
    const pages = sql.statements.filter((text) => text.includes('FROM (SELECT') && text.includes('"DataRecordMembership" m'));
    expect(pages.length).toBeGreaterThan(0);
    expect(pages.length).toBeLessThan(rest.length + graphql.length);
  });

  it('shows a write in every page asked for after it, while identical pages are read all along', async () => {
    let reading = true;
    const readers = Array.from({ length: 6 }, async () => {
      while (reading) expect((await server.request('GET', listPath(), { token: team.apiKey })).status).toBe(200);
    });
    try {
      for (let i = 0; i < 8; i++) {
        const created = await createRecord(server, team.apiKey, things, { [label]: `new ${i}` });
        const res = await server.request('GET', listPath(), { token: team.apiKey });
        const page = expectOk(res);
        expect(page[0].id).toBe(created.id);
        expect(res.body.meta.pagination.total).toBe(31 + i);
      }
    } finally {
      reading = false;
      await Promise.all(readers);
    }
  });
});
