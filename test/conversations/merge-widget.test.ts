// Merging a chat widget visitor's conversation (docs/api/conversations.md "Merging", "The visitor's
// side"), seen through the visitor's own API: their widget lists the conversation it went into and
// reads the whole merged thread there (never the team's notes), the agents' replies in it reach
// them live, they write on in it; the unmerge gives them back exactly their own conversation, also
// after the target was merged on; and a target with a visitor of its own keeps that visitor.
import { describe, expect, it } from 'vitest';
import { expectError, expectOk } from '../support/expect-envelope.ts';
import { serverGraphqlWsClient } from '../support/realtime.ts';
import { untilWith } from '../support/until.ts';
import { useServer } from '../support/use-server.ts';
import { call, keyOf, post, startConversation } from './conversation-fixtures.ts';
import { asVisitor, createWidget, visitor, visitorMessages, visitorStarts, VISITOR_MESSAGE } from './widget-fixtures.ts';

const until = untilWith({ timeoutMs: 10_000, everyMs: 20 });

describe('merging a widget visitor’s conversation', () => {
  const { server, teams: [team] } = useServer({ teams: 1 });
  const key = () => keyOf(team);
  const merge = (id: string, body: object) => call(server, key(), 'POST', `/v1/conversations/inbox/${id}/merge`, body);
  const texts = async (token: string, conversation: string) => (await visitorMessages(server, token, conversation)).map((m) => m.text);

  async function visitorConversations(token: string): Promise<string[]> {
    const { data, errors } = await asVisitor(server, token, `{ widgetVisitorConversations { conversationSimplyId } }`);
    if (errors?.length) throw new Error(JSON.stringify(errors));
    return data.widgetVisitorConversations.map((c: any) => c.conversationSimplyId);
  }

  async function visitorPosts(token: string, conversation: string, content: string) {
    return asVisitor(server, token, `mutation P($id: String!, $input: WidgetVisitorMessageInput!) { postWidgetMessage(conversationSimplyId: $id, input: $input) { ${VISITOR_MESSAGE} } }`, {
      id: conversation,
      input: { content },
    });
  }

  /** a visitor's widget conversation and the same person's email conversation with the team's reply and a note */
  async function scene() {
    const widget = await createWidget(server, team);
    const v = await visitor(server, widget.id);
    const chat = await visitorStarts(server, v.token, 'Hi from the widget');
    const email = await startConversation(server, key(), { subject: 'Same person by mail' });
    await post(server, key(), email.id, { content: 'Mail from the person', authorType: 'END_USER', channel: 'EMAIL' });
    await post(server, key(), email.id, { content: 'Team-only note', channel: 'INTERNAL_NOTE' });
    await post(server, key(), email.id, { content: 'Our chat answer' });
    return { widget, v, chat, email };
  }

  it('keeps the visitor on the merged thread: listed, read, written in and heard live in the conversation it went into', async () => {
    const { widget, v, chat, email } = await scene();
    expectOk(await merge(chat, { into: email.id }));

    // the widget lists the conversation it went into instead of the merged one
    expect(await visitorConversations(v.token)).toEqual([email.id]);
    expect(await texts(v.token, email.id)).toEqual(['Hi from the widget', 'Mail from the person', 'Our chat answer']);
    // the agents see the widget the target now talks to
    const table = expectOk(await call(server, key(), 'GET', `/v1/conversations/${email.id}`));
    expect(table).toMatchObject({ widgetSimplyId: widget.id, isSimulated: false });
    const detail = expectOk(await call(server, key(), 'GET', `/v1/conversations/inbox/${email.id}`));
    expect(detail.widget).toMatchObject({ widgetSimplyId: widget.id, name: widget.name, visitorSimplyId: v.visitorSimplyId, visitorIsVerified: false, isSimulated: false });

    // the agent answers in the surviving conversation and the visitor hears it live, never the note
    const heard: any[] = [];
    const client = serverGraphqlWsClient(server, { connectionParams: { authorization: `Bearer ${v.token}` } });
    client.subscribe<{ widgetVisitorEvents: any }>(
      { query: `subscription($id: String!) { widgetVisitorEvents(conversationSimplyId: $id) { type status message { ${VISITOR_MESSAGE} } } }`, variables: { id: email.id } },
      { next: (r) => heard.push(r.data?.widgetVisitorEvents ?? r), error: (e) => heard.push({ error: e }), complete: () => {} },
    );
    try {
      let probes = 0;
      await until('the subscription to listen', async () => {
        await call(server, key(), 'PUT', `/v1/conversations/${email.id}`, { priority: probes++ % 2 ? 'HIGH' : 'LOW' });
        return heard.length > 0;
      });
      await post(server, key(), email.id, { content: 'Second note', channel: 'INTERNAL_NOTE' });
      await post(server, key(), email.id, { content: 'Answer after the merge' });
      await until('the answer', () => heard.some((e) => e.message?.text === 'Answer after the merge'));
      expect(JSON.stringify(heard)).not.toContain('Second note');
    } finally {
      await client.dispose();
    }

    // the visitor writes on in it; their old conversation takes nothing while merged
    const posted = await visitorPosts(v.token, email.id, 'Thanks!');
    expect(posted.errors).toBeUndefined();
    expect(posted.data.postWidgetMessage).toMatchObject({ author: 'VISITOR', text: 'Thanks!', conversationSimplyId: email.id });
    expect((await visitorPosts(v.token, chat, 'Into the old one')).errors?.[0]?.extensions?.code).toBe('CONVERSATION_MERGED');
  });

  it('gives the visitor back exactly their own conversation on unmerge', async () => {
    const { v, chat, email } = await scene();
    expectOk(await merge(chat, { into: email.id }));
    expect(await visitorConversations(v.token)).toEqual([email.id]);

    const undone = expectOk(await merge(chat, { unmerge: true }));
    expect(undone.merge.unmergedAt).not.toBeNull();
    expect(await visitorConversations(v.token)).toEqual([chat]);
    expect(await texts(v.token, chat)).toEqual(['Hi from the widget']);
    // the other conversation is out of their reach again, as any conversation not theirs
    const read = await asVisitor(server, v.token, `query M($id: String!) { widgetVisitorMessages(conversationSimplyId: $id) { text } }`, { id: email.id });
    expect(read.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    expect((await visitorPosts(v.token, email.id, 'Still here?')).errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    expect(expectOk(await call(server, key(), 'GET', `/v1/conversations/${email.id}`))).toMatchObject({ widgetSimplyId: null, isSimulated: false });
    // and they write in their own again
    expect((await visitorPosts(v.token, chat, 'Back in my chat')).errors).toBeUndefined();
  });

  it('follows the visitor along a chain of merges and takes it all back when their conversation is unmerged', async () => {
    const { v, chat, email } = await scene();
    const third = await startConversation(server, key(), { subject: 'Third' });
    await post(server, key(), third.id, { content: 'Third thread' });
    expectOk(await merge(chat, { into: email.id }));
    expectOk(await merge(email.id, { into: third.id }));
    expect(await visitorConversations(v.token)).toEqual([third.id]);
    expect(await texts(v.token, third.id)).toEqual(['Hi from the widget', 'Mail from the person', 'Our chat answer', 'Third thread']);

    // unmerging the visitor's conversation: neither later conversation is theirs any more
    expectOk(await merge(chat, { unmerge: true }));
    expect(await visitorConversations(v.token)).toEqual([chat]);
    for (const id of [email.id, third.id]) {
      const read = await asVisitor(server, v.token, `query M($id: String!) { widgetVisitorMessages(conversationSimplyId: $id) { text } }`, { id });
      expect(read.errors?.[0]?.extensions?.code, id).toBe('NOT_FOUND');
    }
    // the merge of the other two stands and unmerges cleanly
    expectOk(await merge(email.id, { unmerge: true }));
  });

  it('keeps a target’s own visitor: two visitors’ conversations merged leave the target with its visitor', async () => {
    const widget = await createWidget(server, team);
    const first = await visitor(server, widget.id);
    const second = await visitor(server, widget.id);
    const a = await visitorStarts(server, first.token, 'First visitor');
    const b = await visitorStarts(server, second.token, 'Second visitor');
    expectOk(await merge(a, { into: b }));
    expect(await visitorConversations(second.token)).toEqual([b]);
    expect(await texts(second.token, b)).toEqual(['First visitor', 'Second visitor']);
    // the first visitor keeps their own conversation as it was
    expect(await visitorConversations(first.token)).toEqual([a]);
    expect(await texts(first.token, a)).toEqual(['First visitor']);
    expectOk(await merge(a, { unmerge: true }));
    expect(await visitorConversations(second.token)).toEqual([b]);
    expect(await texts(second.token, b)).toEqual(['Second visitor']);
  });

  it('refuses a merge outside the caller’s reach without touching the visitor', async () => {
    const { v, chat } = await scene();
    expectError(await merge(chat, { into: 'cnv-2222-2222-2222' }), 404, 'NOT_FOUND');
    expect(await visitorConversations(v.token)).toEqual([chat]);
  });
});

describe('the agents’ view of widget conversations', () => {
  const { server, teams: [team] } = useServer({ teams: 1 });
  const key = () => keyOf(team);

  it('says which widget a conversation came through and whether it is a preview, in the table, the inbox detail and GraphQL', async () => {
    const widget = await createWidget(server, team);
    const v = await visitor(server, widget.id);
    const real = await visitorStarts(server, v.token, 'A real question');
    const preview = expectOk(await call(server, key(), 'POST', `/v1/conversations/widgets/${widget.id}/simulate`, { message: 'Just testing' }), 201);
    const simulated = preview.conversation.conversationSimplyId;
    const plain = await startConversation(server, key());

    expect(expectOk(await call(server, key(), 'GET', `/v1/conversations/${real}`))).toMatchObject({ widgetSimplyId: widget.id, isSimulated: false });
    expect(expectOk(await call(server, key(), 'GET', `/v1/conversations/${simulated}`))).toMatchObject({ widgetSimplyId: widget.id, isSimulated: true });
    expect(expectOk(await call(server, key(), 'GET', `/v1/conversations/${plain.id}`))).toMatchObject({ widgetSimplyId: null, isSimulated: false });
    const listed = new Map((expectOk(await call(server, key(), 'GET', '/v1/conversations?limit=100')) as any[]).map((c) => [c.id, c]));
    expect(listed.get(simulated)).toMatchObject({ widgetSimplyId: widget.id, isSimulated: true });

    const detail = expectOk(await call(server, key(), 'GET', `/v1/conversations/inbox/${simulated}`));
    expect(detail.widget).toEqual({ widgetSimplyId: widget.id, name: widget.name, visitorSimplyId: preview.visitor.visitorSimplyId, visitorIsVerified: false, isSimulated: true });
    expect(expectOk(await call(server, key(), 'GET', `/v1/conversations/inbox/${plain.id}`)).widget).toBeNull();

    const { data } = await server.graphql(
      `query I($id: String!) { inboxConversation(conversationSimplyId: $id) { conversation { widgetSimplyId isSimulated } widget { name isSimulated } } }`,
      { id: real },
      { token: team.apiKey },
    );
    expect(data.inboxConversation).toEqual({ conversation: { widgetSimplyId: widget.id, isSimulated: false }, widget: { name: widget.name, isSimulated: false } });
  });
});
