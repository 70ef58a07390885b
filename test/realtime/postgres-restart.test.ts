// PostgreSQL restart drill with live subscribers: instance S serves graphql-ws subscribers through a
// proxy in front of PostgreSQL; instance W writes records continuously on the direct connection.
// The proxy is cut (S loses its LISTEN connection and its pool, as in a database restart) for a
// few seconds and restored. Every change W committed, before, during and after the cut, reaches
// every live subscriber on S within a bound after the restore (caught up from the event log;
// duplicates would be allowed, misses are not), and a subscriber of a topic that cannot be replayed
// (teamEvents) is told RESYNC_REQUIRED.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCollection, REQUIRED_TEXT, type CollectionFixture } from '../support/data-fixtures.ts';
import { createKeyHidingField } from '../support/data-permission-fixtures.ts';
import { createTeam, type TeamFixture } from '../support/fixtures.ts';
import { createMigratedDatabase } from '../support/migrated-database.ts';
import { startPostgresProxy, type PostgresProxy } from '../support/postgres-proxy.ts';
import { subscribeTeamEvents, type TeamEventSubscriber } from '../support/realtime.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { untilWith } from '../support/until.ts';
import type { ThrowawayDatabase } from '../db/helpers.ts';
import { expectEveryChangeOnEverySubscriber, subscribeRecordChanges, type RecordSubscriber } from './record-subscribers.ts';

const until = untilWith({ timeoutMs: 15_000, everyMs: 50 });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));


describe('a PostgreSQL restart with live subscribers', () => {
  let db: ThrowawayDatabase;
  let proxy: PostgresProxy;
  let writer: TestServer;
  let served: TestServer;
  let team: TeamFixture;
  let people: CollectionFixture;
  const open: (RecordSubscriber | TeamEventSubscriber)[] = [];

  beforeAll(async () => {
    db = await createMigratedDatabase('realtime_restart');
    proxy = await startPostgresProxy(db.url);
    writer = await startTestServer({ databaseUrl: db.url });
    served = await startTestServer({ databaseUrl: proxy.url, dataDir: writer.dataDir });
    team = await createTeam(writer);
    people = await createCollection(writer, team, { name: 'People', formula: '{name}', fields: { name: REQUIRED_TEXT, salary: 'NUMBER' } });
  });
  afterAll(async () => {
    await Promise.all(open.map((s) => s.close()));
    await served?.close();
    await writer?.close();
    await proxy?.close();
    await db?.drop();
  });

  /** POST /v1/data-records on the writer: the record id once committed, null when the write failed. */
  async function create(name: string): Promise<string | null> {
    const response = await writer.request('POST', '/v1/data-records', { token: team.apiKey, body: { dataCollectionSimplyId: people.id, fields: { [people.fields.name!]: name, [people.fields.salary!]: 1 } } });
    return response.status === 201 ? (response.body.data.id as string) : null;
  }

  it('every change committed around the outage reaches every live subscriber after the restore', async () => {
    const narrowKey = await createKeyHidingField(writer, team, people, 'salary', { role: 'No salaries', key: 'narrow' });
    const subs = [
      ...Array.from({ length: 20 }, () => subscribeRecordChanges(served, team.apiKey, people.id)),
      ...Array.from({ length: 10 }, () => subscribeRecordChanges(served, narrowKey, people.id)),
    ];
    const admin = subscribeTeamEvents(served, { authorization: `Bearer ${team.apiKey}` });
    open.push(...subs, admin);

    const warm: string[] = [];
    await until('every subscription to go live', async () => {
      warm.push((await create(`Warm-up ${warm.length}`))!);
      await sleep(200);
      return subs.every((s) => warm.some((id) => s.has(id)));
    });

    // three writers at once, so DomainEvent ids also commit out of order
    const committed: string[] = [];
    let writing = true;
    const writers = Array.from({ length: 3 }, async (_, w) => {
      for (let i = 0; writing; i++) {
        const id = await create(`W${w}-${i}`);
        if (id) committed.push(id);
      }
    });

    await sleep(1000);
    await proxy.cut();
    await sleep(3000);
    await proxy.restore();
    const restoredAt = Date.now();
    await sleep(1500);
    writing = false;
    await Promise.all(writers);
    expect(committed.length).toBeGreaterThan(30);

    await expectEveryChangeOnEverySubscriber(subs, committed, { at: restoredAt, what: 'the restore' });
    // the narrow role still never sees the hidden field, replayed or not
    for (const s of subs.slice(20)) expect(s.state.changes.some((c) => c.changedFieldSimplyIds.includes(people.fields.salary!) || (c.record && people.fields.salary! in c.record.fields))).toBe(false);

    // teamEvents cannot be replayed: its subscriber is told to resync, and stays subscribed
    await until('the resync signal', () => admin.state.graphqlErrors.some((e) => e.extensions?.code === 'RESYNC_REQUIRED'));
    expect(admin.state.done).toBe(false);
  });
});
