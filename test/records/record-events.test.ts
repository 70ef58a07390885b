// What a record write leaves behind (record-changes.ts): one DomainEvent per changed record (plus
// one DATA_RECORDS_BULK_SYNCED per batch) and one audit entry per changed record, written in the
// write's own transaction; and the outbox (outbox.ts) handing those events on, oldest first, at
// least once, in the consumers' transaction, from a pg-boss job nudged after every write.
//
// The outbox is global (every team's events, one table), and any instance that runs jobs on a
// database dispatches it, so this file uses a database of its own: no other file's worker can
// dispatch (or fail to dispatch) its events, and what the outbox holds is exactly what it wrote.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { purgeDispatchedEvents } from '../../src/app/outbox.jobs.ts';
import { DISPATCH_DOMAIN_EVENTS, DomainEventOutbox, MAX_FAILURE_ATTEMPTS, type DomainEventRow } from '../../src/app/outbox.ts';
import { applyPendingMigrations } from '../../src/db/schema-engine/migrations.ts';

import { createThrowawayDatabase, type ThrowawayDatabase } from '../db/helpers.ts';
import { createLabelCollection, type CollectionFixture } from '../support/data-fixtures.ts';
import { expectError, expectOk, gqlData } from '../support/expect-envelope.ts';
import { createApiKey, createTeam, type TeamFixture } from '../support/fixtures.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { untilWith } from '../support/until.ts';
import { createPeople, createRecord } from '../support/record-fixtures.ts';
import { teamRoleId } from '../../src/modules/team-roles/team-roles.ids.ts';

const until = untilWith({ timeoutMs: 10_000, everyMs: 50 });
const EVENT_ID = /^[0-9a-z]{14}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

interface EventRow {
  id: bigint;
  teamId: bigint;
  eventId: string;
  eventType: string;
  collectionId: bigint | null;
  payload: any;
  dispatchedAt: Date | null;
}

let db: ThrowawayDatabase;
let server: TestServer;
let team: TeamFixture;
let people: CollectionFixture;
let places: CollectionFixture;
let f: Record<string, string>;

beforeAll(async () => {
  db = await createThrowawayDatabase(inject('databaseUrl'), 'events');
  await applyPendingMigrations({ databaseUrl: db.url });
  server = await startTestServer({ databaseUrl: db.url, runJobs: false });
  team = await createTeam(server);
  people = await createPeople(server, team);
  places = await createLabelCollection(server, team, 'Places', '{label}');
  f = people.fields;
});
afterAll(async () => {
  await server?.close();
  await db?.drop();
});

const sql = <T = any>(text: string, values: unknown[] = []) => server.app.services.pool.query(text, values).then((r) => r.rows as T[]);

async function lastEventId(): Promise<bigint> {
  return BigInt((await sql(`SELECT coalesce(max(id), 0) AS id FROM "DomainEvent"`))[0].id);
}

/** every DomainEvent written after `since`, oldest first */
async function eventsAfter(since: bigint): Promise<EventRow[]> {
  const rows = await sql(`SELECT id, "teamId", "eventId", "eventType", "collectionId", payload, "dispatchedAt" FROM "DomainEvent" WHERE id > $1 ORDER BY id`, [since]);
  return rows.map((r) => ({ ...r, id: BigInt(r.id), teamId: BigInt(r.teamId), collectionId: r.collectionId === null ? null : BigInt(r.collectionId) }));
}

/** what happened during `work`: the new events and the new audit entries */
async function sideEffectsOf(work: () => Promise<unknown>) {
  const since = await lastEventId();
  const auditSince = BigInt((await sql(`SELECT coalesce(max(id), 0) AS id FROM "AuditLogEntry"`))[0].id);
  await work();
  const events = await eventsAfter(since);
  const audit = await server.app.services.prisma.auditLogEntry.findMany({ where: { id: { gt: auditSince }, entityType: 'DataRecord' }, orderBy: { id: 'asc' } });
  return { events, audit };
}

const create = (fields: Record<string, unknown>, collection = people.id) => createRecord(server, team.apiKey, collection, fields);

describe('each write leaves its events and audit entries, in its own transaction', () => {
  it('a create writes one DATA_RECORD_CREATED with the whole record, and one CREATE audit entry', async () => {
    let record: any;
    let requestId = '';
    const { events, audit } = await sideEffectsOf(async () => {
      const response = await server.request('POST', '/v1/data-records', {
        token: team.apiKey,
        body: { dataCollectionSimplyId: people.id, fields: { [f.first_name!]: 'Ada', [f.last_name!]: 'Lovelace', [f.age!]: 36, [f.balance!]: 12.5, nope: 1 } },
      });
      record = expectOk(response, 201);
      requestId = response.body.meta.requestId;
    });
    expect(events).toHaveLength(1);
    const [event] = events as [EventRow];
    expect(event.eventId).toMatch(EVENT_ID);
    expect(event).toMatchObject({ teamId: team.teamId, eventType: 'DATA_RECORD_CREATED', collectionId: people.internalId, dispatchedAt: null });
    expect(event.payload).toEqual({
      eventType: 'DATA_RECORD_CREATED',
      eventId: event.eventId,
      occurredAt: expect.stringMatching(ISO),
      data: record, // the wire form of the record: exactly what REST answered
      actor: { kind: 'API_KEY', id: team.apiKeySimplyId, userSimplyId: null },
    });
    expect(event.payload.data).toMatchObject({ dataRecordSimplyId: record.id, dataCollectionSimplyId: people.id, fields: { [f.balance!]: '12.50' } });
    expect(Math.abs(Date.parse(event.payload.occurredAt) - Date.now())).toBeLessThan(60_000);

    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      teamId: team.teamId,
      entityType: 'DataRecord',
      entitySimplyId: record.id,
      action: 'CREATE',
      actorKind: 'API_KEY',
      actorCredentialId: team.apiKeySimplyId,
      actorUserSimplyId: null,
      source: 'REST',
      requestId,
    });
    expect(audit[0]!.changes).toEqual([
      { dataFieldSimplyId: f.first_name, before: null, after: 'Ada' },
      { dataFieldSimplyId: f.last_name, before: null, after: 'Lovelace' },
      { dataFieldSimplyId: f.age, before: null, after: 36 },
      { dataFieldSimplyId: f.balance, before: null, after: '12.50' },
    ]);
  });

  it('an update writes one DATA_RECORD_UPDATED with changedFieldSimplyIds and previousFields; the audit keeps before/after', async () => {
    const record = await create({ [f.first_name!]: 'Alan', [f.last_name!]: 'Turing', [f.age!]: 41, [f.balance!]: '3' });
    let updated: any;
    const { events, audit } = await sideEffectsOf(async () => {
      updated = expectOk(await server.request('PATCH', `/v1/data-records/${record.id}`, { token: team.apiKey, body: { fields: { [f.age!]: 42, [f.last_name!]: null, [f.first_name!]: 'Alan' } } }));
    });
    expect(events.map((e) => e.eventType)).toEqual(['DATA_RECORD_UPDATED']);
    const payload = events[0]!.payload;
    expect(payload).toEqual({
      eventType: 'DATA_RECORD_UPDATED',
      eventId: events[0]!.eventId,
      occurredAt: expect.stringMatching(ISO),
      data: { ...updated, changedFieldSimplyIds: [f.last_name, f.age], previousFields: { [f.last_name!]: 'Turing', [f.age!]: 41 } },
      actor: { kind: 'API_KEY', id: team.apiKeySimplyId, userSimplyId: null },
    });
    expect(payload.data.fields).toEqual({ [f.first_name!]: 'Alan', [f.age!]: 42, [f.balance!]: '3.00' });
    expect(payload.data.name).toBe('Alan');
    expect(events[0]!.eventId).toMatch(EVENT_ID);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ entitySimplyId: record.id, action: 'UPDATE', source: 'REST' });
    expect(audit[0]!.changes).toEqual([
      { dataFieldSimplyId: f.last_name, before: 'Turing', after: null },
      { dataFieldSimplyId: f.age, before: 41, after: 42 },
    ]);
  });

  it('a delete writes one DATA_RECORD_DELETED carrying the record as it was, and one DELETE audit entry', async () => {
    const record = await create({ [f.first_name!]: 'Gone', [f.age!]: 9 });
    const { events, audit } = await sideEffectsOf(async () => expectOk(await server.request('DELETE', `/v1/data-records/${record.id}`, { token: team.apiKey })));
    expect(events.map((e) => e.eventType)).toEqual(['DATA_RECORD_DELETED']);
    expect(events[0]!.payload.data).toMatchObject({ dataRecordSimplyId: record.id, dataCollectionSimplyId: people.id, name: 'Gone', fields: { [f.first_name!]: 'Gone', [f.age!]: 9 } });
    expect(events[0]!.payload.data).not.toHaveProperty('changedFieldSimplyIds');
    expect(events[0]!.collectionId).toBe(people.internalId);
    expect(audit.map((a) => [a.entitySimplyId, a.action, a.changes])).toEqual([[record.id, 'DELETE', []]]);
  });

  it('GraphQL writes are audited with source GRAPHQL (user JWT: actor USER), the create menu with CREATE_MENU', async () => {
    const as = { token: team.userToken, teamId: team.teamSimplyId };
    let id = '';
    const created = await sideEffectsOf(async () => {
      const r = gqlData(await server.graphql(`mutation ($c: String!, $fields: JSON) { createDataRecord(dataCollectionSimplyId: $c, fields: $fields) { record { id } } }`, { c: people.id, fields: { [f.first_name!]: 'Via GraphQL' } }, as));
      id = r.createDataRecord.record.id;
    });
    expect(created.events.map((e) => e.eventType)).toEqual(['DATA_RECORD_CREATED']);
    expect(created.events[0]!.payload.actor).toEqual({ kind: 'USER', id: expect.any(String), userSimplyId: team.userSimplyId });
    expect(created.audit.map((a) => [a.entitySimplyId, a.action, a.source, a.actorKind, a.actorUserSimplyId])).toEqual([[id, 'CREATE', 'GRAPHQL', 'USER', team.userSimplyId]]);

    const updated = await sideEffectsOf(async () =>
      gqlData(await server.graphql(`mutation ($id: String!, $fields: JSON) { updateDataRecord(dataRecordSimplyId: $id, fields: $fields) { record { id } } }`, { id, fields: { [f.age!]: 5 } }, { token: team.apiKey })),
    );
    expect(updated.events.map((e) => [e.eventType, e.payload.data.changedFieldSimplyIds])).toEqual([['DATA_RECORD_UPDATED', [f.age]]]);
    expect(updated.audit.map((a) => [a.action, a.source, a.actorKind])).toEqual([['UPDATE', 'GRAPHQL', 'API_KEY']]);

    const deleted = await sideEffectsOf(async () => gqlData(await server.graphql(`mutation ($id: String!) { deleteDataRecord(dataRecordSimplyId: $id) { deleted } }`, { id }, { token: team.apiKey })));
    expect(deleted.events.map((e) => e.eventType)).toEqual(['DATA_RECORD_DELETED']);
    expect(deleted.audit.map((a) => [a.action, a.source])).toEqual([['DELETE', 'GRAPHQL']]);

    const menu = await sideEffectsOf(async () =>
      expectOk(await server.request('POST', '/v1/create-menu/data-records', { token: team.apiKey, body: { dataCollectionSimplyId: people.id, formData: { first_name: 'Menu' } } }), 201),
    );
    expect(menu.events.map((e) => e.eventType)).toEqual(['DATA_RECORD_CREATED']);
    expect(menu.audit.map((a) => [a.action, a.source])).toEqual([['CREATE', 'CREATE_MENU']]);
  });

  it('an update that changes nothing writes no event and no audit entry, and keeps updatedAt', async () => {
    const record = await create({ [f.first_name!]: 'Same', [f.age!]: 1, [f.balance!]: '12.50' });
    const { events, audit } = await sideEffectsOf(async () => {
      // the same values, some spelled differently; unknown keys; nothing at all
      const same = expectOk(await server.request('PATCH', `/v1/data-records/${record.id}`, { token: team.apiKey, body: { fields: { [f.first_name!]: 'Same', [f.age!]: 1, [f.balance!]: 12.5 } } }));
      expect(same.updatedAt).toBe(record.updatedAt);
      expectOk(await server.request('PUT', `/v1/data-records/${record.id}`, { token: team.apiKey, body: { fields: { [f.last_name!]: null } } }));
      expectOk(await server.request('PATCH', `/v1/data-records/${record.id}`, { token: team.apiKey, body: { fields: { unknown: 1 } } }));
      gqlData(await server.graphql(`mutation ($id: String!) { updateDataRecord(dataRecordSimplyId: $id, fields: {}) { record { id } } }`, { id: record.id }, { token: team.apiKey }));
    });
    expect(events).toEqual([]);
    expect(audit).toEqual([]);
    expect(expectOk(await server.request('GET', `/v1/data-records/${record.id}`, { token: team.apiKey })).updatedAt).toBe(record.updatedAt);
  });

  it('a write refused by validation, permissions or a missing record writes nothing', async () => {
    const record = await create({ [f.first_name!]: 'Guarded' });
    const reader = (await createApiKey(server, team, { name: 'reader', teamRoleSimplyId: await readerRole() })).key;
    const { events, audit } = await sideEffectsOf(async () => {
      expectError(await server.request('POST', '/v1/data-records', { token: team.apiKey, body: { dataCollectionSimplyId: people.id, fields: { [f.age!]: 1 } } }), 400, 'VALIDATION_ERROR');
      expectError(await server.request('POST', '/v1/data-records', { token: team.apiKey, body: { dataCollectionSimplyId: people.id, fields: { [f.first_name!]: 'X', [f.age!]: 'old' } } }), 400, 'VALIDATION_ERROR');
      expectError(await server.request('PATCH', `/v1/data-records/${record.id}`, { token: team.apiKey, body: { fields: { [f.first_name!]: null } } }), 400, 'VALIDATION_ERROR');
      expectError(await server.request('PATCH', `/v1/data-records/${record.id}`, { token: team.apiKey, body: { fields: { [f.age!]: 'NaN', [f.last_name!]: 'fine' } } }), 400, 'VALIDATION_ERROR');
      expectError(await server.request('PATCH', '/v1/data-records/ZZZZ-ZZZZ-ZZZZ', { token: team.apiKey, body: { fields: { [f.age!]: 1 } } }), 404, 'NOT_FOUND');
      expectError(await server.request('DELETE', '/v1/data-records/ZZZZ-ZZZZ-ZZZZ', { token: team.apiKey }), 404, 'NOT_FOUND');
      expectError(await server.request('POST', '/v1/data-records', { token: reader, body: { dataCollectionSimplyId: people.id, fields: { [f.first_name!]: 'No' } } }), 403, 'PERMISSION_DENIED');
      expectError(await server.request('PATCH', `/v1/data-records/${record.id}`, { token: reader, body: { fields: { [f.age!]: 1 } } }), 403, 'PERMISSION_DENIED');
      expectError(await server.request('DELETE', `/v1/data-records/${record.id}`, { token: reader }), 403, 'PERMISSION_DENIED');
    });
    expect(events).toEqual([]);
    expect(audit).toEqual([]);
  });

  it('a batch writes one event per changed record plus one DATA_RECORDS_BULK_SYNCED, last', async () => {
    const keep = await create({ [f.first_name!]: 'Unchanged', [f.age!]: 1 });
    let created: any;
    const batchCreate = await sideEffectsOf(async () => {
      created = expectOk(
        await server.request('POST', '/v1/data-records/batch', {
          token: team.apiKey,
          body: { dataCollectionSimplyId: people.id, records: [{ fields: { [f.first_name!]: 'B1' } }, { fields: { [f.age!]: 'x' } }, { fields: { [f.first_name!]: 'B3', [f.age!]: 3 } }] },
        }),
      );
    });
    const ids = [created.results[0].record.id, created.results[2].record.id];
    expect(batchCreate.events.map((e) => [e.eventType, e.payload.data.dataRecordSimplyId ?? null])).toEqual([
      ['DATA_RECORD_CREATED', ids[0]],
      ['DATA_RECORD_CREATED', ids[1]],
      ['DATA_RECORDS_BULK_SYNCED', null],
    ]);
    const bulk = batchCreate.events[2]!;
    expect(bulk.eventId).toMatch(EVENT_ID);
    expect(bulk.collectionId).toBe(people.internalId);
    expect(bulk.payload).toEqual({
      eventType: 'DATA_RECORDS_BULK_SYNCED',
      eventId: bulk.eventId,
      occurredAt: batchCreate.events[0]!.payload.occurredAt,
      data: { operation: 'CREATE', dataCollectionSimplyId: people.id, succeeded: 2, failed: 1, dataRecordSimplyIds: ids },
      actor: { kind: 'API_KEY', id: team.apiKeySimplyId, userSimplyId: null },
    });
    expect(new Set(batchCreate.events.map((e) => e.eventId)).size).toBe(3);
    expect(batchCreate.audit.map((a) => [a.entitySimplyId, a.action, a.source])).toEqual(ids.map((id) => [id, 'CREATE', 'REST']));

    // update: a change, a no-op (no event of its own), a failure, and a record of another collection
    const place = await create({ [places.fields.label!]: 'Somewhere' }, places.id);
    const batchUpdate = await sideEffectsOf(async () =>
      expectOk(
        await server.request('PATCH', '/v1/data-records/batch', {
          token: team.apiKey,
          body: {
            records: [
              { dataRecordSimplyId: ids[0], fields: { [f.age!]: 10 } },
              { dataRecordSimplyId: keep.id, fields: { [f.age!]: 1 } },
              { dataRecordSimplyId: 'ZZZZ-ZZZZ-ZZZZ', fields: { [f.age!]: 1 } },
              { dataRecordSimplyId: place.id, fields: { [places.fields.label!]: 'Elsewhere' } },
            ],
          },
        }),
      ),
    );
    expect(batchUpdate.events.map((e) => [e.eventType, e.collectionId, e.payload.data.dataRecordSimplyId ?? null])).toEqual([
      ['DATA_RECORD_UPDATED', people.internalId, ids[0]],
      ['DATA_RECORD_UPDATED', places.internalId, place.id],
      ['DATA_RECORDS_BULK_SYNCED', null, null],
    ]);
    expect(batchUpdate.events[0]!.payload.data).toMatchObject({ changedFieldSimplyIds: [f.age], previousFields: { [f.age!]: null } });
    expect(batchUpdate.events[2]!.payload.data).toEqual({ operation: 'UPDATE', dataCollectionSimplyId: null, succeeded: 3, failed: 1, dataRecordSimplyIds: [ids[0], place.id] });
    expect(batchUpdate.audit.map((a) => [a.entitySimplyId, a.action])).toEqual([[ids[0], 'UPDATE'], [place.id, 'UPDATE']]);

    const batchDelete = await sideEffectsOf(async () =>
      expectOk(await server.request('DELETE', '/v1/data-records/batch', { token: team.apiKey, body: { dataRecordSimplyIds: [ids[1], 'ZZZZ-ZZZZ-ZZZZ', ids[0]] } })),
    );
    expect(batchDelete.events.map((e) => [e.eventType, e.payload.data.dataRecordSimplyId ?? null])).toEqual([
      ['DATA_RECORD_DELETED', ids[1]],
      ['DATA_RECORD_DELETED', ids[0]],
      ['DATA_RECORDS_BULK_SYNCED', null],
    ]);
    expect(batchDelete.events[2]!.payload.data).toEqual({ operation: 'DELETE', dataCollectionSimplyId: null, succeeded: 2, failed: 1, dataRecordSimplyIds: [ids[1], ids[0]] });
    expect(batchDelete.audit.map((a) => [a.entitySimplyId, a.action])).toEqual([[ids[1], 'DELETE'], [ids[0], 'DELETE']]);

    // a batch that changes nothing still writes its summary (docs/api/data-records.md: "one per batch"), nothing else
    const nothing = await sideEffectsOf(async () => {
      expect(expectOk(await server.request('POST', '/v1/data-records/batch', { token: team.apiKey, body: { dataCollectionSimplyId: people.id, records: [{ fields: { [f.age!]: 'x' } }] } }))).toMatchObject({ created: 0, failed: 1 });
      expect(expectOk(await server.request('PATCH', '/v1/data-records/batch', { token: team.apiKey, body: { records: [{ dataRecordSimplyId: keep.id, fields: { [f.age!]: 1 } }] } }))).toMatchObject({ updated: 1, failed: 0 });
    });
    expect(nothing.events.map((e) => [e.eventType, e.payload.data])).toEqual([
      ['DATA_RECORDS_BULK_SYNCED', { operation: 'CREATE', dataCollectionSimplyId: people.id, succeeded: 0, failed: 1, dataRecordSimplyIds: [] }],
      ['DATA_RECORDS_BULK_SYNCED', { operation: 'UPDATE', dataCollectionSimplyId: null, succeeded: 1, failed: 0, dataRecordSimplyIds: [] }],
    ]);
    expect(nothing.audit).toEqual([]);
  });

  it('a write whose transaction fails leaves no record, no event and no audit entry', async () => {
    // make the outbox insert, the last statement of a write, fail for records named "Rollback"
    await sql(`CREATE FUNCTION test_refuse_event() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.payload->'data'->>'name' = 'Rollback' THEN RAISE EXCEPTION 'refused by test trigger'; END IF;
        RETURN NEW;
      END $$`);
    await sql(`CREATE TRIGGER test_refuse_event BEFORE INSERT ON "DomainEvent" FOR EACH ROW EXECUTE FUNCTION test_refuse_event()`);
    try {
      const record = await create({ [f.first_name!]: 'Before' });
      const { events, audit } = await sideEffectsOf(async () => {
        expectError(await server.request('POST', '/v1/data-records', { token: team.apiKey, body: { dataCollectionSimplyId: people.id, fields: { [f.first_name!]: 'Rollback' } } }), 500, 'INTERNAL_ERROR');
        expectError(await server.request('PATCH', `/v1/data-records/${record.id}`, { token: team.apiKey, body: { fields: { [f.first_name!]: 'Rollback', [f.age!]: 1 } } }), 500, 'INTERNAL_ERROR');
        // one bad item fails the whole batch transaction: the good one is not kept either
        expectError(
          await server.request('POST', '/v1/data-records/batch', { token: team.apiKey, body: { dataCollectionSimplyId: people.id, records: [{ fields: { [f.first_name!]: 'Fine' } }, { fields: { [f.first_name!]: 'Rollback' } }] } }),
          500,
          'INTERNAL_ERROR',
        );
      });
      expect(events).toEqual([]);
      expect(audit).toEqual([]);
      expect(await sql(`SELECT 1 FROM "DataRecord" WHERE "teamId" = $1 AND "calculatedName" IN ('Rollback', 'Fine')`, [team.teamId])).toEqual([]);
      expect(expectOk(await server.request('GET', `/v1/data-records/${record.id}`, { token: team.apiKey }))).toEqual(record);
    } finally {
      await sql(`DROP TRIGGER test_refuse_event ON "DomainEvent"`);
      await sql(`DROP FUNCTION test_refuse_event()`);
    }
  });
});

async function readerRole(): Promise<string> {
  const role = await server.app.services.prisma.teamRole.create({
    data: { teamId: team.teamId, simplyId: teamRoleId.create(), name: `Reader ${randomBytes(3).toString('hex')}`, dataPermissions: { create: [{ dataCollectionSimplyId: people.id, level: 'READ' }] } },
  });
  return role.simplyId;
}

describe('dispatchPending', () => {
  /** what each consumer was handed, call by call */
  const calls: { ledger: DomainEventRow[][]; flaky: DomainEventRow[][] } = { ledger: [], flaky: [] };
  const flaky = { broken: false };

  beforeAll(async () => {
    // a consumer that writes through the dispatch transaction, and one that can be made to throw
    await sql(`CREATE TABLE test_consumed (event_id text NOT NULL, event_row bigint NOT NULL)`);
    server.app.services.outbox.register('test-ledger', async (events, tx) => {
      calls.ledger.push([...events]);
      await tx.query(`INSERT INTO test_consumed SELECT * FROM unnest($1::text[], $2::bigint[])`, [events.map((e) => e.eventId), events.map((e) => e.id)]);
    });
    server.app.services.outbox.register('test-flaky', async (events) => {
      calls.flaky.push([...events]);
      if (flaky.broken) throw new Error('consumer is down');
    });
    // whatever the earlier tests left is handed on now
    await server.app.services.outbox.dispatchPending();
    calls.ledger.length = 0;
    calls.flaky.length = 0;
  });

  const consumed = (ids: string[]) => sql<{ event_id: string; n: number }>(`SELECT event_id, count(*)::int AS n FROM test_consumed WHERE event_id = ANY($1) GROUP BY event_id`, [ids]);
  const pending = () => sql<{ eventId: string }>(`SELECT "eventId" FROM "DomainEvent" WHERE "dispatchedAt" IS NULL ORDER BY id`).then((r) => r.map((x) => x.eventId));

  it('hands every undispatched event to every consumer, oldest first, and marks them dispatched', async () => {
    const since = await lastEventId();
    const a = await create({ [f.first_name!]: 'One' });
    await create({ [f.first_name!]: 'Two' });
    expectOk(await server.request('PATCH', `/v1/data-records/${a.id}`, { token: team.apiKey, body: { fields: { [f.age!]: 1 } } }));
    expectOk(await server.request('DELETE', `/v1/data-records/${a.id}`, { token: team.apiKey }));
    const written = await eventsAfter(since);
    expect(written.map((e) => e.eventType)).toEqual(['DATA_RECORD_CREATED', 'DATA_RECORD_CREATED', 'DATA_RECORD_UPDATED', 'DATA_RECORD_DELETED']);
    expect(await pending()).toEqual(written.map((e) => e.eventId));

    const before = Date.now();
    expect(await server.app.services.outbox.dispatchPending()).toBe(4);
    for (const consumer of ['ledger', 'flaky'] as const) {
      expect(calls[consumer]).toHaveLength(1);
      const handed = calls[consumer][0]!;
      expect(handed.map((e) => e.eventId)).toEqual(written.map((e) => e.eventId));
      expect(handed.map((e) => e.id)).toEqual([...handed.map((e) => e.id)].sort((x, y) => (x < y ? -1 : 1)));
      expect(handed.map((e) => [e.teamId, e.eventType, e.collectionId, e.payload])).toEqual(written.map((e) => [e.teamId, e.eventType, e.collectionId, e.payload]));
      expect(handed.every((e) => e.occurredAt instanceof Date)).toBe(true);
    }
    expect((await consumed(written.map((e) => e.eventId))).every((r) => r.n === 1)).toBe(true);
    const marked = await eventsAfter(since);
    expect(marked.every((e) => e.dispatchedAt !== null && e.dispatchedAt.getTime() >= before - 5000)).toBe(true);
    expect(await pending()).toEqual([]);

    // nothing left: nothing handed on again
    expect(await server.app.services.outbox.dispatchPending()).toBe(0);
    expect(calls.ledger).toHaveLength(1);
    calls.ledger.length = 0;
    calls.flaky.length = 0;
  });

  const failures = (ids: string[]) =>
    sql<{ eventId: string; consumer: string; attempts: number; nextAttemptAt: Date | null; resolvedAt: Date | null; lastError: string }>(
      `SELECT "eventId", consumer, attempts, "nextAttemptAt", "resolvedAt", "lastError" FROM "DomainEventFailure" WHERE "eventId" = ANY($1) ORDER BY id`,
      [ids],
    );

  it('a consumer that throws holds back nothing: its events become failures, retried with backoff until it takes them (exactly once committed)', async () => {
    flaky.broken = true;
    const since = await lastEventId();
    await create({ [f.first_name!]: 'Flaky 1' });
    await create({ [f.first_name!]: 'Flaky 2' });
    const first = (await eventsAfter(since)).map((e) => e.eventId);

    const before = Date.now();
    expect(await server.app.services.outbox.dispatchPending()).toBe(2);
    // the batch, then each event alone under its own savepoint
    expect(calls.flaky.map((c) => c.map((e) => e.eventId))).toEqual([first, [first[0]], [first[1]]]);
    expect(await pending()).toEqual([]);
    // the other consumer took them, once
    expect((await consumed(first)).map((r) => [r.event_id, r.n]).sort()).toEqual(first.map((id) => [id, 1]).sort());
    let failed = await failures(first);
    expect(failed.map((x) => [x.eventId, x.consumer, x.attempts, x.resolvedAt, x.lastError])).toEqual(first.map((id) => [id, 'test-flaky', 1, null, 'consumer is down']));
    for (const x of failed) expect(x.nextAttemptAt!.getTime() - before).toBeGreaterThanOrEqual(29_000);

    // not due yet: untouched
    calls.flaky.length = 0;
    expect(await server.app.services.outbox.retryFailures(new Date(before + 10_000))).toBe(0);
    expect(calls.flaky).toEqual([]);
    // due, still broken: the next try waits twice as long
    const due = new Date(before + 31_000);
    expect(await server.app.services.outbox.retryFailures(due)).toBe(0);
    failed = await failures(first);
    expect(failed.map((x) => x.attempts)).toEqual([2, 2]);
    for (const x of failed) expect(x.nextAttemptAt!.getTime()).toBe(due.getTime() + 60_000);

    // fixed: each event handed on to that consumer alone, once, and the failures resolved
    flaky.broken = false;
    calls.flaky.length = 0;
    calls.ledger.length = 0;
    expect(await server.app.services.outbox.retryFailures(new Date(before + 3_600_000))).toBe(2);
    expect(calls.flaky.map((c) => c.map((e) => e.eventId))).toEqual([[first[0]], [first[1]]]);
    expect(calls.ledger).toEqual([]);
    expect((await failures(first)).every((x) => x.resolvedAt !== null)).toBe(true);
    expect(await server.app.services.outbox.retryFailures(new Date(before + 7_200_000))).toBe(0);
    calls.ledger.length = 0;
    calls.flaky.length = 0;
  });

  it('after MAX_FAILURE_ATTEMPTS a failure is a dead letter: kept with its event (not purged), never retried on its own', async () => {
    flaky.broken = true;
    const since = await lastEventId();
    await create({ [f.first_name!]: 'Dead letter' });
    const ids = (await eventsAfter(since)).map((e) => e.eventId);
    expect(await server.app.services.outbox.dispatchPending()).toBe(1);
    await sql(`UPDATE "DomainEventFailure" SET attempts = $2 WHERE "eventId" = ANY($1)`, [ids, MAX_FAILURE_ATTEMPTS - 1]);
    expect(await server.app.services.outbox.retryFailures(new Date(Date.now() + 86_400_000))).toBe(0);
    const [dead] = await failures(ids);
    expect([dead!.attempts, dead!.nextAttemptAt, dead!.resolvedAt]).toEqual([MAX_FAILURE_ATTEMPTS, null, null]);
    calls.flaky.length = 0;
    expect(await server.app.services.outbox.retryFailures(new Date(Date.now() + 10 * 86_400_000))).toBe(0);
    expect(calls.flaky).toEqual([]);

    // the retention purge keeps an event a consumer still owes, and drops it once resolved
    const later = new Date(Date.now() + 30 * 86_400_000);
    await purgeDispatchedEvents(server.app.services, later);
    expect(await sql(`SELECT 1 FROM "DomainEvent" WHERE "eventId" = ANY($1)`, [ids])).toHaveLength(1);
    await sql(`UPDATE "DomainEventFailure" SET "resolvedAt" = now() WHERE "eventId" = ANY($1)`, [ids]);
    await purgeDispatchedEvents(server.app.services, later);
    expect(await sql(`SELECT 1 FROM "DomainEvent" WHERE "eventId" = ANY($1)`, [ids])).toHaveLength(0);
    expect(await failures(ids)).toEqual([]);
    flaky.broken = false;
    calls.flaky.length = 0;
    calls.ledger.length = 0;
  });

  it('a dispatcher that dies mid-dispatch holds its events only until its connection goes; then another dispatches them', async () => {
    const since = await lastEventId();
    await create({ [f.first_name!]: 'Stuck' });
    const stuck = (await eventsAfter(since)).map((e) => e.eventId);

    // a second dispatcher (as in another worker process), on a pool of its own, that hangs in its consumer
    const pool = new pg.Pool({ connectionString: db.url, max: 1 });
    pool.on('error', () => {});
    const other = new DomainEventOutbox(pool, server.app.services.jobs);
    let pid = 0;
    let release: () => void = () => {};
    other.register('hangs', async (_events, tx) => {
      pid = (await tx.query('SELECT pg_backend_pid() AS pid')).rows[0].pid;
      await new Promise<void>((resolve) => (release = resolve));
    });
    const dying = other.dispatchPending().then(
      () => 'finished',
      () => 'failed',
    );
    try {
      await until('the other dispatcher to claim the events', () => pid !== 0);
      // the claimed rows are skipped, not waited for, and not dispatched twice
      expect(await server.app.services.outbox.dispatchPending()).toBe(0);
      expect(calls.flaky).toEqual([]);

      // the worker dies: its connection goes, its transaction with it
      await sql('SELECT pg_terminate_backend($1)', [pid]);
      release();
      expect(await dying).toBe('failed');
      expect(await pending()).toEqual(stuck);
      expect(await server.app.services.outbox.dispatchPending()).toBe(1);
      expect(calls.flaky.map((c) => c.map((e) => e.eventId))).toEqual([stuck]);
      expect(await consumed(stuck)).toEqual([{ event_id: stuck[0], n: 1 }]);
    } finally {
      release();
      await pool.end().catch(() => {});
      calls.ledger.length = 0;
      calls.flaky.length = 0;
    }
  });

  it('a backlog larger than one claim (500) is handed on in id order, claim after claim', async () => {
    const since = await lastEventId();
    for (let i = 0; i < 6; i++) {
      const batch = expectOk(
        await server.request('POST', '/v1/data-records/batch', {
          token: team.apiKey,
          body: { dataCollectionSimplyId: places.id, records: Array.from({ length: 100 }, (_, j) => ({ fields: { [places.fields.label!]: `backlog ${i}-${j}` } })) },
        }),
      );
      expect(batch.created).toBe(100);
    }
    const written = (await eventsAfter(since)).map((e) => e.eventId);
    expect(written).toHaveLength(606);
    expect(await server.app.services.outbox.dispatchPending()).toBe(606);
    expect(calls.ledger.map((c) => c.length)).toEqual([500, 106]);
    const handed = calls.ledger.flat();
    expect(handed.map((e) => e.eventId)).toEqual(written);
    expect(handed.slice(1).every((e, i) => e.id > handed[i]!.id)).toBe(true);
    expect(await pending()).toEqual([]);
    calls.ledger.length = 0;
    calls.flaky.length = 0;
  });
});

describe('an instance running jobs', () => {
  let worker: TestServer;
  const handed: DomainEventRow[] = [];
  const failOnce = { armed: false, times: 0 };

  beforeAll(async () => {
    await server.app.services.outbox.dispatchPending();
    // same database; this instance runs the pg-boss workers (the first one only sends jobs)
    worker = await startTestServer({ databaseUrl: db.url, runJobs: true, dataDir: server.dataDir });
    worker.app.services.outbox.register('test-worker', async (events) => {
      if (failOnce.times > 0) {
        failOnce.times--;
        throw new Error('still failing');
      }
      if (failOnce.armed) {
        failOnce.armed = false;
        throw new Error('first attempt fails');
      }
      handed.push(...events);
    });
  });
  afterAll(() => worker?.close());

  const dispatchedAt = async (eventIds: string[]) =>
    (await sql<{ dispatchedAt: Date | null }>(`SELECT "dispatchedAt" FROM "DomainEvent" WHERE "eventId" = ANY($1)`, [eventIds])).map((r) => r.dispatchedAt);

  it('dispatches within a few seconds of a write on any instance (the write nudges the job)', async () => {
    expect(worker.app.services.jobs.isWorking).toBe(true);
    for (const [label, via] of [['the sending instance', server], ['the worker instance', worker]] as const) {
      const since = await lastEventId();
      const started = Date.now();
      await expectOk(await via.request('POST', '/v1/data-records', { token: team.apiKey, body: { dataCollectionSimplyId: people.id, fields: { [f.first_name!]: `Nudged via ${label}` } } }), 201);
      const ids = (await eventsAfter(since)).map((e) => e.eventId);
      expect(ids).toHaveLength(1);
      await until(`the worker to dispatch the event written through ${label}`, async () => (await dispatchedAt(ids)).every((d) => d !== null), 5000);
      expect(Date.now() - started).toBeLessThan(5000);
      expect(handed.map((e) => e.eventId)).toContain(ids[0]);
    }
  });

  it('a consumer that fails once in the dispatch job gets the event again at once, event by event', async () => {
    failOnce.armed = true;
    const since = await lastEventId();
    await create({ [f.first_name!]: 'Retried' });
    const ids = (await eventsAfter(since)).map((e) => e.eventId);
    await until('the job to dispatch the event', async () => (await dispatchedAt(ids)).every((d) => d !== null), 10_000, 100);
    expect(failOnce.armed).toBe(false);
    expect(handed.filter((e) => e.eventId === ids[0])).toHaveLength(1);
    expect(await sql(`SELECT 1 FROM "DomainEventFailure" WHERE "eventId" = ANY($1)`, [ids])).toEqual([]);
  });

  it('the scheduled sweep (a dispatch job that is not a nudge) retries an event a consumer failed on', async () => {
    failOnce.times = 2; // the batch and the event alone
    const since = await lastEventId();
    await create({ [f.first_name!]: 'Swept' });
    const ids = (await eventsAfter(since)).map((e) => e.eventId);
    const failure = () => sql<{ attempts: number; resolvedAt: Date | null }>(`SELECT attempts, "resolvedAt" FROM "DomainEventFailure" WHERE "eventId" = ANY($1)`, [ids]);
    await until('the consumer to fail on the event', async () => (await failure()).length === 1, 10_000, 100);
    expect(handed.filter((e) => e.eventId === ids[0])).toHaveLength(0);
    await sql(`UPDATE "DomainEventFailure" SET "nextAttemptAt" = now() - interval '1 second' WHERE "eventId" = ANY($1)`, [ids]);
    await worker.app.services.jobs.send(DISPATCH_DOMAIN_EVENTS, {}); // what the minute schedule sends
    await until('the sweep to resolve the failure', async () => (await failure())[0]?.resolvedAt != null, 10_000, 100);
    expect(handed.filter((e) => e.eventId === ids[0])).toHaveLength(1);
  });

  it('a burst of writes queues at most one dispatch nudge', async () => {
    await Promise.all(Array.from({ length: 20 }, (_, i) => create({ [f.first_name!]: `Burst ${i}` })));
    const queued = await sql<{ n: number }>(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = $1 AND state = 'created' AND data->>'nudge' = 'true'`, [DISPATCH_DOMAIN_EVENTS]);
    expect(queued[0]!.n).toBeLessThanOrEqual(1);
  });
});
