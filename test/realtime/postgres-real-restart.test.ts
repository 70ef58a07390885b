// The PostgreSQL restart drill with a real restart: a cluster of this file's own (embedded, like the
// platform's default) is stopped under load and started again on the same port. Both instances lose
// every connection: W's writes fail (503) during the outage and are retried, S keeps its graphql-ws
// subscribers open. Every change W got a 201 for reaches every live subscriber on S within a bound
// after the restart: the ones committed right after it too, while S's LISTEN connection is still
// reconnecting (they come from the event log).
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../src/db/embedded-postgres.ts';
import { applyPendingMigrations } from '../../src/db/schema-engine/migrations.ts';
import { createCollection, REQUIRED_TEXT, type CollectionFixture } from '../support/data-fixtures.ts';
import { createTeam, type TeamFixture } from '../support/fixtures.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { untilWith } from '../support/until.ts';
import { expectEveryChangeOnEverySubscriber, subscribeRecordChanges, type RecordSubscriber } from './record-subscribers.ts';
import { freePort } from '../../src/db/free-port.ts';

const until = untilWith({ timeoutMs: 30_000, everyMs: 100 });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a real PostgreSQL restart under load with live subscribers', () => {
  const dataDir = path.join(inject('testDataDir'), `pg-restart-${randomBytes(4).toString('hex')}`);
  let port: number;
  let cluster: EmbeddedDatabase;
  let writer: TestServer;
  let served: TestServer;
  let team: TeamFixture;
  let people: CollectionFixture;
  const subs: RecordSubscriber[] = [];

  beforeAll(async () => {
    port = await freePort();
    cluster = await startEmbeddedPostgres({ dataDir, port });
    await applyPendingMigrations({ databaseUrl: cluster.url });
    // the writers send hundreds of requests a minute on one key
    writer = await startTestServer({ databaseUrl: cluster.url, env: { RATE_LIMIT_PER_MINUTE: 100_000 } });
    served = await startTestServer({ databaseUrl: cluster.url, dataDir: writer.dataDir });
    team = await createTeam(writer);
    people = await createCollection(writer, team, { name: 'People', formula: '{name}', fields: { name: REQUIRED_TEXT } });
  }, 120_000);
  afterAll(async () => {
    await Promise.all(subs.map((s) => s.close()));
    await served?.close();
    await writer?.close();
    await cluster?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  async function create(name: string): Promise<{ id: string | null; status: number }> {
    const response = await writer.request('POST', '/v1/data-records', { token: team.apiKey, body: { dataCollectionSimplyId: people.id, fields: { [people.fields.name!]: name } } });
    return { id: response.status === 201 ? (response.body.data.id as string) : null, status: response.status };
  }

  it('every change committed before, during recovery and after the restart reaches every subscriber', { timeout: 180_000 }, async () => {
    subs.push(...Array.from({ length: 20 }, () => subscribeRecordChanges(served, team.apiKey, people.id)));
    const warm: string[] = [];
    await until('every subscription to go live', async () => {
      const { id } = await create(`Warm-up ${warm.length}`);
      if (id) warm.push(id);
      await sleep(200);
      return subs.every((s) => warm.some((w) => s.has(w)));
    });

    // two writers that keep writing through the restart: a failed write is not committed and is retried
    const committed: string[] = [];
    const statuses = new Set<number>();
    let writing = true;
    const writers = Array.from({ length: 2 }, async (_, w) => {
      for (let i = 0; writing; i++) {
        const { id, status } = await create(`W${w}-${i}`).catch(() => ({ id: null, status: 0 }));
        statuses.add(status);
        if (id) committed.push(id);
        else await sleep(100);
      }
    });

    await sleep(1000);
    const before = committed.length;
    await cluster.stop();
    await sleep(2000);
    cluster = await startEmbeddedPostgres({ dataDir, port });
    const restartedAt = Date.now();
    // writes resume once the pools reconnect; keep writing a few seconds after that
    await until('writes to succeed again', () => committed.length > before + 20);
    await sleep(3000);
    writing = false;
    await Promise.all(writers);
    // the outage was seen as 503s (or, for a request cut mid-way, a closed connection), never a 500
    expect([...statuses].filter((s) => s !== 201 && s !== 503 && s !== 0)).toEqual([]);
    expect(statuses.has(503)).toBe(true);

    await expectEveryChangeOnEverySubscriber(subs, committed, { at: restartedAt, what: 'the restart' });
    // and the subscriber instance is ready again without a restart of its own
    expect((await served.request('GET', '/readyz')).status).toBe(200);
  });
});
