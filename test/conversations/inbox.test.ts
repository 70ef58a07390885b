// The inbox (docs/api/conversations.md "The inbox", "Lifecycle"): its filters and order, the
// detail with the newest messages and what surrounds them, read positions and the unread summary,
// a record's and a contact's conversations, taking over, handing to the AI, following.
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectOk } from '../support/expect-envelope.ts';
import { createRecord } from '../support/record-fixtures.ts';
import { useServer } from '../support/use-server.ts';
import { adminOf, call, createContacts, FEATURES, keyOf, memberWith, post, startConversation, visitorEmail, type Caller } from './conversation-fixtures.ts';

describe('the inbox', () => {
  // handing to the AI needs a model configured (a closed port: nothing here asks it, as no job runs)
  const { server, teams: [team] } = useServer({ teams: 1, env: { AI_BASE_URL: 'http://127.0.0.1:9/v1', AI_MODEL: 'unreachable' } });
  let agent: Caller & { userSimplyId: string };
  let colleague: Caller & { userSimplyId: string };
  let supervisor: Caller & { userSimplyId: string };
  const key = () => keyOf(team);

  beforeAll(async () => {
    [agent, colleague, supervisor] = await Promise.all([
      memberWith(server, team, [FEATURES.inbox]),
      memberWith(server, team, [FEATURES.inbox]),
      memberWith(server, team, [FEATURES.inboxAll]),
    ]);
  });

  /** a word only this test's conversations hold (their subject): q= keeps the list to them */
  const tag = () => `tag${randomBytes(4).toString('hex')}`;
  const list = async (who: Caller, query: string) => expectOk(await call(server, who, 'GET', `/v1/conversations/inbox?${query}`)) as any[];
  const ids = async (who: Caller, query: string) => (await list(who, query)).map((c) => c.id);
  const assign = async (id: string, userSimplyId: string | null) => expectOk(await call(server, key(), 'PUT', `/v1/conversations/${id}`, { assignedUserId: userSimplyId }));

  it('filters by status, priority, channel, assignment, snooze and text; most recent message first, or oldest activity first', async () => {
    const t = tag();
    const a = await startConversation(server, key(), { subject: `${t} billing`, channel: 'EMAIL', priority: 'HIGH', visitorName: 'Marie Curie' });
    const b = await startConversation(server, key(), { subject: `${t} shipping`, channel: 'CHAT', visitorPhone: '+33142685300' });
    const c = await startConversation(server, key(), { subject: `${t} refund`, channel: 'CHAT', priority: 'URGENT' });
    await post(server, key(), a.id, { content: 'newest activity', authorType: 'END_USER' });
    expectOk(await call(server, key(), 'PUT', `/v1/conversations/${b.id}`, { status: 'PENDING' }));
    await assign(c.id, agent.userSimplyId);

    expect(await ids(supervisor, `q=${t}`)).toEqual([a.id, c.id, b.id]);
    expect(await ids(supervisor, `q=${t}&sort=lastMessageAt`)).toEqual([b.id, c.id, a.id]);
    expect(await ids(supervisor, `q=${t}&status=PENDING`)).toEqual([b.id]);
    expect(await ids(supervisor, `q=${t}&status=OPEN,PENDING`)).toEqual([a.id, c.id, b.id]);
    expect(await ids(supervisor, `q=${t}&priority=HIGH,URGENT`)).toEqual([a.id, c.id]);
    expect(await ids(supervisor, `q=${t}&channel=CHAT`)).toEqual([c.id, b.id]);
    expect(await ids(supervisor, `q=${t}&assigned=unassigned`)).toEqual([a.id, b.id]);
    expect(await ids(agent, `q=${t}&assigned=me`)).toEqual([c.id]);
    expect(await ids(supervisor, `q=${t}&assignedUserId=${agent.userSimplyId}`)).toEqual([c.id]);
    // text: subject, visitor name, email and phone, without case; LIKE wildcards are literal
    expect(await ids(supervisor, `q=${t.toUpperCase()}%20BILL`)).toEqual([a.id]);
    expect(await ids(supervisor, `q=marie%20curie`)).toContain(a.id);
    expect(await ids(supervisor, `q=%2B33142685300`)).toEqual([b.id]);
    expect(await ids(supervisor, `q=${t}%25`)).toEqual([]);

    expectOk(await call(server, key(), 'PUT', `/v1/conversations/inbox/${b.id}/snooze`, { until: new Date(Date.now() + 3_600_000).toISOString() }));
    expect(await ids(supervisor, `q=${t}`)).toEqual([a.id, c.id]);
    expect(await ids(supervisor, `q=${t}&snoozed=true`)).toEqual([b.id]);
    expect(await ids(supervisor, `q=${t}&snoozed=any`)).toEqual([a.id, c.id, b.id]);
    const page = await call(server, supervisor, 'GET', `/v1/conversations/inbox?q=${t}&snoozed=any&limit=2`);
    expect(page.body.meta.pagination).toEqual({ total: 3, limit: 2, offset: 0, hasMore: true });

    for (const query of ['limit=0', 'limit=101', 'status=DONE', 'channel=INTERNAL_NOTE', 'priority=P1', 'assigned=someone', 'snoozed=maybe', 'unread=yes', `q=${'x'.repeat(129)}`, 'sort=createdAt', 'other=1']) {
      expectError(await call(server, supervisor, 'GET', `/v1/conversations/inbox?${query}`), 400, 'VALIDATION_ERROR', query);
    }
    const both = expectError(await call(server, supervisor, 'GET', `/v1/conversations/inbox?assigned=me&assignedUserId=${agent.userSimplyId}`), 400, 'VALIDATION_ERROR');
    expect(both.details?.[0]?.field).toBe('assignedUserId');
  });

  it('keeps a read position per person: unread until read, again after new activity, and back to a message on request', async () => {
    const t = tag();
    const c = await startConversation(server, key(), { subject: t });
    const m1 = await post(server, key(), c.id, { content: 'one', authorType: 'END_USER' });
    const m2 = await post(server, key(), c.id, { content: 'two', authorType: 'END_USER' });
    const unread = async (who: Caller) => (await list(who, `q=${t}`))[0].unread;
    expect(await unread(agent)).toBe(true);
    expect(await ids(agent, `q=${t}&unread=true`)).toEqual([c.id]);
    expect(await ids(agent, `q=${t}&unread=false`)).toEqual([]);

    const read = expectOk(await call(server, agent, 'POST', `/v1/conversations/inbox/${c.id}/read`));
    expect(read).toEqual({ conversationSimplyId: c.id, lastReadMessageSimplyId: m2.id, readThroughAt: m2.createdAt, unreadCount: 0 });
    expect(await unread(agent)).toBe(false);
    expect(await unread(colleague)).toBe(true);

    const m3 = await post(server, key(), c.id, { content: 'three', authorType: 'END_USER' });
    expect(await unread(agent)).toBe(true);
    const back = expectOk(await call(server, agent, 'POST', `/v1/conversations/inbox/${c.id}/read`, { messageSimplyId: m1.id }));
    expect(back).toMatchObject({ lastReadMessageSimplyId: m1.id, unreadCount: 2 });
    // whoever posts has read up to their own message
    expectOk(await call(server, agent, 'POST', `/v1/conversations/inbox/${c.id}/messages`, { content: 'our answer' }), 201);
    expect(await unread(agent)).toBe(false);
    expect(expectOk(await call(server, agent, 'GET', `/v1/conversations/inbox/${c.id}`)).readState.unreadCount).toBe(0);
    expect(m3.id).toBeTruthy();

    expectError(await call(server, agent, 'POST', `/v1/conversations/inbox/${c.id}/read`, { messageSimplyId: 'cvm-2222-3333-4444' }), 404, 'NOT_FOUND');
    const other = await startConversation(server, key());
    const foreignMessage = await post(server, key(), other.id, { content: 'elsewhere' });
    expectError(await call(server, agent, 'POST', `/v1/conversations/inbox/${c.id}/read`, { messageSimplyId: foreignMessage.id }), 404, 'NOT_FOUND');
    const bad = expectError(await call(server, agent, 'POST', `/v1/conversations/inbox/${c.id}/read`, { messageSimplyId: 12 }), 400, 'VALIDATION_ERROR');
    expect(bad.details?.[0]?.field).toBe('messageSimplyId');
  });

  it('sums the caller’s inbox: by status, own, unassigned and others’, with unread; snoozed apart', async () => {
    const fresh = await memberWith(server, team, [FEATURES.inbox]);
    const summary = async (who: Caller) => expectOk(await call(server, who, 'GET', '/v1/conversations/inbox/unread-summary'));
    const before = await summary(fresh);
    const mine = await startConversation(server, key());
    await assign(mine.id, fresh.userSimplyId);
    await post(server, key(), mine.id, { content: 'for you', authorType: 'END_USER' });
    const open = await startConversation(server, key());
    const snoozed = await startConversation(server, key());
    expectOk(await call(server, key(), 'PUT', `/v1/conversations/inbox/${snoozed.id}/snooze`, { until: new Date(Date.now() + 3_600_000).toISOString() }));
    const pending = await startConversation(server, key());
    expectOk(await call(server, key(), 'PUT', `/v1/conversations/${pending.id}`, { status: 'PENDING', assignedUserId: colleague.userSimplyId }));
    const after = await summary(fresh);
    expect(after.mine).toEqual({ total: before.mine.total + 1, unread: before.mine.unread + 1 });
    expect(after.unassigned.total).toBe(before.unassigned.total + 1);
    expect(after.assignedToOthers).toEqual({ total: 0, unread: 0 });
    expect(after.snoozed).toBe(before.snoozed + 1);
    expect(after.total).toBe(before.total + 2);
    expect(after.unread).toBe(before.unread + 1);
    expect(after.byStatus.map((s: any) => s.status)).toEqual(['OPEN', 'PENDING', 'RESOLVED', 'CLOSED', 'ESCALATED']);
    expect(after.byStatus.find((s: any) => s.status === 'PENDING')).toEqual(before.byStatus.find((s: any) => s.status === 'PENDING'));
    const wide = await summary(supervisor);
    expect(wide.assignedToOthers.total).toBeGreaterThanOrEqual(2);
    expectOk(await call(server, fresh, 'POST', `/v1/conversations/inbox/${mine.id}/read`));
    expect((await summary(fresh)).mine.unread).toBe(before.mine.unread);
    expect(open.id).toBeTruthy();
  });

  it('shows one conversation with its newest messages, read state, followers, assignee, record and merges', async () => {
    const contacts = await createContacts(server, team);
    const email = visitorEmail('detail');
    const record = await createRecord(server, team.apiKey, contacts.id, { [contacts.fields.name!]: 'Detail Person', [contacts.fields.email!]: email });
    const c = await startConversation(server, key(), { visitorEmail: email });
    expect(c.dataRecordSimplyId).toBe(record.id);
    const messages = [];
    for (let i = 0; i < 5; i++) messages.push(await post(server, key(), c.id, { content: `m${i}`, authorType: i % 2 ? 'AGENT' : 'END_USER' }));
    await assign(c.id, agent.userSimplyId);
    expectOk(await call(server, agent, 'POST', `/v1/conversations/inbox/${c.id}/follow`));
    expectOk(await call(server, agent, 'POST', `/v1/conversations/inbox/${c.id}/read`, { messageSimplyId: messages[2].id }));

    const detail = expectOk(await call(server, agent, 'GET', `/v1/conversations/inbox/${c.id}?messageLimit=2`));
    expect(detail.messages.map((m: any) => m.id)).toEqual([messages[3].id, messages[4].id]);
    expect(detail.hasOlderMessages).toBe(true);
    expect(detail.conversation).toMatchObject({ id: c.id, unread: true, following: true, assignedUserId: agent.userSimplyId });
    expect(detail.readState).toMatchObject({ lastReadMessageSimplyId: messages[2].id, unreadCount: 2 });
    expect(detail.followers.map((f: any) => f.userSimplyId)).toEqual([agent.userSimplyId]);
    expect(detail.assignedUser.userSimplyId).toBe(agent.userSimplyId);
    // the agent's role reads no records: only the record's id
    expect(detail.linkedRecord).toEqual({ dataRecordSimplyId: record.id, linkSource: 'EMAIL', readable: false, dataCollectionSimplyId: null, name: null, isArchived: null });
    expect(detail.merges).toEqual([]);
    const older = expectOk(await call(server, agent, 'GET', `/v1/conversations/inbox/${c.id}?messageLimit=2&beforeMessageSimplyId=${messages[3].id}`));
    expect(older.messages.map((m: any) => m.id)).toEqual([messages[1].id, messages[2].id]);
    const whole = expectOk(await call(server, adminOf(team), 'GET', `/v1/conversations/inbox/${c.id}`));
    expect(whole.messages).toHaveLength(5);
    expect(whole.hasOlderMessages).toBe(false);
    expect(whole.linkedRecord).toMatchObject({ readable: true, name: 'Detail Person', dataCollectionSimplyId: contacts.id, isArchived: false });
    expect(whole.conversation.following).toBe(false);

    for (const query of ['messageLimit=0', 'messageLimit=101', 'beforeMessageSimplyId=nope']) {
      expectError(await call(server, agent, 'GET', `/v1/conversations/inbox/${c.id}?${query}`), 400, 'VALIDATION_ERROR', query);
    }
    expectError(await call(server, agent, 'GET', `/v1/conversations/inbox/${c.id}?beforeMessageSimplyId=cvm-2222-3333-4444`), 404, 'NOT_FOUND');
    // following: idempotent both ways
    expect(expectOk(await call(server, agent, 'POST', `/v1/conversations/inbox/${c.id}/follow`))).toEqual({ conversationSimplyId: c.id, following: true });
    expect(expectOk(await call(server, agent, 'DELETE', `/v1/conversations/inbox/${c.id}/follow`))).toEqual({ conversationSimplyId: c.id, following: false });
    expect(expectOk(await call(server, agent, 'DELETE', `/v1/conversations/inbox/${c.id}/follow`))).toEqual({ conversationSimplyId: c.id, following: false });
    expect(expectOk(await call(server, agent, 'GET', `/v1/conversations/inbox/${c.id}`)).followers).toEqual([]);
  });

  it('lists a record’s conversations and a contact’s related ones within the caller’s reach', async () => {
    const contacts = await createContacts(server, team, 'Related');
    const email = visitorEmail('related');
    const record = await createRecord(server, team.apiKey, contacts.id, { [contacts.fields.name!]: 'Related Person', [contacts.fields.email!]: email });
    const first = await startConversation(server, key(), { visitorEmail: email });
    const second = await startConversation(server, key(), { dataRecordSimplyId: record.id, visitorEmail: visitorEmail() });
    const third = await startConversation(server, key(), { visitorEmail: email.toUpperCase() });
    const byPhone = await startConversation(server, key(), { visitorEmail: visitorEmail(), visitorPhone: '+442079460000' });
    const samePhone = await startConversation(server, key(), { visitorEmail: visitorEmail(), visitorPhone: '+44 20 7946 0000' });
    await assign(third.id, colleague.userSimplyId);

    const byRecord = (who: Caller) => call(server, who, 'GET', `/v1/conversations/inbox/by-record/${record.id}`).then((r) => expectOk(r).map((c: any) => c.id));
    expect((await byRecord(adminOf(team))).sort()).toEqual([first.id, second.id, third.id].sort());
    // the agent's role reads no records
    expectError(await call(server, agent, 'GET', `/v1/conversations/inbox/by-record/${record.id}`), 404, 'NOT_FOUND');
    const readsContacts = await memberWith(server, team, [FEATURES.inbox], [{ dataCollectionSimplyId: contacts.id, level: 'READ' }]);
    expect((await byRecord(readsContacts)).sort()).toEqual([first.id, second.id].sort());

    const related = (who: Caller, id: string) => call(server, who, 'GET', `/v1/conversations/inbox/${id}/related`).then((r) => expectOk(r).map((c: any) => c.id));
    expect((await related(supervisor, first.id)).sort()).toEqual([second.id, third.id].sort());
    expect(await related(agent, first.id)).toEqual([second.id]);
    expect(await related(supervisor, byPhone.id)).toEqual([samePhone.id]);
    const alone = await startConversation(server, key(), { visitorEmail: null });
    expect(await related(supervisor, alone.id)).toEqual([]);
  });

  it('takes over (assignee the caller, the AI stops), hands to the AI (assignee kept), and posts from the inbox', async () => {
    const c = await startConversation(server, key());
    const handed = expectOk(await call(server, agent, 'PUT', `/v1/conversations/inbox/${c.id}/assign-ai`));
    expect(handed).toMatchObject({ aiHandling: true, assignedUserId: null });
    const taken = expectOk(await call(server, agent, 'PUT', `/v1/conversations/inbox/${c.id}/takeover`));
    expect(taken).toMatchObject({ aiHandling: false, assignedUserId: agent.userSimplyId });
    expect(expectOk(await call(server, agent, 'PUT', `/v1/conversations/inbox/${c.id}/assign-ai`))).toMatchObject({ aiHandling: true, assignedUserId: agent.userSimplyId });
    // now the agent's: the colleague no longer sees it, the supervisor takes it over
    expectError(await call(server, colleague, 'PUT', `/v1/conversations/inbox/${c.id}/takeover`), 404, 'NOT_FOUND');
    expect(expectOk(await call(server, supervisor, 'PUT', `/v1/conversations/inbox/${c.id}/takeover`))).toMatchObject({ assignedUserId: supervisor.userSimplyId, aiHandling: false });
    const note = expectOk(await call(server, supervisor, 'POST', `/v1/conversations/inbox/${c.id}/messages`, { content: 'internal', channel: 'INTERNAL_NOTE' }), 201);
    expect(note).toMatchObject({ isInternal: true, deliveryStatus: null, authorUserId: supervisor.userSimplyId });
    expectError(await call(server, supervisor, 'POST', `/v1/conversations/inbox/${c.id}/messages`, {}), 400, 'VALIDATION_ERROR');
  });
});
