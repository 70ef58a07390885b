// The conversation table of Document 2 §4.3 over REST and GraphQL: create with its defaults and the
// record it is tied to (named, or matched by the visitor's email or phone), list (filters, most
// recent message first, paging, totals), get, the PUT status table, messages oldest first, posting
// per channel and content type, the communication history an agent's message writes (never an
// internal note's), the record's conversations, and bad input answered 400 naming the field.
import { beforeAll, describe, expect, it } from 'vitest';
import { operation } from '../../src/app/graphql/fragments.ts';
import { CONVERSATION, CONVERSATION_MESSAGE } from '../../src/modules/conversations/conversations.fragments.ts';
import { expectError, expectOk, gqlData } from '../support/expect-envelope.ts';
import { addMember, createApiKey } from '../support/fixtures.ts';
import { createRecord } from '../support/record-fixtures.ts';
import { useServer } from '../support/use-server.ts';
import { adminOf, call, createContacts, FEATURES, keyOf, memberWith, post, startConversation, visitorEmail } from './conversation-fixtures.ts';
import type { CollectionFixture } from '../support/data-fixtures.ts';

describe('the conversation table', () => {
  const { server, teams: [team] } = useServer({ teams: 1 });
  const key = () => keyOf(team);
  let contacts: CollectionFixture;
  let ada: { id: string; email: string };
  let grace: { id: string };

  beforeAll(async () => {
    contacts = await createContacts(server, team);
    const email = visitorEmail('ada');
    ada = { id: (await createRecord(server, team.apiKey, contacts.id, { [contacts.fields.name!]: 'Ada', [contacts.fields.email!]: email })).id, email };
    grace = { id: (await createRecord(server, team.apiKey, contacts.id, { [contacts.fields.name!]: 'Grace', [contacts.fields.phone!]: '+14155552671' })).id };
  });

  const history = async (record: string) => expectOk(await server.request('GET', `/v1/data-records/${record}/communications`, { token: team.apiKey })) as any[];

  describe('create', () => {
    it('starts OPEN, unassigned, with channel CHAT and priority NORMAL unless given', async () => {
      const made = expectOk(await call(server, key(), 'POST', '/v1/conversations', { subject: 'Hello', visitorName: 'Visitor', visitorEmail: 'Someone@Example.org' }), 201);
      expect(made).toMatchObject({ subject: 'Hello', channel: 'CHAT', priority: 'NORMAL', status: 'OPEN', assignedUserId: null, aiHandling: false, resolvedAt: null, visitorName: 'Visitor', messageCount: 0, isSnoozed: false });
      expect(made.id).toMatch(/^cnv-/);
      expect(made.conversationSimplyId).toBe(made.id);
      expect(made.lastMessageAt).toBe(made.createdAt);
      const other = expectOk(await call(server, key(), 'POST', '/v1/conversations', { channel: 'EMAIL', priority: 'URGENT' }), 201);
      expect(other).toMatchObject({ channel: 'EMAIL', priority: 'URGENT', subject: null, visitorEmail: null });
    });

    it('ties the conversation to the named record, or to the person its visitor email or phone names', async () => {
      const given = await startConversation(server, key(), { dataRecordSimplyId: grace.id, visitorEmail: ada.email });
      expect(given).toMatchObject({ dataRecordSimplyId: grace.id, recordLinkSource: 'GIVEN' });
      const byEmail = await startConversation(server, key(), { visitorEmail: ada.email.toUpperCase() });
      expect(byEmail).toMatchObject({ dataRecordSimplyId: ada.id, recordLinkSource: 'EMAIL' });
      const byPhone = await startConversation(server, key(), { visitorEmail: visitorEmail(), visitorPhone: '+1 (415) 555-2671' });
      expect(byPhone).toMatchObject({ dataRecordSimplyId: grace.id, recordLinkSource: 'PHONE', visitorPhone: '+14155552671' });
      const nobody = await startConversation(server, key(), { visitorEmail: visitorEmail() });
      expect(nobody).toMatchObject({ dataRecordSimplyId: null, recordLinkSource: null });
    });

    it('a record the caller may not read, or none, is 404; bad input is 400 naming the field', async () => {
      expectError(await call(server, key(), 'POST', '/v1/conversations', { dataRecordSimplyId: 'ZZZZ-ZZZZ-ZZZZ' }), 404, 'NOT_FOUND');
      // a key without a team role reads no records at all: 403; a role that cannot read the collection: 404
      const noRole = (await createApiKey(server, team, { name: 'no role', featurePermissions: [FEATURES.table] })).key;
      expectError(await call(server, { token: noRole }, 'POST', '/v1/conversations', { dataRecordSimplyId: ada.id }), 403, 'PERMISSION_DENIED');
      const noData = await memberWith(server, team, [FEATURES.table]);
      expectError(await call(server, noData, 'POST', '/v1/conversations', { dataRecordSimplyId: ada.id }), 404, 'NOT_FOUND');
      for (const [body, field] of [
        [{ channel: 'INTERNAL_NOTE' }, 'channel'],
        [{ channel: 'PIGEON' }, 'channel'],
        [{ priority: 'CRITICAL' }, 'priority'],
        [{ visitorEmail: 'not an address' }, 'visitorEmail'],
        [{ visitorPhone: '12345' }, 'visitorPhone'],
        [{ subject: 'x'.repeat(256) }, 'subject'],
        [{ dataRecordSimplyId: 42 }, 'dataRecordSimplyId'],
        [{ unknown: true }, 'unknown'],
      ] as const) {
        const error = expectError(await call(server, key(), 'POST', '/v1/conversations', body), 400, 'VALIDATION_ERROR', JSON.stringify(body));
        expect(error.details?.map((d) => d.field), JSON.stringify(body)).toContain(field);
      }
      expectError(await server.request('POST', '/v1/conversations', { token: team.apiKey, rawBody: '[1]', headers: { 'content-type': 'application/json' } }), 400, 'VALIDATION_ERROR');
    });
  });

  describe('list and get', () => {
    it('orders by most recent message, filters by status, channel and assignee, pages with totals', async () => {
      const { team: own } = { team };
      const first = await startConversation(server, key(), { channel: 'FORM' });
      const second = await startConversation(server, key(), { channel: 'FORM' });
      const third = await startConversation(server, key(), { channel: 'FORM' });
      await post(server, key(), first.id, { content: 'bump', authorType: 'END_USER' });
      const forms = expectOk(await call(server, key(), 'GET', '/v1/conversations?channel=FORM&limit=2'));
      expect(forms.map((c: any) => c.id)).toEqual([first.id, third.id]);
      const page = await call(server, key(), 'GET', '/v1/conversations?channel=FORM&limit=2&offset=2');
      expect(expectOk(page).map((c: any) => c.id)).toEqual([second.id]);
      expect(page.body.meta.pagination).toEqual({ total: 3, limit: 2, offset: 2, hasMore: false });
      const all = await call(server, key(), 'GET', '/v1/conversations');
      expect(all.body.meta.pagination.limit).toBe(25);

      expectOk(await call(server, key(), 'PUT', `/v1/conversations/${second.id}`, { status: 'PENDING', assignedUserId: own.userSimplyId }));
      expect(expectOk(await call(server, key(), 'GET', '/v1/conversations?status=PENDING&channel=FORM')).map((c: any) => c.id)).toEqual([second.id]);
      expect(expectOk(await call(server, key(), 'GET', `/v1/conversations?assignedUserId=${own.userSimplyId}&channel=FORM`)).map((c: any) => c.id)).toEqual([second.id]);
      expect(expectOk(await call(server, key(), 'GET', '/v1/conversations?assignedUserId=null&channel=FORM')).map((c: any) => c.id)).toEqual([first.id, third.id]);
      expect(expectOk(await call(server, key(), 'GET', `/v1/conversations/${second.id}`))).toMatchObject({ id: second.id, status: 'PENDING', assignedUserId: own.userSimplyId });
    });

    it('refuses limits outside 1-100, unknown filters and malformed ids with 400; an unknown conversation is 404', async () => {
      for (const query of ['limit=0', 'limit=101', 'offset=-1', 'status=DONE', 'channel=INTERNAL_NOTE', 'limit=abc']) {
        expectError(await call(server, key(), 'GET', `/v1/conversations?${query}`), 400, 'VALIDATION_ERROR', query);
      }
      expectOk(await call(server, key(), 'GET', '/v1/conversations?limit=100'));
      expectError(await call(server, key(), 'GET', '/v1/conversations/123'), 400, 'VALIDATION_ERROR');
      expectError(await call(server, key(), 'GET', '/v1/conversations/cnv-2222-3333-4444'), 404, 'NOT_FOUND');
    });
  });

  describe('PUT', () => {
    it('allows any status move: RESOLVED stamps resolvedAt, reopening clears it, CLOSED keeps it', async () => {
      const c = await startConversation(server, key());
      const put = (body: object) => call(server, key(), 'PUT', `/v1/conversations/${c.id}`, body).then((r) => expectOk(r));
      const resolved = await put({ status: 'RESOLVED' });
      expect(resolved.resolvedAt).not.toBeNull();
      expect((await put({ status: 'RESOLVED' })).resolvedAt).toBe(resolved.resolvedAt);
      expect((await put({ status: 'CLOSED' })).resolvedAt).toBe(resolved.resolvedAt);
      expect((await put({ status: 'ESCALATED' })).resolvedAt).toBeNull();
      expect((await put({ status: 'CLOSED' })).resolvedAt).toBeNull();
      expect((await put({ status: 'RESOLVED' })).resolvedAt).not.toBeNull();
      expect(await put({ status: 'OPEN', priority: 'LOW', subject: 'Renamed' })).toMatchObject({ status: 'OPEN', resolvedAt: null, priority: 'LOW', subject: 'Renamed' });
      expect((await put({ subject: null })).subject).toBeNull();
    });

    it('assigns to an active member who can work conversations, or to nobody with null', async () => {
      const c = await startConversation(server, key());
      const agent = await memberWith(server, team, [FEATURES.inbox]);
      const bystander = await addMember(server, team);
      const assigned = expectOk(await call(server, key(), 'PUT', `/v1/conversations/${c.id}`, { assignedUserId: agent.userSimplyId }));
      expect(assigned).toMatchObject({ assignedUserId: agent.userSimplyId });
      expect(assigned.assignedAt).not.toBeNull();
      expect(expectOk(await call(server, key(), 'PUT', `/v1/conversations/${c.id}`, { assignedUserId: null }))).toMatchObject({ assignedUserId: null, assignedAt: null });
      for (const userId of [bystander.userSimplyId, 'usr-2222-3333-4444']) {
        const error = expectError(await call(server, key(), 'PUT', `/v1/conversations/${c.id}`, { assignedUserId: userId }), 400, 'VALIDATION_ERROR');
        expect(error.details?.[0]?.field).toBe('assignedUserId');
      }
      for (const [body, field] of [[{}, undefined], [{ status: 'DONE' }, 'status'], [{ assignedUserId: 'someone' }, 'assignedUserId'], [{ channel: 'SMS' }, 'channel']] as const) {
        const error = expectError(await call(server, key(), 'PUT', `/v1/conversations/${c.id}`, body), 400, 'VALIDATION_ERROR', JSON.stringify(body));
        if (field) expect(error.details?.map((d) => d.field)).toContain(field);
      }
    });
  });

  describe('messages', () => {
    it('posts with channel CHAT, contentType TEXT and authorType AGENT by default, and reads the thread oldest first, paged', async () => {
      const c = await startConversation(server, adminOf(team));
      const first = await post(server, adminOf(team), c.id, { content: 'Hello there' });
      expect(first).toMatchObject({ channel: 'CHAT', contentType: 'TEXT', authorType: 'AGENT', authorUserId: team.userSimplyId, isInternal: false, deliveryStatus: 'SENT', conversationSimplyId: c.id });
      expect(first.id).toMatch(/^cvm-/);
      const rest = [];
      for (let i = 0; i < 4; i++) rest.push(await post(server, key(), c.id, { content: `reply ${i}`, authorType: i % 2 ? 'END_USER' : 'AGENT' }));
      const thread = await call(server, key(), 'GET', `/v1/conversations/${c.id}/messages?limit=2&offset=1`);
      expect(expectOk(thread).map((m: any) => m.id)).toEqual([rest[0].id, rest[1].id]);
      expect(thread.body.meta.pagination).toEqual({ total: 5, limit: 2, offset: 1, hasMore: true });
      const whole = await call(server, key(), 'GET', `/v1/conversations/${c.id}/messages`);
      expect(whole.body.meta.pagination.limit).toBe(50);
      const end = rest.at(-1);
      // an API key's agent message has no author person; the visitor's words are nobody's of the team
      expect(rest[2]).toMatchObject({ authorType: 'AGENT', authorUserId: null, deliveryStatus: 'SENT' });
      expect(end).toMatchObject({ authorType: 'END_USER', deliveryStatus: null, authorUserId: null });
      const after = expectOk(await call(server, key(), 'GET', `/v1/conversations/${c.id}`));
      expect(after).toMatchObject({ messageCount: 5, lastMessageAt: end.createdAt, lastMessagePreview: 'reply 3', lastMessageAuthorType: 'END_USER', firstResponseAt: first.createdAt });
      expect(after.lastEndUserMessageAt).toBe(end.createdAt);
      for (const query of ['limit=0', 'limit=101', 'offset=-1']) expectError(await call(server, key(), 'GET', `/v1/conversations/${c.id}/messages?${query}`), 400, 'VALIDATION_ERROR', query);
    });

    it('queues EMAIL for the email channel, refuses channels without a provider, and refuses FORM and bad content with 400', async () => {
      const c = await startConversation(server, key());
      expect(await post(server, key(), c.id, { content: 'By mail', channel: 'EMAIL' })).toMatchObject({ channel: 'EMAIL', deliveryStatus: 'QUEUED' });
      const noAddress = await startConversation(server, key(), { visitorEmail: null });
      expectError(await call(server, key(), 'POST', `/v1/conversations/${noAddress.id}/messages`, { content: 'x', channel: 'EMAIL' }), 409, 'RECIPIENT_ADDRESS_MISSING');
      for (const channel of ['SMS', 'WHATSAPP', 'FACEBOOK']) {
        const error = expectError(await call(server, key(), 'POST', `/v1/conversations/${c.id}/messages`, { content: 'x', channel }), 409, 'CHANNEL_NOT_CONFIGURED', channel);
        expect(error.details?.[0]?.field).toBe('channel');
        // what the visitor sent on that channel is stored: receiving needs no provider
        expect(await post(server, key(), c.id, { content: `from ${channel}`, channel, authorType: 'END_USER' })).toMatchObject({ channel, deliveryStatus: null });
      }
      expectError(await call(server, key(), 'POST', `/v1/conversations/${c.id}/messages`, { content: 'x', channel: 'FORM' }), 400, 'VALIDATION_ERROR');
      for (const [body, field] of [
        [{}, 'content'],
        [{ content: '   ' }, 'content'],
        [{ content: 'x'.repeat(20_001) }, 'content'],
        [{ content: 'x', channel: 'PIGEON' }, 'channel'],
        [{ content: 'x', contentType: 'MARKDOWN' }, 'contentType'],
        [{ content: 'x', authorType: 'AI' }, 'authorType'],
        [{ content: 'x', channel: 'INTERNAL_NOTE', authorType: 'END_USER' }, 'authorType'],
        [{ content: '<script>alert(1)</script>', contentType: 'HTML' }, 'content'],
      ] as const) {
        const error = expectError(await call(server, key(), 'POST', `/v1/conversations/${c.id}/messages`, body), 400, 'VALIDATION_ERROR', JSON.stringify(body).slice(0, 80));
        expect(error.details?.map((d) => d.field)).toContain(field);
      }
    });

    it('sanitizes HTML before storing it', async () => {
      const c = await startConversation(server, key());
      const html = '<p onclick="steal()">Hi <b>there</b> <a href="javascript:alert(1)">x</a> <a href="https://example.org">ok</a><script>alert(1)</script><img src="https://t.example/p.gif"></p>';
      const message = await post(server, key(), c.id, { content: html, contentType: 'HTML' });
      expect(message.contentType).toBe('HTML');
      expect(message.content).toContain('<b>there</b>');
      expect(message.content).toContain('href="https://example.org"');
      for (const gone of ['onclick', 'javascript:', '<script', '<img']) expect(message.content).not.toContain(gone);
      expect(expectOk(await call(server, key(), 'GET', `/v1/conversations/${c.id}`)).lastMessagePreview).toBe('Hi there x ok');
    });

    it("writes an agent's message to a record's communication history; an internal note and the visitor's words never", async () => {
      const c = await startConversation(server, key(), { dataRecordSimplyId: ada.id, visitorEmail: ada.email });
      const before = (await history(ada.id)).length;
      await post(server, key(), c.id, { content: 'internal: check the invoice', channel: 'INTERNAL_NOTE' });
      await post(server, key(), c.id, { content: 'what the visitor wrote', authorType: 'END_USER' });
      expect(await history(ada.id)).toHaveLength(before);
      await post(server, adminOf(team), c.id, { content: 'Our reply in chat' });
      await post(server, key(), c.id, { content: 'Our reply by mail', channel: 'EMAIL' });
      const rows = (await history(ada.id)).slice(0, 2);
      expect(rows).toHaveLength(2);
      expect(rows.map((r) => [r.channelId, r.currentStateId, r.sourceType, r.sourceSimplyId])).toEqual([
        ['EMAIL', 'QUEUED', 'CONVERSATION', c.id],
        ['CHAT', 'SENT', 'CONVERSATION', c.id],
      ]);
      const snapshot = expectOk(await server.request('GET', `/v1/data-records/${ada.id}/communications/protected`, { token: team.userToken, teamId: team.teamSimplyId }));
      const texts = snapshot.map((r: any) => r.renderedText);
      expect(texts).toContain('Our reply by mail');
      expect(texts.some((t: string | null) => t?.includes('internal'))).toBe(false);
    });
  });

  describe("a record's conversations", () => {
    it('lists those tied to a record the caller may read; an unreadable or missing record is 404', async () => {
      const tied = await startConversation(server, key(), { dataRecordSimplyId: grace.id });
      const listed = expectOk(await call(server, key(), 'GET', `/v1/data-records/${grace.id}/conversations`));
      expect(listed.map((c: any) => c.id)).toContain(tied.id);
      expect(listed.every((c: any) => c.dataRecordSimplyId === grace.id)).toBe(true);
      const noRole = (await createApiKey(server, team, { name: 'no role', featurePermissions: [FEATURES.table] })).key;
      expectError(await call(server, { token: noRole }, 'GET', `/v1/data-records/${grace.id}/conversations`), 403, 'PERMISSION_DENIED');
      const noRecords = await memberWith(server, team, [FEATURES.table]);
      expectError(await call(server, noRecords, 'GET', `/v1/data-records/${grace.id}/conversations`), 404, 'NOT_FOUND');
      const other = await createContacts(server, team, 'Others');
      const readsOther = await memberWith(server, team, [FEATURES.table], [{ dataCollectionSimplyId: other.id, level: 'READ' }]);
      expectError(await call(server, readsOther, 'GET', `/v1/data-records/${grace.id}/conversations`), 404, 'NOT_FOUND');
      expectError(await call(server, key(), 'GET', '/v1/data-records/ZZZZ-ZZZZ-ZZZZ/conversations'), 404, 'NOT_FOUND');
      expectError(await call(server, key(), 'GET', '/v1/data-records/nope/conversations'), 400, 'VALIDATION_ERROR');
    });
  });

  it('answers the same over GraphQL', async () => {
    const gql = <T = any>(query: string, variables: Record<string, unknown>) => server.graphql<T>(query, variables, { token: team.apiKey }).then((r) => gqlData(r));
    const made = (await gql(operation`mutation($input: CreateConversationInput!) { createConversation(input: $input) { ${CONVERSATION} } }`, { input: { subject: 'Over GraphQL' } })).createConversation;
    expect(made).toMatchObject({ subject: 'Over GraphQL', status: 'OPEN', channel: 'CHAT', priority: 'NORMAL' });
    const message = (await gql(operation`mutation($id: String!, $input: PostConversationMessageInput!) { createConversationMessage(conversationSimplyId: $id, input: $input) { ${CONVERSATION_MESSAGE} } }`, { id: made.id, input: { content: 'hi' } })).createConversationMessage;
    const thread = (await gql(operation`query($id: String!) { conversationMessages(conversationSimplyId: $id) { nodes { ${CONVERSATION_MESSAGE} } pagination { total } } }`, { id: made.id })).conversationMessages;
    expect(thread).toEqual({ nodes: [message], pagination: { total: 1 } });
    const rest = expectOk(await call(server, key(), 'GET', `/v1/conversations/${made.id}`));
    expect((await gql(operation`query($id: String!) { conversation(conversationSimplyId: $id) { ${CONVERSATION} } }`, { id: made.id })).conversation).toEqual(rest);
  });
});
