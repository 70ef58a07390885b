// Fan-out of dataRecordChanges to many graphql-ws subscribers of different permissions on one
// instance (B), the writes made through another (A): each subscriber sees exactly what its role
// may (all fields, all but a hidden field, nothing at all), an event is resolved once per group of
// identical subscribers (the record is read once per event, not per subscriber), a revoked key in a
// large group is cut off alone, no MaxListenersExceededWarning appears, and subscribers that leave
// are forgotten (the hub's subscriber count returns to 0).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCollection, createLabelCollection, REQUIRED_TEXT, type CollectionFixture } from '../support/data-fixtures.ts';
import { createKeyHidingField } from '../support/data-permission-fixtures.ts';
import { expectOk } from '../support/expect-envelope.ts';
import { createApiKey, createRole, createTeam, type TeamFixture } from '../support/fixtures.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { countSql } from '../support/sql-counter.ts';
import { untilWith } from '../support/until.ts';
import { subscribeRecordChanges, type RecordSubscriber } from './record-subscribers.ts';

const until = untilWith({ timeoutMs: 20_000, everyMs: 25 });

const FULL = 120;
const NARROW = 60;
const OTHER_COLLECTION = 20;
const DENIED = 20;

describe('dataRecordChanges fan-out to many subscribers', () => {
  let a: TestServer;
  let b: TestServer;
  let team: TeamFixture;
  let people: CollectionFixture;
  let places: CollectionFixture;
  const warnings: Error[] = [];
  const onWarning = (warning: Error) => warnings.push(warning);
  const open: RecordSubscriber[] = [];

  beforeAll(async () => {
    process.on('warning', onWarning);
    a = await startTestServer();
    b = await startTestServer({ dataDir: a.dataDir });
    team = await createTeam(a);
    people = await createCollection(a, team, { name: 'People', formula: '{name}', fields: { name: REQUIRED_TEXT, salary: { dataType: 'MONEY', config: { currency: 'EUR' } } } });
    places = await createLabelCollection(a, team, 'Places', '{label}');
  });
  afterAll(async () => {
    process.off('warning', onWarning);
    await Promise.all(open.map((s) => s.close()));
    await b?.close();
    await a?.close();
  });

  const create = async (collection: CollectionFixture, fields: Record<string, unknown>) =>
    expectOk(await a.request('POST', '/v1/data-records', { token: team.apiKey, body: { dataCollectionSimplyId: collection.id, fields } }), 201).id as string;

  it('each subscriber sees exactly what it may, resolved once per group, and leaving frees them', async () => {
    const f = people.fields;
    const narrowKey = await createKeyHidingField(a, team, people, 'salary', { role: 'No salaries', key: 'narrow' });
    const placesOnly = await createRole(a, team, { name: 'Places only', dataPermissions: [{ dataCollectionSimplyId: places.id, level: 'READ' }] });
    const placesKey = (await createApiKey(a, team, { name: 'places only', teamRoleSimplyId: placesOnly })).key;
    // a third group: a role editing People, whose key is revoked while subscribed
    const doomed = await createApiKey(a, team, { name: 'revoked mid-stream', teamRoleSimplyId: await createRole(a, team, { name: 'People editors', dataPermissions: [{ dataCollectionSimplyId: people.id, level: 'EDIT' }] }) });

    const full = Array.from({ length: FULL }, () => subscribeRecordChanges(b, team.apiKey, people.id));
    const narrow = Array.from({ length: NARROW }, () => subscribeRecordChanges(b, narrowKey, people.id));
    const onPlaces = Array.from({ length: OTHER_COLLECTION }, () => subscribeRecordChanges(b, placesKey, places.id));
    const denied = Array.from({ length: DENIED }, () => subscribeRecordChanges(b, placesKey, people.id));
    const editors = Array.from({ length: 10 }, () => subscribeRecordChanges(b, doomed.key, people.id));
    const peopleSubs = [...full, ...narrow, ...editors];
    open.push(...full, ...narrow, ...onPlaces, ...denied, ...editors);

    // a role without read on People is refused at subscribe time
    await until('every refusal', () => denied.every((s) => s.state.done));
    for (const s of denied) expect(s.state.graphqlErrors.map((e) => e.extensions?.code)).toEqual(['PERMISSION_DENIED']);

    // the protocol does not announce when a subscription is live: write until every one has seen a write
    const warm: string[] = [];
    await until('every subscription to go live', async () => {
      warm.push(await create(people, { [f.name!]: `Warm-up ${warm.length}` }));
      await until('a round', () => peopleSubs.every((s) => warm.some((id) => s.has(id))), 1000).catch(() => null);
      return peopleSubs.every((s) => warm.some((id) => s.has(id)));
    });
    const placeWarm = await create(places, { [places.fields.label!]: 'Warm place' });
    await until('the places subscribers', () => onPlaces.every((s) => s.has(placeWarm)));
    expect(b.app.services.events.subscriberCount()).toBe(FULL + NARROW + OTHER_COLLECTION + 10);

    // five records; the record is read once per event on B, whatever the number of subscribers
    const sql = countSql(b.app.services.pool);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await create(people, { [f.name!]: `Person ${i}`, [f.salary!]: String(1000 + i) }));
    await until('every change on every People subscriber', () => peopleSubs.every((s) => ids.every((id) => s.has(id))));
    const recordReads = sql.statements.filter((s) => s.includes('FROM "DataRecord" r') && s.includes('r."simplyId" = $2'));
    expect(recordReads.length).toBe(ids.length);

    for (const s of full) {
      const mine = s.state.changes.filter((c) => ids.includes(c.dataRecordSimplyId));
      expect(mine.map((c) => c.changedFieldSimplyIds)).toEqual(ids.map(() => [f.name, f.salary]));
      expect(mine.map((c) => c.record?.fields[f.salary!])).toEqual(['1000.00', '1001.00', '1002.00', '1003.00', '1004.00']);
      expect(s.state.graphqlErrors).toEqual([]);
    }
    for (const s of narrow) {
      const mine = s.state.changes.filter((c) => ids.includes(c.dataRecordSimplyId));
      expect(mine).toHaveLength(ids.length);
      expect(mine.every((c) => c.changedFieldSimplyIds.join() === f.name && c.record && Object.keys(c.record.fields).join() === f.name)).toBe(true);
      expect(s.state.graphqlErrors).toEqual([]);
    }
    for (const s of onPlaces) expect(s.state.changes.some((c) => c.dataCollectionSimplyId !== places.id)).toBe(false);

    // revoking one key cuts off its subscribers (4403) and nobody else
    expect((await a.request('DELETE', `/v1/api-keys/${doomed.id}`, { token: team.apiKey })).status).toBe(200);
    const after = await create(people, { [f.name!]: 'After the revocation' });
    await until('the others to see it', () => [...full, ...narrow].every((s) => s.has(after)));
    await until('the revoked subscribers to be closed', () => editors.every((s) => s.state.closeCode !== undefined));
    expect(editors.map((s) => s.state.closeCode)).toEqual(editors.map(() => 4403));
    expect(editors.some((s) => s.has(after))).toBe(false);

    // leaving frees them all
    await Promise.all(open.map((s) => s.close()));
    await until('every subscriber to be forgotten', () => b.app.services.events.subscriberCount() === 0);
    expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
  });
});
