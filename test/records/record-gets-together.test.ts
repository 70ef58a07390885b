// Record gets that wait for a database connection together share statements (at most 8 records
// each); every get still answers with its own record: the same record asked for twice, a record of
// another team, a deleted one and an unknown id each get what a lone get would. On a pool of two
// connections both busy, thirty-three concurrent gets cost fewer than half as many statements.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCollection } from '../support/data-fixtures.ts';
import { expectError, expectOk, gqlData } from '../support/expect-envelope.ts';
import { createTeam, startServerWithTeam, type TeamFixture } from '../support/fixtures.ts';
import { createRecord } from '../support/record-fixtures.ts';
import type { TestServer } from '../support/server.ts';
import { countSql } from '../support/sql-counter.ts';
import { until } from '../support/until.ts';

describe('record gets that wait together', () => {
  let server: TestServer;
  let team: TeamFixture;
  let label: string;
  const mine: { id: string; label: string }[] = [];
  let theirs: string;
  let deleted: string;

  beforeAll(async () => {
    ({ server, team } = await startServerWithTeam({ env: { DB_POOL_SIZE: 2 } }));
    const things = await createCollection(server, team, { name: 'Things', formula: '{label}', fields: { label: 'PLAIN_TEXT' } });
    label = things.fields.label!;
    for (let i = 0; i < 20; i++) mine.push({ id: (await createRecord(server, team.apiKey, things.id, { [label]: `thing ${i}` })).id, label: `thing ${i}` });
    deleted = (await createRecord(server, team.apiKey, things.id, { [label]: 'gone' })).id;
    expectOk(await server.request('DELETE', `/v1/data-records/${deleted}`, { token: team.apiKey }));
    const other = await createTeam(server);
    const otherThings = await createCollection(server, other, { name: 'Theirs', fields: { label: 'PLAIN_TEXT' } });
    theirs = (await createRecord(server, other.apiKey, otherThings.id, { [otherThings.fields.label!]: 'theirs' })).id;
  });
  afterAll(() => server?.close());

  it('answers each concurrent get with its own record, over REST and GraphQL', async () => {
    const pool = server.app.services.pool;
    const sql = countSql(pool);
    const wanted = [...mine, ...mine.slice(0, 5)];
    // both connections busy while the requests arrive, so their gets wait for one together
    const held = await Promise.all([pool.connect(), pool.connect()]);
    const answers = Promise.all([
      Promise.all(wanted.map((r) => server.request('GET', `/v1/data-records/${r.id}`, { token: team.apiKey }))),
      server.request('GET', '/v1/data-records/ZZZZ-ZZZZ-ZZZZ', { token: team.apiKey }),
      server.request('GET', `/v1/data-records/${theirs}`, { token: team.apiKey }),
      server.request('GET', `/v1/data-records/${deleted}`, { token: team.apiKey }),
      Promise.all(mine.slice(5, 10).map((r) => server.graphql('query ($id: String!) { dataRecord(dataRecordSimplyId: $id) { id name } }', { id: r.id }, { token: team.apiKey }))),
    ]);
    await until('a get waiting for a connection', () => pool.waitingCount > 0);
    // time for the other requests to reach their get (they would still be answered, only in more statements)
    await new Promise((resolve) => setTimeout(resolve, 1000));
    for (const client of held) client.release();
    const [found, unknown, other, gone, viaGraphql] = await answers;
    found.forEach((res, i) => {
      const record = expectOk(res);
      expect(record.id).toBe(wanted[i]!.id);
      expect(record.fields[label]).toBe(wanted[i]!.label);
    });
    expectError(unknown, 404, 'NOT_FOUND');
    expectError(other, 404, 'NOT_FOUND');
    expectError(gone, 404, 'NOT_FOUND');
    viaGraphql.forEach((res, i) => expect(gqlData(res).dataRecord).toEqual({ id: mine[5 + i]!.id, name: mine[5 + i]!.label }));
    const gets = sql.statements.filter((text) => text.includes('FROM "DataRecord" r') && text.includes('"simplyId"'));
    expect(gets.length).toBeGreaterThan(0);
    expect(gets.length).toBeLessThan((wanted.length + 8) / 2);
  });
});
