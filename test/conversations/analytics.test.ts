// Conversation analytics (GET /v1/conversations/analytics): percentiles from the rollups' log
// buckets against known durations, SLA hit rates from the SLA check, the per-agent table,
// simulated widget previews left out, a resolution counted once at the latest resolve, days in
// the team's zone, 400s naming the field, another team's data never counted, the two features.
import { describe, expect, it } from 'vitest';
import { inTransaction } from '../../src/app/transaction.ts';
import { bucketOf, bucketValue, MAX_BUCKET, percentiles } from '../../src/modules/conversations/analytics-buckets.ts';
import { updateConversation } from '../../src/modules/conversations/conversations.sql.ts';
import { routeTeam } from '../../src/modules/conversations/routing-assign.ts';
import { checkSla } from '../../src/modules/conversations/sla-check.ts';
import { expectError, expectOk } from '../support/expect-envelope.ts';
import { createTeam, type TeamFixture } from '../support/fixtures.ts';
import { useServer } from '../support/use-server.ts';
import { call, FEATURES, keyOf, memberWith, post, startConversation, type Caller } from './conversation-fixtures.ts';
import { createWidget } from './widget-fixtures.ts';

const ANALYTICS = '/v1/conversations/analytics';
/** the documented accuracy of a percentile: the bucket's middle is within 2^(1/16) of any value in it */
const ACCURACY = 2 ** (1 / 16) - 1;

const near = (value: number | null, expected: number) => {
  expect(value).not.toBeNull();
  expect(Math.abs(value! - expected) / expected, `${value} ≈ ${expected}`).toBeLessThanOrEqual(ACCURACY);
};
const today = (zone: string) => new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());

describe('conversation analytics', () => {
  const { server } = useServer({ ownDatabase: 'conversation_analytics' });
  const q = async (text: string, values: unknown[] = []) => (await server.app.services.pool.query(text, values)).rows;
  const analytics = async (who: Caller, query = '') => expectOk(await call(server, who, 'GET', `${ANALYTICS}${query ? `?${query}` : ''}`));
  /** the conversation as if created `seconds` ago (its durations count from createdAt) */
  const backdate = (id: string, seconds: number) => q(`UPDATE "Conversation" SET "createdAt" = now() - make_interval(secs => $2) WHERE "simplyId" = $1`, [id, seconds]);
  const resolve = async (who: Caller, id: string) => expectOk(await call(server, who, 'PUT', `/v1/conversations/${id}`, { status: 'RESOLVED' }));
  const reopenByVisitor = (who: Caller, id: string) => post(server, who, id, { content: 'One more thing', authorType: 'END_USER' });
  const defaultPolicy = async (team: TeamFixture, body: Record<string, unknown>) =>
    expectOk(await call(server, keyOf(team), 'POST', '/v1/conversations/sla-policies', { name: 'Default', isDefault: true, targets: {}, ...body }), 201);

  it('buckets are log-spaced with fixed bounds; percentiles are nearest-rank within the bucket width', () => {
    expect([0, 0.5, 1, 2, 4].map(bucketOf)).toEqual([0, 0, 1, 9, 17]);
    expect(bucketOf(10 ** 12)).toBe(MAX_BUCKET);
    for (const s of [1, 7, 60, 3600, 86_400, 30 * 86_400]) expect(Math.abs(bucketValue(bucketOf(s)) - s) / s).toBeLessThanOrEqual(ACCURACY + 0.01);
    const histogram = new Map<number, number>();
    for (let s = 1; s <= 1000; s++) histogram.set(bucketOf(s), (histogram.get(bucketOf(s)) ?? 0) + 1);
    const { count, values } = percentiles(histogram, [50, 90, 95]);
    expect(count).toBe(1000);
    near(values[0]!, 500);
    near(values[1]!, 900);
    near(values[2]!, 950);
    expect(percentiles(new Map(), [50]).values).toEqual([null]);
  });

  it('answers volumes and first response and resolution percentiles of known durations, the same over GraphQL', async () => {
    const team = await createTeam(server);
    const key = keyOf(team);
    for (let i = 1; i <= 20; i++) {
      const c = await startConversation(server, key, i % 4 === 0 ? { channel: 'EMAIL' } : {});
      await backdate(c.id, i * 60);
      await post(server, key, c.id, { content: 'Hello', ...(i % 4 === 0 ? { channel: 'INTERNAL_NOTE' } : {}) });
      if (i % 4 === 0) await post(server, key, c.id, { content: 'Hello by mail', channel: 'CHAT' });
      if (i <= 10) await resolve(key, c.id);
    }
    const a = await analytics(key);
    expect(a).toMatchObject({ created: 20, timeZone: 'UTC', to: today('UTC'), granularity: null, series: [] });
    expect(a.byChannel).toEqual(expect.arrayContaining([{ channel: 'CHAT', count: 15 }, { channel: 'EMAIL', count: 5 }, { channel: 'SMS', count: 0 }]));
    expect(a.byStatus).toEqual(expect.arrayContaining([{ status: 'OPEN', count: 10 }, { status: 'RESOLVED', count: 10 }, { status: 'MERGED', count: 0 }]));
    // first responses 60, 120, … 1200 s (an internal note is no response): ranks 10, 18, 19 of 20
    expect(a.firstResponseTime.count).toBe(20);
    near(a.firstResponseTime.p50, 600);
    near(a.firstResponseTime.p90, 1080);
    near(a.firstResponseTime.p95, 1140);
    // resolutions of the first ten: 60 … 600 s
    expect(a.resolutionTime.count).toBe(10);
    near(a.resolutionTime.p50, 300);
    near(a.resolutionTime.p95, 600);
    const email = await analytics(key, 'channel=EMAIL');
    expect(email.created).toBe(5);
    expect(email.firstResponseTime.count).toBe(5);
    // GraphQL answers the same
    const gql = await server.graphql(`{ conversationAnalytics(granularity: "week") { created firstResponseTime { count p50 } byStatus { status count } series { periodStart created } } }`, {}, { token: team.apiKey });
    expect(gql.errors).toBeUndefined();
    expect(gql.data.conversationAnalytics).toMatchObject({ created: 20, firstResponseTime: { count: 20, p50: a.firstResponseTime.p50 } });
    expect(gql.data.conversationAnalytics.series.reduce((s: number, p: any) => s + p.created, 0)).toBe(20);
    // the rollups hold days, not conversations: the report reads no conversation or message
    const rows = await q(`SELECT count(*)::int AS n FROM "ConversationAnalyticsDay" WHERE "teamId" = $1`, [team.teamId]);
    expect(rows[0].n).toBeLessThanOrEqual(2);
  });

  it('answers the series per day and per week (Monday to Sunday, clipped to the range)', async () => {
    const team = await createTeam(server);
    for (let i = 0; i < 3; i++) await startConversation(server, keyOf(team));
    const days = await analytics(keyOf(team), 'granularity=day');
    expect(days.series).toHaveLength(30);
    expect(days.series.at(-1)).toEqual({ periodStart: today('UTC'), created: 3 });
    expect(days.series[0].periodStart).toBe(days.from);
    const weeks = await analytics(keyOf(team), 'from=2026-03-04&to=2026-03-22&granularity=week');
    expect(weeks.series.map((p: any) => p.periodStart)).toEqual(['2026-03-04', '2026-03-09', '2026-03-16']);
  });

  it('counts SLA outcomes as the SLA check finds them: met, breached, and a met resolution taken back by a reopen', async () => {
    const team = await createTeam(server);
    const key = keyOf(team);
    await defaultPolicy(team, { targets: { NORMAL: { firstResponseMinutes: 60, resolutionMinutes: 120 } } });
    const inTime = await startConversation(server, key);
    const late = await startConversation(server, key);
    const answered = await startConversation(server, key);
    await backdate(late.id, 3 * 3600);
    await routeTeam(server.app.services, team.teamId);
    await post(server, key, inTime.id, { content: 'Right away' });
    await resolve(key, inTime.id);
    await post(server, key, answered.id, { content: 'Looking into it' });
    await checkSla(server.app.services, null);
    const sla = async () => (await analytics(key)).sla;
    expect(await sla()).toEqual({
      firstResponse: { met: 2, breached: 1, hitRate: 2 / 3 },
      resolution: { met: 1, breached: 1, hitRate: 0.5 },
    });
    // checking again counts nothing twice
    await q(`UPDATE "ConversationSla" SET "nextCheckAt" = now() WHERE "teamId" = $1`, [team.teamId]);
    await checkSla(server.app.services, null);
    expect((await sla()).resolution).toEqual({ met: 1, breached: 1, hitRate: 0.5 });
    // reopened: the resolution's MET is taken back (its clock runs again); resolved again in time: MET once
    await reopenByVisitor(key, inTime.id);
    await checkSla(server.app.services, null);
    expect((await sla()).resolution).toEqual({ met: 0, breached: 1, hitRate: 0 });
    await resolve(key, inTime.id);
    await checkSla(server.app.services, null);
    expect(await sla()).toEqual({ firstResponse: { met: 2, breached: 1, hitRate: 2 / 3 }, resolution: { met: 1, breached: 1, hitRate: 0.5 } });
  });

  it('answers a row per agent: assigned, resolved, medians and open now; reassignment moves what is open', async () => {
    const team = await createTeam(server);
    const key = keyOf(team);
    const [ann, bob] = [await memberWith(server, team, [FEATURES.table, FEATURES.inbox]), await memberWith(server, team, [FEATURES.table, FEATURES.inbox])];
    const assign = async (id: string, who: string) => expectOk(await call(server, key, 'PUT', `/v1/conversations/${id}`, { assignedUserId: who }));
    const c1 = await startConversation(server, key);
    const c2 = await startConversation(server, key);
    const c3 = await startConversation(server, key);
    const c4 = await startConversation(server, key);
    await assign(c1.id, ann.userSimplyId);
    await assign(c2.id, ann.userSimplyId);
    await assign(c3.id, bob.userSimplyId);
    await backdate(c1.id, 120);
    await post(server, ann, c1.id, { content: 'Hi' });
    await resolve(key, c1.id);
    await backdate(c3.id, 600);
    await post(server, bob, c3.id, { content: 'Hi' });
    await resolve(key, c3.id);
    // unassigned: the first response is the replying member's
    await backdate(c4.id, 600);
    await post(server, bob, c4.id, { content: 'Hi' });
    const byId = (a: any) => Object.fromEntries(a.agents.map((r: any) => [r.userSimplyId, r]));
    let agents = byId(await analytics(key));
    expect(Object.keys(agents).sort()).toEqual([ann.userSimplyId, bob.userSimplyId].sort());
    expect(agents[ann.userSimplyId]).toMatchObject({ assigned: 2, resolved: 1, openNow: 1, email: expect.any(String) });
    near(agents[ann.userSimplyId].firstResponseMedian, 120);
    near(agents[ann.userSimplyId].resolutionMedian, 120);
    expect(agents[bob.userSimplyId]).toMatchObject({ assigned: 1, resolved: 1, openNow: 0 });
    near(agents[bob.userSimplyId].firstResponseMedian, 600);
    // one agent's view: only their conversations (their status now) and their row
    const annOnly = await analytics(key, `assignedUserId=${ann.userSimplyId}`);
    expect(annOnly).toMatchObject({ created: 2, assignedUserId: ann.userSimplyId });
    expect(annOnly.agents.map((r: any) => r.userSimplyId)).toEqual([ann.userSimplyId]);
    await assign(c2.id, bob.userSimplyId);
    agents = byId(await analytics(key));
    expect(agents[ann.userSimplyId]).toMatchObject({ assigned: 2, openNow: 0 });
    expect(agents[bob.userSimplyId]).toMatchObject({ assigned: 2, openNow: 1 });
    expect((await analytics(key, `assignedUserId=${ann.userSimplyId}`)).created).toBe(1);
  });

  it('leaves simulated widget previews out, whatever happens to them', async () => {
    const team = await createTeam(server);
    const key = keyOf(team);
    const widget = await createWidget(server, team);
    const simulation = expectOk(await call(server, key, 'POST', `/v1/conversations/widgets/${widget.id}/simulate`, { visitorName: 'Tester', message: 'Does this work?' }), 201);
    const simulated = simulation.conversation.conversationSimplyId;
    expectOk(await call(server, key, 'POST', `/v1/conversations/widgets/${widget.id}/simulate`), 201);
    await post(server, key, simulated, { content: 'It does' });
    expectOk(await call(server, key, 'PUT', `/v1/conversations/${simulated}`, { assignedUserId: team.userSimplyId }));
    await resolve(key, simulated);
    const real = await startConversation(server, key);
    await post(server, key, real.id, { content: 'Hello' });
    const a = await analytics(key);
    expect(a).toMatchObject({ created: 1, firstResponseTime: { count: 1 }, resolutionTime: { count: 0 }, agents: [] });
    expect(await q(`SELECT count(*)::int AS n FROM "ConversationAnalyticsState" s JOIN "Conversation" c ON c.id = s."conversationId" WHERE c."simplyId" = $1`, [simulated])).toEqual([{ n: 0 }]);
  });

  it('counts a resolution once, at the latest resolve: reopening takes it back, closing keeps it', async () => {
    const team = await createTeam(server);
    const key = keyOf(team);
    const c = await startConversation(server, key);
    const counts = async () => {
      const a = await analytics(key);
      return { resolved: a.resolutionTime.count, status: a.byStatus.filter((s: any) => s.count > 0) };
    };
    await resolve(key, c.id);
    expect(await counts()).toEqual({ resolved: 1, status: [{ status: 'RESOLVED', count: 1 }] });
    await reopenByVisitor(key, c.id);
    expect(await counts()).toEqual({ resolved: 0, status: [{ status: 'OPEN', count: 1 }] });
    await backdate(c.id, 3600);
    await resolve(key, c.id);
    expectOk(await call(server, key, 'PUT', `/v1/conversations/${c.id}`, { status: 'PENDING' }));
    expectOk(await call(server, key, 'PUT', `/v1/conversations/${c.id}`, { status: 'RESOLVED' }));
    expectOk(await call(server, key, 'PUT', `/v1/conversations/${c.id}`, { status: 'CLOSED' }));
    expect(await counts()).toEqual({ resolved: 1, status: [{ status: 'CLOSED', count: 1 }] });
    // the time is the latest resolution's
    near((await analytics(key)).resolutionTime.p50, 3600);
    const buckets = await q(`SELECT sum(count)::int AS n FROM "ConversationAnalyticsBucket" WHERE "teamId" = $1 AND metric = 2`, [team.teamId]);
    expect(buckets[0].n).toBe(1);
    // closed without a resolution: no resolution counted
    const closed = await startConversation(server, key);
    expectOk(await call(server, key, 'PUT', `/v1/conversations/${closed.id}`, { status: 'CLOSED' }));
    expect((await counts()).resolved).toBe(1);
  });

  it('counts days in the team’s zone (its default SLA policy’s): an event at 23:30 UTC is the next day in Berlin', async () => {
    const team = await createTeam(server);
    const key = keyOf(team);
    await defaultPolicy(team, { timeZone: 'Europe/Berlin' });
    const c = await startConversation(server, key);
    await inTransaction(server.app.services.pool, async (db) => {
      const [row] = await q(`SELECT id FROM "Conversation" WHERE "simplyId" = $1`, [c.id]);
      await updateConversation(db, team.teamId, BigInt(row.id), { status: 'RESOLVED', resolvedAt: new Date('2026-03-01T23:30:00Z') });
    });
    expect((await analytics(key, 'from=2026-03-02&to=2026-03-02')).resolutionTime.count).toBe(1);
    expect((await analytics(key, 'from=2026-03-01&to=2026-03-01')).resolutionTime.count).toBe(0);
    expect((await analytics(key, 'from=2026-03-02&to=2026-03-02')).timeZone).toBe('Europe/Berlin');

    // UTC+14 and UTC-11 are never on the same date: "today" is the team's
    const east = await createTeam(server);
    await defaultPolicy(east, { timeZone: 'Pacific/Kiritimati' });
    await startConversation(server, keyOf(east));
    expect(await analytics(keyOf(east))).toMatchObject({ to: today('Pacific/Kiritimati'), created: 1 });
    expect((await analytics(keyOf(east), `from=${today('Pacific/Pago_Pago')}&to=${today('Pacific/Pago_Pago')}`)).created).toBe(0);
  });

  it('answers 400 naming the field for bad from, to, granularity, channel and agent', async () => {
    const team = await createTeam(server);
    const cases: [string, string][] = [
      ['from=2026-13-01', 'from'],
      ['from=2026-02-30', 'from'],
      ['to=yesterday', 'to'],
      ['from=2026-03-01T00:00:00Z', 'from'],
      ['from=2026-03-10&to=2026-03-01', 'from'],
      ['from=2025-01-01&to=2026-01-02', 'from'],
      ['from=2020-01-01', 'from'],
      ['granularity=month', 'granularity'],
      ['channel=FAX', 'channel'],
      ['assignedUserId=bob', 'assignedUserId'],
      ['limit=5', 'limit'],
    ];
    for (const [query, field] of cases) {
      const error = expectError(await call(server, keyOf(team), 'GET', `${ANALYTICS}?${query}`), 400, 'VALIDATION_ERROR', query);
      expect(error.details?.map((d) => d.field), query).toContain(field);
    }
    // 366 days are allowed
    expect((await analytics(keyOf(team), 'from=2024-01-01&to=2024-12-31')).created).toBe(0);
    const gql = await server.graphql(`{ conversationAnalytics(granularity: "hour") { created } }`, {}, { token: team.apiKey });
    expect(gql.errors?.[0]?.extensions).toMatchObject({ code: 'VALIDATION_ERROR' });
  });

  it('never counts another team’s conversations, nor names its agents', async () => {
    const [mine, theirs] = [await createTeam(server), await createTeam(server)];
    const c = await startConversation(server, keyOf(theirs));
    expectOk(await call(server, keyOf(theirs), 'PUT', `/v1/conversations/${c.id}`, { assignedUserId: theirs.userSimplyId }));
    await post(server, keyOf(theirs), c.id, { content: 'Hi' });
    await resolve(keyOf(theirs), c.id);
    await startConversation(server, keyOf(mine));
    const a = await analytics(keyOf(mine));
    expect(a).toMatchObject({ created: 1, firstResponseTime: { count: 0 }, resolutionTime: { count: 0 }, agents: [] });
    // their agent is nobody of mine: nothing, not an error that tells them apart
    expect(await analytics(keyOf(mine), `assignedUserId=${theirs.userSimplyId}`)).toMatchObject({ created: 0, agents: [] });
    expect((await analytics(keyOf(theirs))).agents.map((r: any) => r.userSimplyId)).toEqual([theirs.userSimplyId]);
  });

  it('needs DATA_CONVERSATIONS_VIEW and DATA_CONVERSATION_INBOX_VIEW_ALL; scoped tokens conversations:read', async () => {
    const team = await createTeam(server);
    const refused = [
      await memberWith(server, team, [FEATURES.table]),
      await memberWith(server, team, [FEATURES.inboxAll]),
      await memberWith(server, team, [FEATURES.table, FEATURES.inbox]),
    ];
    for (const who of refused) expectError(await call(server, who, 'GET', ANALYTICS), 403, 'PERMISSION_DENIED');
    // the permissions are the tier's: refused before the input is looked at
    expectError(await call(server, refused[0]!, 'GET', `${ANALYTICS}?granularity=month`), 403, 'PERMISSION_DENIED');
    const gql = await server.graphql(`{ conversationAnalytics(granularity: "month") { created } }`, {}, { token: refused[2]!.token, teamId: team.teamSimplyId });
    expect(gql.errors?.[0]?.extensions).toMatchObject({ code: 'PERMISSION_DENIED' });
    const supervisor = await memberWith(server, team, [`${FEATURES.table}:VIEW`, `${FEATURES.inboxAll}:VIEW`]);
    expect((await analytics(supervisor)).created).toBe(0);
    const session = async (oauthScopes: string[]) =>
      ({ token: expectOk(await call(server, keyOf(team), 'POST', '/v1/session-tokens', { expiresInMinutes: 5, oauthScopes }), 201).token }) as Caller;
    expectError(await call(server, await session(['records:read']), 'GET', ANALYTICS), 403, 'PERMISSION_DENIED');
    expect((await analytics(await session(['conversations:read']))).created).toBe(0);
  });
});
