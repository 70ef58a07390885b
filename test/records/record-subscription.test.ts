// subscription dataRecordChanges(dataCollectionSimplyId): two instances on one database, as behind
// a load balancer. A graphql-ws client on B sees the record changes written through REST on A
// (the NOTIFY is sent in the write's transaction), only those of its collection, only with the
// field ids its role may read; a caller that cannot read the collection cannot subscribe.
import type { RecordChangeEvent } from '../../src/kernel/records/records.events.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createCollection, createLabelCollection, REQUIRED_TEXT, type CollectionFixture } from '../support/data-fixtures.ts';
import { expectOk } from '../support/expect-envelope.ts';
import { createApiKey, createRole, createTeam, type TeamFixture } from '../support/fixtures.ts';
import { serverGraphqlWsClient, type GraphQLErrorShape } from '../support/realtime.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { untilWith } from '../support/until.ts';
import { teamRoleId } from '../../src/modules/team-roles/team-roles.ids.ts';

const until = untilWith({ timeoutMs: 5000, everyMs: 20 });

const SUBSCRIPTION = `subscription ($c: String!) { dataRecordChanges(dataCollectionSimplyId: $c) {
  changeType eventId dataRecordSimplyId dataCollectionSimplyId changedFieldSimplyIds occurredAt record { id name fields } } }`;

/** What the subscription selects: the event without its actor, plus the record as it reads now. */
type Change = Omit<RecordChangeEvent, 'actor'> & { record: { id: string; name: string; fields: Record<string, unknown> } | null };

/** A graphql-ws client on `server` subscribed to the changes of `collection`, recording what it receives. */
function subscribe(server: TestServer, token: string, collection: string) {
  const state = { changes: [] as Change[], graphqlErrors: [] as GraphQLErrorShape[], errors: [] as unknown[], done: false };
  const client = serverGraphqlWsClient(server, { connectionParams: { authorization: `Bearer ${token}` } });
  client.subscribe<{ dataRecordChanges: Change }>(
    { query: SUBSCRIPTION, variables: { c: collection } },
    {
      next: (result) => {
        if (result.errors) {
          state.errors.push(result.errors);
          state.graphqlErrors.push(...(result.errors as GraphQLErrorShape[]));
        }
        if (result.data?.dataRecordChanges) state.changes.push(result.data.dataRecordChanges);
      },
      error: (error) => {
        state.errors.push(error);
        if (Array.isArray(error)) state.graphqlErrors.push(...(error as GraphQLErrorShape[]));
        state.done = true;
      },
      complete: () => (state.done = true),
    },
  );
  return {
    state,
    of: (recordId: string) => state.changes.filter((c) => c.dataRecordSimplyId === recordId),
    close: () => client.dispose(),
  };
}
type Subscriber = ReturnType<typeof subscribe>;

describe('dataRecordChanges across two instances', () => {
  let a: TestServer;
  let b: TestServer;
  let team: TeamFixture;
  let people: CollectionFixture;
  let places: CollectionFixture;
  let f: Record<string, string>;
  const open: Subscriber[] = [];

  beforeAll(async () => {
    a = await startTestServer();
    // same data folder: same signing key and TLS certificate, like replicas of one deployment
    b = await startTestServer({ dataDir: a.dataDir });
    team = await createTeam(a);
    people = await createCollection(a, team, {
      name: 'People',
      formula: '{first_name}',
      fields: {
        first_name: REQUIRED_TEXT,
        age: 'NUMBER',
        salary: { dataType: 'MONEY', config: { currency: 'EUR' } },
      },
    });
    places = await createLabelCollection(a, team, 'Places', '{label}');
    f = people.fields;
  });
  afterAll(async () => {
    for (const s of open) await s.close();
    await b?.close();
    await a?.close();
  });

  const track = (s: Subscriber) => (open.push(s), s);

  /** POST /v1/data-records on A */
  async function createThroughA(collection: string, fields: Record<string, unknown>): Promise<any> {
    return expectOk(await a.request('POST', '/v1/data-records', { token: team.apiKey, body: { dataCollectionSimplyId: collection, fields } }), 201);
  }

  /**
   * The protocol does not announce when a subscription is live: creates records in `collection`
   * through A until every subscriber has seen one of them.
   */
  async function warmUp(subs: Subscriber[], collection: CollectionFixture, fields: (i: number) => Record<string, unknown>): Promise<void> {
    const created: string[] = [];
    const seen = () => subs.every((s) => s.state.changes.some((c) => created.includes(c.dataRecordSimplyId)));
    await until(
      'the subscriptions on B to go live',
      async () => {
        if (seen()) return true;
        for (const s of subs) expect(s.state.errors).toEqual([]);
        created.push((await createThroughA(collection.id, fields(created.length))).id);
        return until('a change', seen, 500, 20).catch(() => false);
      },
      10_000,
      0,
    );
  }
  const warmPeople = (subs: Subscriber[]) => warmUp(subs, people, (i) => ({ [f.first_name!]: `Warm-up ${i}` }));

  it('B delivers CREATED, UPDATED and DELETED for REST writes made through A; no-ops and batches summaries send nothing', async () => {
    const sub = track(subscribe(b, team.apiKey, people.id));
    await warmPeople([sub]);

    // CREATED: the fields given a value, and the record as B reads it now
    const record = await createThroughA(people.id, { [f.first_name!]: 'Ada', [f.age!]: 36 });
    const created = await until('CREATED', () => sub.of(record.id)[0]);
    expect(created).toEqual({
      changeType: 'CREATED',
      eventId: expect.stringMatching(/^[0-9a-z]{14}$/),
      dataRecordSimplyId: record.id,
      dataCollectionSimplyId: people.id,
      changedFieldSimplyIds: [f.first_name, f.age],
      occurredAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      record: { id: record.id, name: 'Ada', fields: record.fields },
    });
    // the change is the outbox event of the same write
    const row = await a.app.services.prisma.domainEvent.findUnique({ where: { eventId: created.eventId } });
    expect(row).toMatchObject({ eventType: 'DATA_RECORD_CREATED', teamId: team.teamId, collectionId: people.internalId });

    // UPDATED: only the fields whose value changed
    expectOk(await a.request('PATCH', `/v1/data-records/${record.id}`, { token: team.apiKey, body: { fields: { [f.first_name!]: 'Ada', [f.age!]: 37 } } }));
    const updated = await until('UPDATED', () => sub.of(record.id)[1]);
    expect(updated).toMatchObject({ changeType: 'UPDATED', changedFieldSimplyIds: [f.age], record: { fields: { [f.first_name!]: 'Ada', [f.age!]: 37 } } });
    expect(updated.eventId).not.toBe(created.eventId);

    // a no-op update sends nothing: the next change of the record is its deletion
    expectOk(await a.request('PATCH', `/v1/data-records/${record.id}`, { token: team.apiKey, body: { fields: { [f.age!]: 37 } } }));
    expectOk(await a.request('DELETE', `/v1/data-records/${record.id}`, { token: team.apiKey }));
    const deleted = await until('DELETED', () => sub.of(record.id)[2]);
    expect(deleted).toMatchObject({ changeType: 'DELETED', dataRecordSimplyId: record.id, changedFieldSimplyIds: [], record: null });
    expect(sub.of(record.id).map((c) => c.changeType)).toEqual(['CREATED', 'UPDATED', 'DELETED']);

    // a batch: one change per record (its DATA_RECORDS_BULK_SYNCED is not a record change)
    const batch = expectOk(
      await a.request('POST', '/v1/data-records/batch', {
        token: team.apiKey,
        body: { dataCollectionSimplyId: people.id, records: [{ fields: { [f.first_name!]: 'B1' } }, { fields: { [f.age!]: 'bad' } }, { fields: { [f.first_name!]: 'B2' } }] },
      }),
    );
    const ids = batch.results.filter((r: any) => r.ok).map((r: any) => r.record.id);
    expect(ids).toHaveLength(2);
    await until('both batch changes', () => ids.every((id: string) => sub.of(id).length === 1));
    expect(ids.map((id: string) => sub.of(id)[0]!.changeType)).toEqual(['CREATED', 'CREATED']);

    // GraphQL writes through A arrive the same way
    const viaGraphql = await a.graphql(`mutation ($c: String!, $fields: JSON) { createDataRecord(dataCollectionSimplyId: $c, fields: $fields) { record { id } } }`, { c: people.id, fields: { [f.first_name!]: 'GQL' } }, { token: team.apiKey });
    const gqlId = viaGraphql.data.createDataRecord.record.id;
    await until('the GraphQL-made change', () => sub.of(gqlId)[0]);
    expect(sub.state.changes.every((c) => c.dataCollectionSimplyId === people.id)).toBe(true);
    expect(sub.state.errors).toEqual([]);
  });

  it("another collection's changes are not delivered", async () => {
    const peopleSub = track(subscribe(b, team.apiKey, people.id));
    const placesSub = track(subscribe(b, team.apiKey, places.id));
    await warmPeople([peopleSub]);
    await warmUp([placesSub], places, (i) => ({ [places.fields.label!]: `Warm-up ${i}` }));

    const place = await createThroughA(places.id, { [places.fields.label!]: 'Elsewhere' });
    expectOk(await a.request('PATCH', `/v1/data-records/${place.id}`, { token: team.apiKey, body: { fields: { [places.fields.label!]: 'Still elsewhere' } } }));
    const person = await createThroughA(people.id, { [f.first_name!]: 'After the place' });
    // NOTIFYs arrive in commit order over one connection: once the later change is in, the earlier one would be too
    await until('the person on the people subscription', () => peopleSub.of(person.id)[0]);
    await until('the place on the places subscription', () => placesSub.of(place.id)[1]);
    expect(peopleSub.of(place.id)).toEqual([]);
    expect(placesSub.of(person.id)).toEqual([]);
    expect(peopleSub.state.changes.every((c) => c.dataCollectionSimplyId === people.id)).toBe(true);
    expect(placesSub.state.changes.every((c) => c.dataCollectionSimplyId === places.id)).toBe(true);

    // another team's subscriber never sees them: this collection is not in its schema
    const other = await createTeam(a);
    const stranger = track(subscribe(b, other.apiKey, people.id));
    await until('the refusal', () => stranger.state.graphqlErrors.length > 0);
    expect(stranger.state.graphqlErrors[0]!.extensions?.code).toBe('NOT_FOUND');
    expect(stranger.state.changes).toEqual([]);
  });

  it('a caller without read on the collection cannot subscribe (PERMISSION_DENIED)', async () => {
    const placesOnly = await createRole(a, team, { name: 'Places only', dataPermissions: [{ dataCollectionSimplyId: places.id, level: 'EDIT' }] });
    const cases: [string, string, string, string][] = [
      ['a role without the collection', (await createApiKey(a, team, { name: 'places only', teamRoleSimplyId: placesOnly })).key, people.id, 'PERMISSION_DENIED'],
      ['a key without a team role', (await createApiKey(a, team, { name: 'no role' })).key, people.id, 'PERMISSION_DENIED'],
      ['an unknown collection', team.apiKey, 'ZZZZ-ZZZZ-ZZZZ', 'NOT_FOUND'],
      ['a malformed collection id', team.apiKey, 'people', 'VALIDATION_ERROR'],
    ];
    const subs = cases.map(([, token, collection]) => track(subscribe(b, token, collection)));
    for (const [i, [label, , , code]] of cases.entries()) {
      const sub = subs[i]!;
      await until(`the refusal of ${label}`, () => sub.state.graphqlErrors.length > 0);
      expect(sub.state.graphqlErrors[0]!.extensions?.code, label).toBe(code);
      expect(sub.state.done, label).toBe(true);
    }
    // and the refused subscriber receives nothing afterwards
    const record = await createThroughA(people.id, { [f.first_name!]: 'Unseen' });
    const watcher = track(subscribe(b, team.apiKey, people.id));
    await warmPeople([watcher]);
    await createThroughA(people.id, { [f.first_name!]: 'Unseen 2' });
    expect(subs.every((s) => s.state.changes.length === 0)).toBe(true);
    expect(subs[0]!.of(record.id)).toEqual([]);
  });

  it('changedFieldSimplyIds and record.fields leave out the fields the subscriber cannot read', async () => {
    // written straight to the database: POST /v1/team-roles with fieldPermissions answers 500
    // today (team-roles.service.ts passes teamId inside the nested fieldPermissions create)
    const role = await a.app.services.prisma.teamRole.create({
      data: {
        teamId: team.teamId,
        simplyId: teamRoleId.create(),
        name: 'No salaries',
        dataPermissions: { create: [{ dataCollectionSimplyId: people.id, level: 'READ' }] },
        fieldPermissions: { create: [{ dataFieldSimplyId: f.salary!, level: 'NONE' }] },
      },
    });
    const narrowKey = (await createApiKey(a, team, { name: 'narrow', teamRoleSimplyId: role.simplyId })).key;
    const narrow = track(subscribe(b, narrowKey, people.id));
    const full = track(subscribe(b, team.apiKey, people.id));
    await warmPeople([narrow, full]);

    const record = await createThroughA(people.id, { [f.first_name!]: 'Paid', [f.salary!]: '5000' });
    await until('CREATED on both', () => narrow.of(record.id)[0] && full.of(record.id)[0]);
    expect(full.of(record.id)[0]!.changedFieldSimplyIds).toEqual([f.first_name, f.salary]);
    expect(narrow.of(record.id)[0]!.changedFieldSimplyIds).toEqual([f.first_name]);
    expect(narrow.of(record.id)[0]!.record!.fields).toEqual({ [f.first_name!]: 'Paid' });
    expect(full.of(record.id)[0]!.record!.fields).toEqual({ [f.first_name!]: 'Paid', [f.salary!]: '5000.00' });

    expectOk(await a.request('PATCH', `/v1/data-records/${record.id}`, { token: team.apiKey, body: { fields: { [f.age!]: 30, [f.salary!]: '6000' } } }));
    await until('UPDATED on both', () => narrow.of(record.id)[1] && full.of(record.id)[1]);
    expect(full.of(record.id)[1]!.changedFieldSimplyIds).toEqual([f.age, f.salary]);
    expect(narrow.of(record.id)[1]!.changedFieldSimplyIds).toEqual([f.age]);

    // a change of the hidden field alone names no field to the narrow subscriber
    expectOk(await a.request('PATCH', `/v1/data-records/${record.id}`, { token: team.apiKey, body: { fields: { [f.salary!]: '7000' } } }));
    expectOk(await a.request('PATCH', `/v1/data-records/${record.id}`, { token: team.apiKey, body: { fields: { [f.age!]: 31 } } }));
    await until('all four changes on both', () => narrow.of(record.id).length === 4 && full.of(record.id).length === 4);
    expect(full.of(record.id).map((c) => c.changedFieldSimplyIds)).toEqual([[f.first_name, f.salary], [f.age, f.salary], [f.salary], [f.age]]);
    expect(narrow.of(record.id).map((c) => c.changedFieldSimplyIds)).toEqual([[f.first_name], [f.age], [], [f.age]]);
    expect(narrow.state.changes.every((c) => !c.changedFieldSimplyIds.includes(f.salary!) && !(c.record && f.salary! in c.record.fields))).toBe(true);
    expect(narrow.state.errors).toEqual([]);
  });

  // The subscription checks every event against the credential as it is now (refreshPrincipal).
  it('a subscriber whose role loses read on the collection stops receiving its changes', async () => {
    const roleId = await createRole(a, team, { name: 'Readers for now', dataPermissions: [{ dataCollectionSimplyId: people.id, level: 'READ' }] });
    const key = (await createApiKey(a, team, { name: 'soon without people', teamRoleSimplyId: roleId })).key;
    const losing = track(subscribe(b, key, people.id));
    const full = track(subscribe(b, team.apiKey, people.id));
    await warmPeople([losing, full]);

    expectOk(await a.request('PUT', `/v1/team-roles/${roleId}`, { token: team.apiKey, body: { name: 'Readers for now', dataPermissions: [] } }));
    // B knows: its HTTP face refuses the key for this collection now
    await until('B to apply the new role', async () => (await b.request('GET', `/v1/data-records?dataCollectionSimplyId=${people.id}`, { token: key })).status === 403);

    const record = await createThroughA(people.id, { [f.first_name!]: 'Not for former readers', [f.salary!]: '1' });
    await until('the change on the full subscriber', () => full.of(record.id)[0]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(losing.of(record.id)).toEqual([]);
  });
});
