// The conversationEvents subscription over a real graphql-ws client, on a second instance of the
// same database (events travel by PostgreSQL NOTIFY): new messages and changes reach team-wide
// subscribers, a conversation's subscribers, and inbox-only subscribers for their own and the
// unassigned conversations only (an event under both of their keys once); another team's never;
// who may subscribe follows the REST rules.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operation } from '../../src/app/graphql/fragments.ts';
import { CONVERSATION_EVENT } from '../../src/modules/conversations/conversations.fragments.ts';
import { createTeam, type TeamFixture } from '../support/fixtures.ts';
import { serverGraphqlWsClient, type GraphQLErrorShape } from '../support/realtime.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { untilWith } from '../support/until.ts';
import { call, FEATURES, keyOf, memberWith, post, startConversation, type Caller } from './conversation-fixtures.ts';

const until = untilWith({ timeoutMs: 10_000, everyMs: 20 });
const SUBSCRIPTION = operation`subscription($id: String) { conversationEvents(conversationSimplyId: $id) { ${CONVERSATION_EVENT} } }`;

let a: TestServer;
let b: TestServer;
let team: TeamFixture;
let other: TeamFixture;
const open: Subscriber[] = [];

beforeAll(async () => {
  a = await startTestServer();
  b = await startTestServer({ dataDir: a.dataDir });
  [team, other] = await Promise.all([createTeam(a), createTeam(a)]);
});
afterAll(async () => {
  await Promise.all(open.map((s) => s.close()));
  await b?.close();
  await a?.close();
});

interface Subscriber {
  state: { events: any[]; errors: unknown[]; done: boolean };
  close(): void;
  about(id: string): any[];
}

/** A graphql-ws client on instance B subscribed as `who` (to one conversation with `conversation`), recording what it hears. */
function subscribe(who: Caller, conversation?: string): Subscriber {
  const state: Subscriber['state'] = { events: [], errors: [], done: false };
  const client = serverGraphqlWsClient(b, { connectionParams: { authorization: `Bearer ${who.token}`, ...(who.teamId ? { 'X-Team-Id': who.teamId } : {}) } });
  client.subscribe<{ conversationEvents: any }>(
    { query: SUBSCRIPTION, variables: { id: conversation ?? null } },
    {
      next: (result) => {
        if (result.errors) state.errors.push(...result.errors);
        if (result.data?.conversationEvents) state.events.push(result.data.conversationEvents);
      },
      error: (error) => {
        state.errors.push(...(Array.isArray(error) ? error : [error]));
        state.done = true;
      },
      complete: () => (state.done = true),
    },
  );
  const sub: Subscriber = { state, close: () => void client.dispose(), about: (id) => state.events.filter((e) => e.conversationSimplyId === id) };
  open.push(sub);
  return sub;
}

/** The protocol does not say when a subscription is live: bump `conversation` (through A) until `sub` heard of it. */
async function warmUp(sub: Subscriber, conversation: string): Promise<void> {
  await until('the subscription to go live', async () => {
    if (sub.state.errors.length) throw new Error(JSON.stringify(sub.state.errors));
    if (sub.about(conversation).length > 0) return true;
    await post(a, keyOf(team), conversation, { content: 'warm-up', channel: 'INTERNAL_NOTE' });
    return until('an event', () => sub.about(conversation).length > 0, 500).catch(() => false);
  });
}

describe('the conversationEvents subscription', () => {
  let agent: Caller & { userSimplyId: string };
  let colleague: Caller & { userSimplyId: string };
  let supervisor: Caller & { userSimplyId: string };

  beforeAll(async () => {
    [agent, colleague, supervisor] = await Promise.all([
      memberWith(a, team, [FEATURES.inbox]),
      memberWith(a, team, [FEATURES.inbox]),
      memberWith(a, team, [FEATURES.inboxAll]),
    ]);
  });

  it('delivers a new message, with the message and the conversation as they are now, to team-wide subscribers on another instance', async () => {
    const warm = await startConversation(a, keyOf(team));
    const sub = subscribe(supervisor);
    const key = subscribe(keyOf(team));
    await warmUp(sub, warm.id);
    await warmUp(key, warm.id);
    const c = await startConversation(a, keyOf(team), { subject: 'Live', visitorName: 'Ada' });
    const message = await post(a, keyOf(team), c.id, { content: 'Is anyone there?', authorType: 'END_USER' });
    const heard = await until('the new message', () => sub.about(c.id).find((e) => e.type === 'MESSAGE_CREATED'));
    expect(heard).toMatchObject({
      type: 'MESSAGE_CREATED',
      conversationSimplyId: c.id,
      messageSimplyId: message.id,
      actorKind: 'API_KEY',
      message: { id: message.id, content: 'Is anyone there?', authorType: 'END_USER', channel: 'CHAT' },
      conversation: { id: c.id, subject: 'Live', messageCount: 1, lastMessagePreview: 'Is anyone there?' },
    });
    expect(sub.about(c.id).map((e) => e.type)).toContain('CONVERSATION_CREATED');
    await until('the key’s subscription too', () => key.about(c.id).find((e) => e.type === 'MESSAGE_CREATED'));
    expectOk(await call(a, keyOf(team), 'PUT', `/v1/conversations/${c.id}`, { status: 'PENDING' }));
    const changed = await until('the change', () => sub.about(c.id).find((e) => e.type === 'CONVERSATION_UPDATED'));
    expect(changed.conversation.status).toBe('PENDING');
    expect(sub.state.errors).toEqual([]);
  });

  it("a conversation's subscribers hear only it", async () => {
    const c = await startConversation(a, keyOf(team));
    const elsewhere = await startConversation(a, keyOf(team));
    const sub = subscribe(supervisor, c.id);
    await warmUp(sub, c.id);
    await post(a, keyOf(team), elsewhere.id, { content: 'not for them' });
    const message = await post(a, keyOf(team), c.id, { content: 'for them' });
    await until('the message', () => sub.state.events.find((e) => e.messageSimplyId === message.id));
    expect(sub.state.events.every((e) => e.conversationSimplyId === c.id)).toBe(true);
  });

  it('an inbox-only subscriber hears its own and the unassigned conversations, each event once, and nothing of a colleague’s', async () => {
    const warm = await startConversation(a, keyOf(team));
    const sub = subscribe(agent);
    await warmUp(sub, warm.id);
    const theirs = await startConversation(a, keyOf(team));
    expectOk(await call(a, keyOf(team), 'PUT', `/v1/conversations/${theirs.id}`, { assignedUserId: colleague.userSimplyId }));
    const unassigned = await startConversation(a, keyOf(team));
    // from unassigned to the agent: published under both of their keys, heard once
    expectOk(await call(a, keyOf(team), 'PUT', `/v1/conversations/${unassigned.id}`, { assignedUserId: agent.userSimplyId }));
    await post(a, keyOf(team), theirs.id, { content: 'private to the colleague' });
    const mine = await post(a, keyOf(team), unassigned.id, { content: 'for the agent' });
    await until('the agent’s message', () => sub.state.events.find((e) => e.messageSimplyId === mine.id));
    const types = sub.about(unassigned.id).map((e) => e.type);
    expect(types.filter((t) => t === 'CONVERSATION_UPDATED')).toHaveLength(1);
    // (two keys deliver independently: the order across them is not fixed)
    expect([...types].sort()).toEqual(['CONVERSATION_CREATED', 'CONVERSATION_UPDATED', 'MESSAGE_CREATED']);
    // the colleague's conversation: only its creation, while it was unassigned
    expect(sub.about(theirs.id).map((e) => e.type)).toEqual(['CONVERSATION_CREATED', 'CONVERSATION_UPDATED']);
    expect(sub.state.errors).toEqual([]);
  });

  it("another team's activity never arrives; its conversation, a colleague's for an inbox-only caller, or no permission is refused", async () => {
    const warm = await startConversation(a, keyOf(team));
    const sub = subscribe(supervisor);
    await warmUp(sub, warm.id);
    const foreign = await startConversation(a, keyOf(other));
    await post(a, keyOf(other), foreign.id, { content: 'theirs' });
    const marker = await post(a, keyOf(team), warm.id, { content: 'ours after theirs' });
    await until('our later message', () => sub.state.events.find((e) => e.messageSimplyId === marker.id));
    expect(sub.about(foreign.id)).toEqual([]);

    const refusal = async (who: Caller, conversation: string | undefined, code: string) => {
      const s = subscribe(who, conversation);
      await until('the refusal', () => s.state.errors.length > 0);
      expect((s.state.errors[0] as GraphQLErrorShape).extensions?.code).toBe(code);
    };
    await refusal(supervisor, foreign.id, 'NOT_FOUND');
    const colleagues = await startConversation(a, keyOf(team));
    expectOk(await call(a, keyOf(team), 'PUT', `/v1/conversations/${colleagues.id}`, { assignedUserId: colleague.userSimplyId }));
    await refusal(agent, colleagues.id, 'NOT_FOUND');
    await refusal(await memberWith(a, team, []), undefined, 'PERMISSION_DENIED');
  });
});

function expectOk(response: { status: number; text: string }) {
  expect(response.status, response.text).toBeLessThan(300);
}
