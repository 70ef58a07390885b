// What the conversations area does in the background, with the server's workers running: the
// notifications of new conversations, end-user messages, assignments and mentions (through the
// notify service, once each), and snoozes woken by their job at their time (or by the sweep, or
// by the visitor writing again).
import { describe, expect, it } from 'vitest';
import { wakeDue } from '../../src/modules/conversations/conversations.sql.ts';
import { expectError, expectOk } from '../support/expect-envelope.ts';
import { untilWith } from '../support/until.ts';
import { useServer } from '../support/use-server.ts';
import { adminOf, call, FEATURES, keyOf, memberWith, post, startConversation, type Caller } from './conversation-fixtures.ts';

const until = untilWith({ timeoutMs: 20_000, everyMs: 100 });

describe('conversations in the background', () => {
  const { server, teams: [team] } = useServer({ teams: 1, runJobs: true, ownDatabase: 'conversation_jobs' });
  const key = () => keyOf(team);

  const feed = async (who: Caller, type: string) =>
    (expectOk(await call(server, who, 'GET', `/v1/notifications?notificationType=${type}&limit=100`)).notifications as any[]);
  const about = async (who: Caller, type: string, conversation: string) => (await feed(who, type)).filter((n) => n.referenceEntityId === conversation);
  /** waits until the job has told `who`, then returns what they were told */
  const told = (who: Caller, type: string, conversation: string, count = 1) =>
    until(`${type} for ${conversation}`, async () => {
      const found = await about(who, type, conversation);
      return found.length >= count ? found : null;
    });
  /** the job of a later change ran: what was not told by then is never told */
  const settled = () => until('the notification jobs', async () => (await server.app.services.pool.query(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'conversations.notify' AND state < 'completed'`)).rows[0].n === 0);

  describe('notifications', () => {
    it('a new conversation tells everyone whose inbox shows it, but its creator', async () => {
      const [agent, supervisor, tableOnly] = await Promise.all([
        memberWith(server, team, [FEATURES.inbox]),
        memberWith(server, team, [FEATURES.inboxAll]),
        memberWith(server, team, [FEATURES.table]),
      ]);
      const c = await startConversation(server, adminOf(team), { subject: 'Need help', visitorEmail: 'help@example.org' });
      const [n] = await told(agent, 'NEW_CONVERSATION', c.id);
      expect(n).toMatchObject({ category: 'newConversation', title: 'New conversation: Need help', actionUrl: `/conversations/inbox/${c.id}`, referenceEntityType: 'CONVERSATION', isRead: false });
      await told(supervisor, 'NEW_CONVERSATION', c.id);
      await settled();
      expect(await about(tableOnly, 'NEW_CONVERSATION', c.id)).toEqual([]);
      expect(await about(adminOf(team), 'NEW_CONVERSATION', c.id)).toEqual([]);
    });

    it("an end user's message tells the assignee and the followers who may see it, once each; the team's own messages tell nobody", async () => {
      const [assignee, follower, leaver, bystander] = await Promise.all([
        memberWith(server, team, [FEATURES.inbox]),
        memberWith(server, team, [FEATURES.inboxAll]),
        memberWith(server, team, [FEATURES.inbox]),
        memberWith(server, team, [FEATURES.inboxAll]),
      ]);
      const c = await startConversation(server, key(), { visitorName: 'Ada' });
      for (const who of [follower, leaver]) expectOk(await call(server, who, 'POST', `/v1/conversations/inbox/${c.id}/follow`));
      expectOk(await call(server, key(), 'PUT', `/v1/conversations/${c.id}`, { assignedUserId: assignee.userSimplyId }));
      await post(server, key(), c.id, { content: 'Our team writes first' });
      await post(server, key(), c.id, { content: 'Where is my parcel?', authorType: 'END_USER' });
      const [n] = await told(assignee, 'NEW_MESSAGE', c.id);
      expect(n).toMatchObject({ title: 'New message from Ada', body: 'Where is my parcel?', category: 'newMessage' });
      await told(follower, 'NEW_MESSAGE', c.id);
      await settled();
      // the inbox-only follower no longer sees it (assigned to someone else): not told
      expect(await about(leaver, 'NEW_MESSAGE', c.id)).toEqual([]);
      expect(await about(bystander, 'NEW_MESSAGE', c.id)).toEqual([]);
      expect(await about(assignee, 'NEW_MESSAGE', c.id)).toHaveLength(1);
    });

    it('an assignment tells the new assignee, unless they took it themselves', async () => {
      const [agent, other] = await Promise.all([memberWith(server, team, [FEATURES.inbox]), memberWith(server, team, [FEATURES.inbox])]);
      const c = await startConversation(server, key(), { subject: 'Assign me' });
      expectOk(await call(server, key(), 'PUT', `/v1/conversations/${c.id}`, { assignedUserId: agent.userSimplyId }));
      const [n] = await told(agent, 'ASSIGNMENT', c.id);
      expect(n).toMatchObject({ title: 'Conversation assigned to you: Assign me', category: 'assignment' });
      const d = await startConversation(server, key());
      expectOk(await call(server, other, 'PUT', `/v1/conversations/inbox/${d.id}/takeover`));
      await settled();
      expect(await about(other, 'ASSIGNMENT', d.id)).toEqual([]);
    });

    it("a mention in an agent's internal note tells the members it names who may see the conversation", async () => {
      const [writer, named, outsider] = await Promise.all([
        memberWith(server, team, [FEATURES.inboxAll]),
        memberWith(server, team, [FEATURES.inboxAll]),
        memberWith(server, team, [FEATURES.table]),
      ]);
      const c = await startConversation(server, key(), { subject: 'Invoice' });
      const note = `@${named.userSimplyId} and @${outsider.userSimplyId} and @usr-2222-3333-4444: please check the invoice`;
      expectOk(await call(server, writer, 'POST', `/v1/conversations/inbox/${c.id}/messages`, { content: note, channel: 'INTERNAL_NOTE' }), 201);
      const [n] = await told(named, 'MENTION', c.id);
      expect(n).toMatchObject({ category: 'mention', body: note });
      expect(n.title).toMatch(/mentioned you in Invoice$/);
      await told(outsider, 'MENTION', c.id);
      // a mention outside an internal note mentions nobody
      expectOk(await call(server, writer, 'POST', `/v1/conversations/inbox/${c.id}/messages`, { content: `@${named.userSimplyId} hi`, channel: 'CHAT' }), 201);
      await settled();
      expect(await about(named, 'MENTION', c.id)).toHaveLength(1);
      expect(await about(writer, 'MENTION', c.id)).toEqual([]);
    });
  });

  describe('snoozes', () => {
    const snooze = (id: string, until: Date | string) => call(server, key(), 'PUT', `/v1/conversations/inbox/${id}/snooze`, { until: typeof until === 'string' ? until : until.toISOString() });
    const stored = async (id: string) => (await server.app.services.prisma.conversation.findFirstOrThrow({ where: { teamId: team.teamId, simplyId: id } })).snoozedUntil;

    it('ends by its job at its time: back in the inbox, nothing left stored', async () => {
      const c = await startConversation(server, key());
      const snoozed = expectOk(await snooze(c.id, new Date(Date.now() + 2000)));
      expect(snoozed.isSnoozed).toBe(true);
      const inbox = async (query = '') => (expectOk(await call(server, key(), 'GET', `/v1/conversations/inbox?limit=100${query}`)) as any[]).map((x) => x.id);
      expect(await inbox()).not.toContain(c.id);
      expect(await inbox('&snoozed=true')).toContain(c.id);
      await until('the wake-up job', async () => (await stored(c.id)) === null);
      expect(expectOk(await call(server, key(), 'GET', `/v1/conversations/${c.id}`))).toMatchObject({ isSnoozed: false, snoozedUntil: null });
      expect(await inbox()).toContain(c.id);
    });

    it('a snooze moved later is not ended by the job of the earlier one; unsnooze ends it now; the visitor writing ends it and reopens', async () => {
      const c = await startConversation(server, key());
      expectOk(await snooze(c.id, new Date(Date.now() + 1000)));
      const later = new Date(Date.now() + 3_600_000);
      expectOk(await snooze(c.id, later));
      await new Promise((r) => setTimeout(r, 3000));
      await until('the earlier job', async () => (await server.app.services.pool.query(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'conversations.wake' AND state = 'completed' AND data->>'conversationId' = (SELECT id::text FROM "Conversation" WHERE "simplyId" = $1)`, [c.id])).rows[0].n >= 1);
      expect((await stored(c.id))?.toISOString()).toBe(later.toISOString());
      expect(expectOk(await call(server, key(), 'PUT', `/v1/conversations/inbox/${c.id}/unsnooze`))).toMatchObject({ isSnoozed: false, snoozedUntil: null });
      expectOk(await call(server, key(), 'PUT', `/v1/conversations/inbox/${c.id}/unsnooze`));

      expectOk(await call(server, key(), 'PUT', `/v1/conversations/${c.id}`, { status: 'RESOLVED' }));
      expectOk(await snooze(c.id, later));
      await post(server, key(), c.id, { content: 'me again', authorType: 'END_USER' });
      expect(expectOk(await call(server, key(), 'GET', `/v1/conversations/${c.id}`))).toMatchObject({ isSnoozed: false, status: 'OPEN', resolvedAt: null });
    });

    it('the sweep ends a snooze whose job is gone', async () => {
      const c = await startConversation(server, key());
      await server.app.services.pool.query(`UPDATE "Conversation" SET "snoozedUntil" = now() - interval '1 minute' WHERE "simplyId" = $1`, [c.id]);
      // the sweep covers every team: another test server's sweep over the shared database may hold
      // this row (SKIP LOCKED) while ours runs and commit a moment later; either way a sweep ends it
      await until('a sweep', async () => {
        await wakeDue(server.app.services.pool, null);
        return (await stored(c.id)) === null;
      });
    });

    it('refuses a time in the past, more than a year ahead, or not a time: 400 naming until', async () => {
      const c = await startConversation(server, key());
      for (const until of [new Date(Date.now() - 1000).toISOString(), new Date(Date.now() + 366 * 86_400_000).toISOString(), 'tomorrow', '2026-12-24']) {
        const error = expectError(await snooze(c.id, until), 400, 'VALIDATION_ERROR', until);
        expect(error.details?.[0]?.field).toBe('until');
      }
      expectError(await call(server, key(), 'PUT', `/v1/conversations/inbox/${c.id}/snooze`, {}), 400, 'VALIDATION_ERROR');
    });
  });
});
