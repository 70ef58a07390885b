// Concurrent writers of the same rows serialize or retry; they never surface a 500. Both cases
// below used to: 8 parallel resyncs of a SMART collection (duplicate membership key) and 8 parallel
// replacements of one team role (a unique-key race, 409s for valid requests). The transaction
// helper reruns a transaction PostgreSQL aborted as a deadlock (src/app/transaction.ts).
import { expect, it } from 'vitest';
import { inTransaction, runTransaction } from '../../src/app/transaction.ts';
import { expectOk } from '../support/expect-envelope.ts';
import { buildRouteWorld, routeWorldServer, type RouteWorld } from '../support/route-world.ts';
import { useServer } from '../support/use-server.ts';

const suite = useServer({ teams: 1, ...routeWorldServer('concurrent_writers') });
const parallel = <T>(n: number, make: (i: number) => Promise<T>) => Promise.all(Array.from({ length: n }, (_, i) => make(i)));
let world: RouteWorld;

it('8 parallel resyncs of a SMART collection all succeed, and leave each matching record in it once', async () => {
  const { server, teams: [team] } = suite;
  world = await buildRouteWorld(server, team!);
  const { dataCollectionSimplyId: parent, dataFieldSimplyId: field } = world.ids;
  const call = (method: string, path: string, body?: unknown) => server.request(method, path, { token: team!.apiKey, body });
  for (let i = 0; i < 5; i++) expectOk(await call('POST', '/v1/data-records', { dataCollectionSimplyId: parent, fields: { [field!]: `match ${i}` } }), 201);
  const smart = expectOk(await call('POST', '/v1/data-collections', { name: 'Matches', type: 'SMART', parentDataCollectionSimplyId: parent, filterCriteria: [{ field, operator: 'contains', value: 'match' }] }), 201);
  for (let round = 0; round < 3; round++) {
    const answers = await parallel(8, () => call('POST', `/v1/data-collections/${smart.id}/resync-smart-membership`, {}));
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
  }
  const members = await call('GET', `/v1/data-records?dataCollectionSimplyId=${smart.id}&limit=100`);
  expect(members.body.meta.pagination.total).toBe(5);
  expect(new Set(members.body.data.map((r: { id: string }) => r.id)).size).toBe(5);
});

it('8 parallel replacements of one team role all succeed; the role ends as exactly one of them', async () => {
  const { server, teams: [team] } = suite;
  const { teamRoleSimplyId: role, dataCollectionSimplyId: collection, dataFieldSimplyId: field } = world.ids;
  const body = (i: number) => ({
    name: `Replaced ${i}`,
    dataPermissions: [{ dataCollectionSimplyId: collection, level: i % 2 ? 'READ' : 'EDIT' }],
    fieldPermissions: [{ dataFieldSimplyId: field, level: i % 3 ? 'READ' : 'NONE' }],
  });
  const answers = await parallel(8, (i) => server.request('PUT', `/v1/team-roles/${role}`, { token: team!.apiKey, body: body(i) }));
  expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
  const final = expectOk(await server.request('GET', `/v1/team-roles/${role}`, { token: team!.apiKey }));
  const i = Number(final.name.split(' ')[1]);
  expect(final).toMatchObject({ dataPermissions: [body(i).dataPermissions[0]], fieldPermissions: [body(i).fieldPermissions[0]] });
});

it('a transaction PostgreSQL aborts as a deadlock is rerun, through pg and through Prisma', async () => {
  const { pool, prisma } = suite.server.app.services;
  await pool.query('CREATE TABLE IF NOT EXISTS test_deadlock_probe (id int PRIMARY KEY, n int NOT NULL DEFAULT 0)');
  await pool.query('INSERT INTO test_deadlock_probe (id) VALUES (1), (2) ON CONFLICT DO NOTHING');
  const { rows: before } = await pool.query('SELECT sum(n)::int AS n FROM test_deadlock_probe');
  // two writers locking the same two rows in opposite orders, meeting in the middle: one of them
  // is chosen as the deadlock victim, and its rerun succeeds once the other has committed
  let attempts = 0;
  const bothLocked = Promise.withResolvers<void>();
  let locked = 0;
  const meet = async () => {
    if (++locked === 2) bothLocked.resolve();
    await Promise.race([bothLocked.promise, new Promise((r) => setTimeout(r, 500))]);
  };
  const viaPg = inTransaction(pool, async (db) => {
    attempts++;
    await db.query('UPDATE test_deadlock_probe SET n = n + 1 WHERE id = 1');
    await meet();
    await db.query('UPDATE test_deadlock_probe SET n = n + 1 WHERE id = 2');
  });
  const viaPrisma = runTransaction(prisma, async (tx) => {
    attempts++;
    await tx.$executeRawUnsafe('UPDATE test_deadlock_probe SET n = n + 1 WHERE id = 2');
    await meet();
    await tx.$executeRawUnsafe('UPDATE test_deadlock_probe SET n = n + 1 WHERE id = 1');
  });
  await Promise.all([viaPg, viaPrisma]);
  expect(attempts).toBe(3);
  const { rows: after } = await pool.query('SELECT sum(n)::int AS n FROM test_deadlock_probe');
  expect(after[0].n - before[0].n).toBe(4);
});
