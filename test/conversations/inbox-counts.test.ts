// The inbox list's total comes from counts a trigger keeps per assignee, status, channel, priority
// and snooze (ConversationInboxCount): after every kind of write (create, assign, status, priority,
// snooze and an overdue snooze the wake-up job has not cleared, merge and unmerge, delete) each
// filter's total equals the rows the list actually holds.
import { describe, expect, it } from 'vitest';
import { expectOk } from '../support/expect-envelope.ts';
import { useServer } from '../support/use-server.ts';
import { call, FEATURES, keyOf, memberWith, startConversation, type Caller } from './conversation-fixtures.ts';

describe('inbox totals', () => {
  const { server, teams: [team] } = useServer({ teams: 1 });

  /** the total the list answers, and the rows it holds when read whole */
  async function totalAndRows(who: Caller, query: string): Promise<[number, number]> {
    const first = await call(server, who, 'GET', `/v1/conversations/inbox?${query}&limit=100`);
    const total = expectOk(first) && first.body.meta.pagination.total;
    let rows = 0;
    for (let offset = 0; ; offset += 100) {
      const page = expectOk(await call(server, who, 'GET', `/v1/conversations/inbox?${query}&limit=100&offset=${offset}`)) as unknown[];
      rows += page.length;
      if (page.length < 100) break;
    }
    return [total, rows];
  }

  it('stay exact through every kind of write', async () => {
    const key = keyOf(team);
    const [agent, supervisor] = await Promise.all([memberWith(server, team, [FEATURES.inbox]), memberWith(server, team, [FEATURES.inboxAll])]);
    const channels = ['CHAT', 'EMAIL', 'SMS'];
    const priorities = ['LOW', 'NORMAL', 'HIGH', 'URGENT'];
    const made = [];
    for (let i = 0; i < 24; i++) made.push(await startConversation(server, key, { channel: channels[i % 3], priority: priorities[i % 4] }));
    const put = (id: string, body: unknown) => call(server, key, 'PUT', `/v1/conversations/${id}`, body);
    for (const [i, c] of made.entries()) {
      if (i % 3 === 0) expectOk(await put(c.id, { assignedUserId: agent.userSimplyId }));
      if (i % 4 === 1) expectOk(await put(c.id, { status: 'PENDING' }));
      if (i % 5 === 2) expectOk(await put(c.id, { status: 'RESOLVED', priority: 'LOW' }));
    }
    expectOk(await call(server, supervisor, 'PUT', `/v1/conversations/inbox/${made[4]!.id}/snooze`, { until: new Date(Date.now() + 3_600_000).toISOString() }));
    expectOk(await call(server, supervisor, 'PUT', `/v1/conversations/inbox/${made[7]!.id}/snooze`, { until: new Date(Date.now() + 3_600_000).toISOString() }));
    // a snooze whose time has come, before the wake-up job clears it: awake for the lists
    await server.app.services.pool.query(`UPDATE "Conversation" SET "snoozedUntil" = now() - interval '1 minute' WHERE "simplyId" = $1`, [made[7]!.id]);
    expectOk(await call(server, key, 'POST', `/v1/conversations/inbox/${made[10]!.id}/merge`, { into: made[11]!.id }));
    expectOk(await call(server, key, 'POST', `/v1/conversations/inbox/${made[13]!.id}/merge`, { into: made[14]!.id }));
    expectOk(await call(server, key, 'POST', `/v1/conversations/inbox/${made[13]!.id}/merge`, { unmerge: true }));

    const queries = [
      '', 'snoozed=true', 'snoozed=any', 'status=OPEN', 'status=OPEN,PENDING&channel=EMAIL', 'priority=HIGH,URGENT', 'assigned=unassigned', `assignedUserId=${agent.userSimplyId}`,
      'status=RESOLVED&snoozed=any', 'channel=SMS&priority=LOW', 'assigned=unassigned&status=PENDING',
    ];
    for (const who of [supervisor, agent]) {
      for (const query of queries) {
        const [total, rows] = await totalAndRows(who, query);
        expect(total, `${who === agent ? 'agent' : 'supervisor'} ${query}`).toBe(rows);
      }
    }
    const [all] = await totalAndRows(supervisor, 'snoozed=any');
    expect(all).toBe(23);
    const [snoozed] = await totalAndRows(supervisor, 'snoozed=true');
    expect(snoozed).toBe(1);
  });
});
