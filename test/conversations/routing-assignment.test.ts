// Balanced assignment with two server instances (and their job workers) on one database, plus
// extra routing runs of both at once: every conversation assigned at most once, no agent over
// their limit or the rule's, the open load of eligible agents within one of each other; rules
// decide who (first match wins), presence who now.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { routeTeam } from '../../src/modules/conversations/routing-assign.ts';
import { createCollection } from '../support/data-fixtures.ts';
import { expectOk } from '../support/expect-envelope.ts';
import { createTeam, type TeamFixture } from '../support/fixtures.ts';
import { createMigratedDatabase } from '../support/migrated-database.ts';
import { createRecord } from '../support/record-fixtures.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { untilWith } from '../support/until.ts';
import { call, FEATURES, keyOf, memberWith, startConversation } from './conversation-fixtures.ts';

const until = untilWith({ timeoutMs: 30_000, everyMs: 200 });
const RULES = '/v1/conversations/assignment-rules';

describe('balanced assignment', () => {
  let database: Awaited<ReturnType<typeof createMigratedDatabase>>;
  let a: TestServer;
  let b: TestServer;
  let team: TeamFixture;
  beforeAll(async () => {
    database = await createMigratedDatabase('conversation_routing');
    // an AI rule hands to the AI only with a model configured (a closed port: no visitor message here asks it)
    const env = { AI_BASE_URL: 'http://127.0.0.1:9/v1', AI_MODEL: 'unreachable' };
    a = await startTestServer({ databaseUrl: database.url, runJobs: true, env });
    b = await startTestServer({ databaseUrl: database.url, dataDir: a.dataDir, runJobs: true, env });
    team = await createTeam(a);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await database?.drop();
  });

  const key = () => keyOf(team);
  const setPresence = async (userSimplyId: string, status: string, maxOpenConversations?: number) =>
    expectOk(await call(a, key(), 'PUT', '/v1/conversations/presence', { userSimplyId, status, ...(maxOpenConversations === undefined ? {} : { maxOpenConversations }) }));
  const rule = async (body: Record<string, unknown>) => expectOk(await call(a, key(), 'POST', RULES, body), 201);
  const clearRules = async () => {
    for (const r of expectOk(await call(a, key(), 'GET', RULES))) expectOk(await call(a, key(), 'DELETE', `${RULES}/${r.id}`));
  };
  const q = async (text: string, values: unknown[] = []) => (await a.app.services.pool.query(text, values)).rows;
  /** open conversations assigned per user simplyId */
  const loads = async (userSimplyIds: string[]) => {
    const rows = await q(
      `SELECT u."simplyId", count(c.id)::int AS n FROM "User" u LEFT JOIN "Conversation" c ON c."assignedUserId" = u.id AND c."teamId" = $1 AND c.status IN ('OPEN','PENDING','ESCALATED')
        WHERE u."simplyId" = ANY($2::text[]) GROUP BY 1`,
      [team.teamId, userSimplyIds],
    );
    return new Map(rows.map((r) => [r.simplyId as string, r.n as number]));
  };
  /** conversations told of more than one assignment (an assignment queues exactly one ASSIGNMENT notification) */
  const doubleAssignments = async () =>
    q(`SELECT data->>'conversationId' AS c, count(*)::int AS n FROM pgboss.job WHERE name = 'conversations.notify' AND data->>'kind' = 'ASSIGNMENT' AND data->>'teamId' = $1 GROUP BY 1 HAVING count(*) > 1`, [String(team.teamId)]);
  const pending = async () => (await q(`SELECT count(*)::int AS n FROM "ConversationRouting" WHERE "teamId" = $1 AND state = 'PENDING'`, [team.teamId]))[0].n as number;
  const settle = (what: string, done: () => Promise<boolean>) => until(what, async () => ((await done()) ? true : null));
  beforeEach(async () => {
    await clearRules();
    await q(`UPDATE "Conversation" SET status = 'CLOSED' WHERE "teamId" = $1`, [team.teamId]);
  });

  it('assigns exactly once under concurrency, within limits, balanced, to present agents only', async () => {
    const agents = await Promise.all(Array.from({ length: 5 }, () => memberWith(a, team, [FEATURES.inbox])));
    const ids = agents.map((x) => x.userSimplyId);
    await rule({ name: 'Everyone', actionType: 'POOL', poolUserIds: ids });
    for (const id of ids.slice(0, 3)) await setPresence(id, 'ONLINE', 4);
    await setPresence(ids[3]!, 'ONLINE', 2);
    await setPresence(ids[4]!, 'OFFLINE');
    const conversations = await Promise.all(Array.from({ length: 30 }, (_, i) => startConversation(i % 2 ? b : a, key())));
    // extra routing runs of both instances at once, beside the workers' jobs
    await Promise.all(Array.from({ length: 12 }, (_, i) => routeTeam((i % 2 ? b : a).app.services, team.teamId)));
    await settle('14 assigned', async () => [...(await loads(ids)).values()].reduce((s, n) => s + n, 0) === 14);
    let load = await loads(ids);
    expect(ids.map((id) => load.get(id))).toEqual([4, 4, 4, 2, 0]);
    expect(await pending()).toBe(16);

    // raise every limit: the waiting 16 go to the four online agents, fewest open first
    // (in one statement: raised one by one, the first raised would take them all, as it should)
    await q(`UPDATE "ConversationAgentPresence" p SET "maxOpenConversations" = 100, "lastHeartbeatAt" = now() FROM "User" u
              WHERE p."teamId" = $1 AND u.id = p."userId" AND u."simplyId" = ANY($2::text[])`, [team.teamId, ids.slice(0, 4)]);
    await Promise.all(Array.from({ length: 8 }, (_, i) => routeTeam((i % 2 ? b : a).app.services, team.teamId)));
    await settle('all assigned', async () => (await pending()) === 0);
    load = await loads(ids);
    const online = ids.slice(0, 4).map((id) => load.get(id)!);
    expect(online.reduce((s, n) => s + n, 0)).toBe(30);
    expect(Math.max(...online) - Math.min(...online)).toBeLessThanOrEqual(1);
    expect(load.get(ids[4]!)).toBe(0);
    await settle('assignment notifications queued', async () => true);
    expect(await doubleAssignments()).toEqual([]);
    const events = await q(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'conversations.notify' AND data->>'kind' = 'ASSIGNMENT' AND data->>'teamId' = $1`, [String(team.teamId)]);
    expect(events[0].n).toBe(conversations.length);

    // an agent's stale heartbeat takes them out; coming back online routes to them
    for (const c of conversations) expectOk(await call(a, key(), 'PUT', `/v1/conversations/${c.id}`, { status: 'RESOLVED' }));
    await q(`UPDATE "ConversationAgentPresence" SET "lastHeartbeatAt" = now() - interval '61 seconds' WHERE "teamId" = $1`, [team.teamId]);
    const waiting = await startConversation(a, key());
    await routeTeam(a.app.services, team.teamId);
    expect(expectOk(await call(a, key(), 'GET', `/v1/conversations/${waiting.id}`)).assignedUserId).toBeNull();
    await setPresence(ids[4]!, 'ONLINE', 3);
    await settle('routed to the agent who came online', async () => expectOk(await call(a, key(), 'GET', `/v1/conversations/${waiting.id}`)).assignedUserId === ids[4]);
    expectOk(await call(a, key(), 'PUT', `/v1/conversations/${waiting.id}`, { status: 'RESOLVED' }));
    await clearRules();
  });

  it('first matching rule wins: channel, priority, subject and record conditions; AGENT, AI, UNASSIGNED, none', async () => {
    const [owner, billing] = await Promise.all([memberWith(a, team, [FEATURES.inbox]), memberWith(a, team, [FEATURES.inboxAll])]);
    await setPresence(billing.userSimplyId, 'ONLINE', 50);
    const members = await createCollection(a, team, { name: 'Members', formula: '{name}', fields: { name: 'PLAIN_TEXT', tier: 'PLAIN_TEXT' } });
    const gold = await createRecord(a, team.apiKey, members.id, { [members.fields.tier!]: 'Gold', [members.fields.name!]: 'Ada' });
    // the fixture writes the collection directly: both instances must forget the team's schema they hold
    for (const server of [a, b]) server.app.services.schemas.invalidate(team.teamId);
    const basic = await createRecord(a, team.apiKey, members.id, { [members.fields.tier!]: 'Basic', [members.fields.name!]: 'Bob' });
    await rule({ name: 'Gold members to their owner', conditions: { record: { dataCollectionSimplyId: members.id, filters: [{ field: members.fields.tier, operator: 'eq', value: 'Gold' }] } }, actionType: 'AGENT', agentUserId: owner.userSimplyId });
    await rule({ name: 'Urgent email invoices to billing', conditions: { channels: ['EMAIL'], priorities: ['URGENT'], subject: { contains: 'INVOICE' } }, actionType: 'POOL', poolUserIds: [billing.userSimplyId] });
    await rule({ name: 'Chats to the assistant', conditions: { channels: ['CHAT'], subject: { startsWith: 'bot:' } }, actionType: 'AI' });
    await rule({ name: 'Forms wait', conditions: { channels: ['FORM'] }, actionType: 'UNASSIGNED' });

    const started = {
      gold: await startConversation(a, key(), { dataRecordSimplyId: gold.id, channel: 'EMAIL', priority: 'URGENT', subject: 'Invoice' }),
      basic: await startConversation(a, key(), { dataRecordSimplyId: basic.id, channel: 'EMAIL', priority: 'URGENT', subject: 'My invoice is wrong' }),
      notUrgent: await startConversation(a, key(), { channel: 'EMAIL', priority: 'HIGH', subject: 'invoice' }),
      bot: await startConversation(a, key(), { channel: 'CHAT', subject: 'Bot: hello' }),
      form: await startConversation(a, key(), { channel: 'FORM' }),
    };
    await routeTeam(a.app.services, team.teamId);
    const read = async (c: any) => expectOk(await call(a, key(), 'GET', `/v1/conversations/${c.id}`));
    const state = async (c: any) => (await q(`SELECT r.state FROM "ConversationRouting" r JOIN "Conversation" c ON c.id = r."conversationId" WHERE c."simplyId" = $1`, [c.id]))[0]?.state;
    expect((await read(started.gold)).assignedUserId).toBe(owner.userSimplyId);
    expect((await read(started.basic)).assignedUserId).toBe(billing.userSimplyId);
    expect(await state(started.notUrgent)).toBe('UNMATCHED');
    expect(await read(started.bot)).toMatchObject({ assignedUserId: null, aiHandling: true });
    expect(await state(started.form)).toBe('UNASSIGNED');
    for (const c of Object.values(started)) expectOk(await call(a, key(), 'PUT', `/v1/conversations/${c.id}`, { status: 'CLOSED' }));
    await clearRules();
  });

  it("a rule's per-agent limit bounds what it routes; a reopened conversation is routed again", async () => {
    const agents = await Promise.all(Array.from({ length: 2 }, () => memberWith(a, team, [FEATURES.inbox])));
    const ids = agents.map((x) => x.userSimplyId);
    for (const id of ids) await setPresence(id, 'ONLINE', 20);
    await rule({ name: 'Small inbox', actionType: 'POOL', poolUserIds: ids, maxOpenPerAgent: 2 });
    const conversations = await Promise.all(Array.from({ length: 6 }, () => startConversation(a, key())));
    await Promise.all([routeTeam(a.app.services, team.teamId), routeTeam(b.app.services, team.teamId)]);
    await settle('4 routed', async () => [...(await loads(ids)).values()].reduce((s, n) => s + n, 0) === 4);
    expect([...(await loads(ids)).values()]).toEqual([2, 2]);
    // resolving one frees a place: the next waiting conversation takes it
    const assigned: any[] = [];
    for (const c of conversations) {
      const row = expectOk(await call(a, key(), 'GET', `/v1/conversations/${c.id}`));
      if (row.assignedUserId) assigned.push(row);
    }
    expectOk(await call(a, key(), 'PUT', `/v1/conversations/${assigned[0].id}`, { status: 'RESOLVED' }));
    await settle('the freed place taken', async () => [...(await loads(ids)).values()].reduce((s, n) => s + n, 0) === 4);
    // resolved and unassigned, then reopened by the visitor: routed again
    expectOk(await call(a, key(), 'PUT', `/v1/conversations/${assigned[1].id}`, { status: 'RESOLVED', assignedUserId: null }));
    expectOk(await call(a, key(), 'POST', `/v1/conversations/${assigned[1].id}/messages`, { content: 'Still broken', authorType: 'END_USER' }), 201);
    const stateOf = async (id: string) => (await q(`SELECT r.state FROM "ConversationRouting" r JOIN "Conversation" c ON c.id = r."conversationId" WHERE c."simplyId" = $1`, [id]))[0].state;
    // its place went to the conversation that waited longer; it waits now, the rule's inbox being full
    await settle('the last waiting one routed', async () => [...(await loads(ids)).values()].reduce((s, n) => s + n, 0) === 4);
    expect(await stateOf(assigned[1].id)).toBe('PENDING');
    expect([...(await loads(ids)).values()]).toEqual([2, 2]);
    const holding = expectOk(await call(a, key(), 'GET', `/v1/conversations?assignedUserId=${ids[0]}&status=OPEN`));
    expectOk(await call(a, key(), 'PUT', `/v1/conversations/${holding[0].id}`, { status: 'RESOLVED' }));
    await settle('the reopened one routed again', async () => expectOk(await call(a, key(), 'GET', `/v1/conversations/${assigned[1].id}`)).assignedUserId === ids[0]);
    for (const c of conversations) expectOk(await call(a, key(), 'PUT', `/v1/conversations/${c.id}`, { status: 'CLOSED' }));
    await clearRules();
  });
});
