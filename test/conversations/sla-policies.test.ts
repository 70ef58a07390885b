// SLA policies over REST, and the clocks of a conversation under one: due times in business hours
// of the policy's time zone across the spring daylight-saving change and a holiday, warnings and
// breaches recorded once each (event, realtime and notification), the state on the conversation.
import { describe, expect, it } from 'vitest';
import { routeTeam } from '../../src/modules/conversations/routing-assign.ts';
import { checkSla } from '../../src/modules/conversations/sla-check.ts';
import { expectError, expectOk } from '../support/expect-envelope.ts';
import { createTeam } from '../support/fixtures.ts';
import { useServer } from '../support/use-server.ts';
import { call, FEATURES, keyOf, memberWith, post, startConversation } from './conversation-fixtures.ts';

const POLICIES = '/v1/conversations/sla-policies';
const BERLIN_HOURS = [1, 2, 3, 4, 5].map((weekday) => ({ weekday, start: '09:00', end: '17:00' }));

describe('SLA policies', () => {
  const { server, teams: [team] } = useServer({ teams: 1, ownDatabase: 'conversation_sla' });
  const key = () => keyOf(team);
  const q = async (text: string, values: unknown[] = []) => (await server.app.services.pool.query(text, values)).rows;

  it('creates, reads, changes and deletes policies; one default per team', async () => {
    const a = expectOk(await call(server, key(), 'POST', POLICIES, { name: 'Berlin', isDefault: true, timeZone: 'Europe/Berlin', targets: { NORMAL: { firstResponseMinutes: 60 } }, businessHours: BERLIN_HOURS, holidays: ['2026-12-25', '2026-12-24', '2026-12-25'] }), 201);
    expect(a).toMatchObject({ slaPolicySimplyId: expect.stringMatching(/^sla-/), isDefault: true, timeZone: 'Europe/Berlin', holidays: ['2026-12-24', '2026-12-25'], warningPercent: 80 });
    const b = expectOk(await call(server, key(), 'POST', POLICIES, { name: 'Urgent', isDefault: true, targets: { URGENT: { firstResponseMinutes: 15 } } }), 201);
    expect(expectOk(await call(server, key(), 'GET', `${POLICIES}/${a.id}`)).isDefault).toBe(false);
    expect(expectOk(await call(server, key(), 'PUT', `${POLICIES}/${b.id}`, { warningPercent: 50, timeZone: 'America/New_York' }))).toMatchObject({ warningPercent: 50, timeZone: 'America/New_York', isDefault: true });
    expect(expectOk(await call(server, key(), 'GET', POLICIES)).map((p: any) => p.id)).toEqual([a.id, b.id]);
    expectOk(await call(server, key(), 'DELETE', `${POLICIES}/${b.id}`));
    expectOk(await call(server, key(), 'DELETE', `${POLICIES}/${a.id}`));
    expectError(await call(server, key(), 'GET', `${POLICIES}/${a.id}`), 404, 'NOT_FOUND');
  });

  it('answers 400 naming the field, 403 to agents, 404 to another team', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ name: 'x' }, 'targets'],
      [{ name: 'x', targets: { NORMAL: { firstResponseMinutes: 0 } } }, 'targets.NORMAL.firstResponseMinutes'],
      [{ name: 'x', targets: { MEDIUM: {} } }, 'targets.MEDIUM'],
      [{ name: 'x', targets: {}, timeZone: 'Mars/Olympus' }, 'timeZone'],
      [{ name: 'x', targets: {}, businessHours: [{ weekday: 8, start: '09:00', end: '17:00' }] }, 'businessHours.0.weekday'],
      [{ name: 'x', targets: {}, businessHours: [{ weekday: 1, start: '17:00', end: '09:00' }] }, 'businessHours.0.end'],
      [{ name: 'x', targets: {}, businessHours: [{ weekday: 1, start: '9am', end: '17:00' }] }, 'businessHours.0.start'],
      [{ name: 'x', targets: {}, businessHours: [{ weekday: 1, start: '09:00', end: '13:00' }, { weekday: 1, start: '12:00', end: '17:00' }] }, 'businessHours.1'],
      [{ name: 'x', targets: {}, holidays: ['2026-02-30'] }, 'holidays.0'],
      [{ name: 'x', targets: {}, warningPercent: 100 }, 'warningPercent'],
    ];
    for (const [body, field] of cases) {
      const error = expectError(await call(server, key(), 'POST', POLICIES, body), 400, 'VALIDATION_ERROR', JSON.stringify(body));
      expect(error.details?.map((d) => d.field), JSON.stringify(body)).toContain(field);
    }
    const policy = expectOk(await call(server, key(), 'POST', POLICIES, { name: 'Mine', targets: {} }), 201);
    const agent = await memberWith(server, team, [FEATURES.inbox]);
    expectError(await call(server, agent, 'GET', POLICIES), 403, 'PERMISSION_DENIED');
    const other = await createTeam(server);
    expectError(await call(server, keyOf(other), 'GET', `${POLICIES}/${policy.id}`), 404, 'NOT_FOUND');
    expectError(await call(server, keyOf(other), 'PUT', `${POLICIES}/${policy.id}`, { name: 'taken' }), 404, 'NOT_FOUND');
    expectError(await call(server, keyOf(other), 'DELETE', `${POLICIES}/${policy.id}`), 404, 'NOT_FOUND');
    expectOk(await call(server, key(), 'DELETE', `${POLICIES}/${policy.id}`));
  });

  it('clocks run in Berlin business hours across the spring change and a holiday; breaches are recorded once and told', async () => {
    const policy = expectOk(
      await call(server, key(), 'POST', POLICIES, {
        name: 'Berlin office',
        timeZone: 'Europe/Berlin',
        businessHours: BERLIN_HOURS,
        holidays: ['2026-03-31'],
        targets: { HIGH: { firstResponseMinutes: 120, nextResponseMinutes: 30, resolutionMinutes: 960 } },
      }),
      201,
    );
    expectOk(await call(server, key(), 'POST', '/v1/conversations/assignment-rules', { name: 'High ones', conditions: { priorities: ['HIGH'] }, actionType: 'UNASSIGNED', slaPolicyId: policy.id }), 201);
    const c = await startConversation(server, key(), { priority: 'HIGH' });
    // created Friday 27 March 2026, 16:00 in Berlin (CET); Monday 30 March is summer time, Tuesday 31 a holiday
    await q(`UPDATE "Conversation" SET "createdAt" = '2026-03-27T15:00:00Z' WHERE "simplyId" = $1`, [c.id]);
    await routeTeam(server.app.services, team.teamId);
    const sla = expectOk(await call(server, key(), 'GET', `/v1/conversations/${c.id}/sla`));
    expect(sla).toMatchObject({
      slaPolicyId: policy.id,
      // 60 minutes on Friday, 60 on Monday from 09:00 CEST
      firstResponseDueAt: '2026-03-30T08:00:00.000Z',
      // 16 hours: 1 on Friday, 8 on Monday, Tuesday off, 7 on Wednesday → 16:00 CEST
      resolutionDueAt: '2026-04-01T14:00:00.000Z',
      nextResponseDueAt: null,
      firstResponseBreached: true,
      breached: true,
    });

    // the check records the breaches once, however often it runs
    const now = new Date();
    await checkSla(server.app.services, null, now);
    await q(`UPDATE "ConversationSla" SET "nextCheckAt" = now() WHERE "teamId" = $1`, [team.teamId]);
    await checkSla(server.app.services, null, now);
    const events = await q(`SELECT clock, kind, "dueAt" FROM "ConversationSlaEvent" WHERE "teamId" = $1 ORDER BY clock, kind`, [team.teamId]);
    expect(events.map((e) => `${e.clock} ${e.kind} ${e.dueAt.toISOString()}`)).toEqual(['FIRST_RESPONSE BREACH 2026-03-30T08:00:00.000Z', 'RESOLUTION BREACH 2026-04-01T14:00:00.000Z']);
    const notifies = await q(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'conversations.sla-notify' AND data->>'teamId' = $1`, [String(team.teamId)]);
    expect(notifies[0].n).toBe(2);

    // a reply meets the first-response clock; the visitor writing again starts the next-response clock
    await post(server, key(), c.id, { content: 'On it' });
    await post(server, key(), c.id, { content: 'Thanks, and another thing', authorType: 'END_USER' });
    const later = expectOk(await call(server, key(), 'GET', `/v1/conversations/${c.id}/sla`));
    expect(later.clocks.find((k: any) => k.clock === 'FIRST_RESPONSE')).toMatchObject({ running: false, metAt: expect.any(String), breached: true });
    expect(later.clocks.find((k: any) => k.clock === 'NEXT_RESPONSE')).toMatchObject({ running: true, targetMinutes: 30 });
    // GraphQL reads it as a field of the conversation (one loader statement for the page)
    const gql = await server.graphql(`{ conversations(limit: 10) { nodes { id sla { slaPolicyId firstResponseDueAt breached } } } }`, {}, { token: team.apiKey });
    expect(gql.data).toMatchObject({ conversations: { nodes: expect.arrayContaining([{ id: c.id, sla: { slaPolicyId: policy.id, firstResponseDueAt: '2026-03-30T08:00:00.000Z', breached: true } }]) } });
    // resolved: the resolution clock stops (met late)
    expectOk(await call(server, key(), 'PUT', `/v1/conversations/${c.id}`, { status: 'RESOLVED' }));
    const done = expectOk(await call(server, key(), 'GET', `/v1/conversations/${c.id}/sla`));
    expect(done.clocks.every((k: any) => !k.running)).toBe(true);
    // a conversation without a policy has none
    const plain = await startConversation(server, key());
    await routeTeam(server.app.services, team.teamId);
    expect((await call(server, key(), 'GET', `/v1/conversations/${plain.id}/sla`)).body.data).toBeNull();
    expectError(await call(server, keyOf(await createTeam(server)), 'GET', `/v1/conversations/${c.id}/sla`), 404, 'NOT_FOUND');
  });

  it('warns at the warning percentage, before the due time', async () => {
    const policy = expectOk(await call(server, key(), 'POST', POLICIES, { name: 'Fast', targets: { LOW: { firstResponseMinutes: 10 } }, warningPercent: 50 }), 201);
    expectOk(await call(server, key(), 'PUT', '/v1/conversations/sla-policies/' + policy.id, { isDefault: true }));
    const c = await startConversation(server, key(), { priority: 'LOW' });
    await routeTeam(server.app.services, team.teamId);
    const sla = expectOk(await call(server, key(), 'GET', `/v1/conversations/${c.id}/sla`));
    const warnAt = new Date(sla.clocks[0].warnAt);
    await q(`UPDATE "ConversationSla" SET "nextCheckAt" = now() WHERE "teamId" = $1`, [team.teamId]);
    await checkSla(server.app.services, null, new Date(warnAt.getTime() + 1000));
    const events = await q(`SELECT e.kind FROM "ConversationSlaEvent" e JOIN "Conversation" c ON c.id = e."conversationId" WHERE c."simplyId" = $1`, [c.id]);
    expect(events.map((e) => e.kind)).toEqual(['WARNING']);
    const next = await q(`SELECT s."nextCheckAt" FROM "ConversationSla" s JOIN "Conversation" c ON c.id = s."conversationId" WHERE c."simplyId" = $1`, [c.id]);
    expect(next[0].nextCheckAt.toISOString()).toBe(sla.clocks[0].dueAt);
  });
});
