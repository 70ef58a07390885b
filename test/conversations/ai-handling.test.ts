// The AI answering visitors (docs/api/conversations.md "AI handling"): while a conversation is
// AI-handled each visitor message (chat, email) gets the AI's reply on its channel, once, from a
// pg-boss job; it hands back to people (note, routing) when the visitor asks for a person, when it
// is unsure or lacks the information (a content gap), after its bound of replies in a row, or when
// the model fails. The job's workers are this file's (a database of its own), the model the real
// local model server.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AI_CONFIDENCE_THRESHOLD, MAX_CONSECUTIVE_AI_REPLIES, runAiReply } from '../../src/modules/conversations/ai-reply.service.ts';
import { routeTeam } from '../../src/modules/conversations/routing-assign.ts';
import { expectOk } from '../support/expect-envelope.ts';
import { createTeam, type TeamFixture } from '../support/fixtures.ts';
import { createMigratedDatabase } from '../support/migrated-database.ts';
import { startModelServer, type ModelServer } from '../support/model-server.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { untilWith } from '../support/until.ts';
import { call, keyOf, post, startConversation, visitorEmail } from './conversation-fixtures.ts';

const until = untilWith({ timeoutMs: 20_000, everyMs: 100 });
const INBOX = '/v1/conversations/inbox';

let database: Awaited<ReturnType<typeof createMigratedDatabase>>;
let model: ModelServer;
let server: TestServer;
let team: TeamFixture;
const key = () => keyOf(team);

beforeAll(async () => {
  database = await createMigratedDatabase('conversation_ai');
  model = await startModelServer();
  server = await startTestServer({
    databaseUrl: database.url,
    runJobs: true,
    env: { AI_BASE_URL: model.baseUrl, AI_MODEL: 'test-model', AI_MAX_RETRIES: 0, AI_TIMEOUT_MS: 5000 } as never,
  });
  team = await createTeam(server);
});
afterAll(async () => {
  await server?.close();
  await model?.close();
  await database?.drop();
});
beforeEach(() => model.reset());

const answer = (a: Record<string, unknown>) => ({ text: JSON.stringify({ reply: '', confidence: 0, handBack: false, reason: '', missingInformation: false, ...a }) });
const thread = async (id: string): Promise<any[]> => expectOk(await call(server, key(), 'GET', `/v1/conversations/${id}/messages?limit=100`));
const read = async (id: string) => expectOk(await call(server, key(), 'GET', `/v1/conversations/${id}`));
const q = async (sql: string, values: unknown[] = []) => (await server.app.services.pool.query(sql, values)).rows;
const replyRows = (conversation: string) =>
  q(`SELECT r.state, r.reason, r.confidence FROM "ConversationAiReply" r JOIN "Conversation" c ON c.id = r."conversationId" WHERE c."simplyId" = $1 ORDER BY r.id`, [conversation]);
const settled = (conversation: string, n: number) => until(`${n} settled AI replies`, async () => {
  const rows = await replyRows(conversation);
  return rows.length >= n && rows.every((r) => r.state !== 'PENDING') && rows;
});
async function aiConversation(body: Record<string, unknown> = {}): Promise<any> {
  const c = await startConversation(server, key(), { channel: 'CHAT', ...body });
  expectOk(await call(server, key(), 'PUT', `${INBOX}/${c.id}/assign-ai`));
  return c;
}

describe('the AI answering', () => {
  it('answers each visitor message once, on chat, grounded without the internal notes', async () => {
    const c = await aiConversation();
    await post(server, key(), c.id, { content: 'secret: the visitor is on our watch list', channel: 'INTERNAL_NOTE' });
    model.reply(answer({ reply: 'We open at nine every weekday.', confidence: 0.9, question: 'opening hours' }));
    await post(server, key(), c.id, { content: 'When do you open?', authorType: 'END_USER' });
    await settled(c.id, 1);
    const messages = await thread(c.id);
    expect(messages.at(-1)).toMatchObject({ authorType: 'AI', channel: 'CHAT', content: 'We open at nine every weekday.', deliveryStatus: 'SENT', authorUserId: null });
    const sent = String(model.requests[0]!.body.messages.at(-1)!.content);
    expect(sent).toContain('When do you open?');
    expect(sent).not.toContain('watch list');
    expect(await read(c.id)).toMatchObject({ aiHandling: true, lastMessageAuthorType: 'AI', firstResponseAt: expect.any(String) });

    // the second question sees the first answer
    model.reply(answer({ reply: 'And we close at five.', confidence: 0.8 }));
    await post(server, key(), c.id, { content: 'And when do you close?', authorType: 'END_USER' });
    await settled(c.id, 2);
    expect(String(model.requests[1]!.body.messages.at(-1)!.content)).toContain('We open at nine every weekday.');
    expect((await thread(c.id)).filter((m) => m.authorType === 'AI').map((m) => m.content)).toEqual(['We open at nine every weekday.', 'And we close at five.']);
    expect(await replyRows(c.id)).toEqual([
      { state: 'REPLIED', reason: null, confidence: 0.9 },
      { state: 'REPLIED', reason: null, confidence: 0.8 },
    ]);
  });

  it('writes one reply however many times the job runs at once', async () => {
    const c = await aiConversation();
    // the queued job and two more runs of the same row, all asking the model at once
    model.otherwise({ ...answer({ reply: 'Only once.', confidence: 0.95 }), delayMs: 300 });
    await post(server, key(), c.id, { content: 'Is this answered once?', authorType: 'END_USER' });
    const [row] = await q(`SELECT r.id, r."teamId" FROM "ConversationAiReply" r JOIN "Conversation" c ON c.id = r."conversationId" WHERE c."simplyId" = $1`, [c.id]);
    const job = { teamId: String(row.teamId), aiReplyId: String(row.id) };
    await Promise.all([runAiReply(server.app.services, server.app.services.logger, job, false), runAiReply(server.app.services, server.app.services.logger, job, false)]);
    await settled(c.id, 1);
    expect((await thread(c.id)).filter((m) => m.authorType === 'AI')).toHaveLength(1);
  });

  it('answers the visitor on email like an agent’s reply, and answers a waiting message once handed to the AI', async () => {
    const c = await startConversation(server, key(), { channel: 'EMAIL', visitorEmail: visitorEmail() });
    await post(server, key(), c.id, { content: 'Do you ship to Norway?', authorType: 'END_USER', channel: 'EMAIL' });
    model.reply(answer({ reply: 'Yes, we ship to Norway.', confidence: 0.9 }));
    expectOk(await call(server, key(), 'PUT', `${INBOX}/${c.id}/assign-ai`));
    await settled(c.id, 1);
    const reply = (await thread(c.id)).at(-1);
    expect(reply).toMatchObject({ authorType: 'AI', channel: 'EMAIL', content: 'Yes, we ship to Norway.' });
    expect(['QUEUED', 'SENT']).toContain(reply.deliveryStatus);
    const [mail] = await q(`SELECT e.direction FROM "ConversationEmail" e JOIN "ConversationMessage" m ON m.id = e."messageId" WHERE m."simplyId" = $1`, [reply.id]);
    expect(mail.direction).toBe('OUTBOUND');
  });

  it('routing’s AI rule hands a new conversation to the AI, which answers its first message', async () => {
    const rule = expectOk(await call(server, key(), 'POST', '/v1/conversations/assignment-rules', { name: 'Bot chats', conditions: { subject: { startsWith: 'bot:' } }, actionType: 'AI' }), 201);
    const c = await startConversation(server, key(), { subject: 'bot: hello' });
    model.reply(answer({ reply: 'Hello! How can I help?', confidence: 0.9 }));
    await post(server, key(), c.id, { content: 'Hi there, I have a question about my order', authorType: 'END_USER' });
    await routeTeam(server.app.services, team.teamId);
    await settled(c.id, 1);
    expect(await read(c.id)).toMatchObject({ aiHandling: true });
    expect((await thread(c.id)).at(-1)).toMatchObject({ authorType: 'AI', content: 'Hello! How can I help?' });
    expectOk(await call(server, key(), 'DELETE', `/v1/conversations/assignment-rules/${rule.id}`));
  });
});

describe('handing back to people', () => {
  const handedBack = async (id: string) => {
    const after = await until('the hand-back', async () => {
      const c = await read(id);
      return !c.aiHandling && c;
    });
    const note = (await thread(id)).at(-1);
    expect(note).toMatchObject({ channel: 'INTERNAL_NOTE', authorType: 'SYSTEM', isInternal: true });
    return { after, note: note.content as string };
  };
  const routingState = async (id: string) => (await q(`SELECT r.state FROM "ConversationRouting" r JOIN "Conversation" c ON c.id = r."conversationId" WHERE c."simplyId" = $1`, [id]))[0]?.state;

  it('when the visitor asks for a person: at once, without the model, back into routing', async () => {
    const c = await aiConversation();
    await post(server, key(), c.id, { content: 'Can I please talk to a real person?', authorType: 'END_USER' });
    const { note } = await handedBack(c.id);
    expect(note).toContain('the visitor asked for a person');
    expect(model.requests).toHaveLength(0);
    expect((await replyRows(c.id))[0]).toMatchObject({ state: 'HANDED_BACK', reason: 'PERSON_REQUESTED' });
    expect(await routingState(c.id)).toBeDefined();
    // the visitor's message is still there, nothing is lost
    expect((await thread(c.id)).map((m) => m.content)).toContain('Can I please talk to a real person?');
  });

  it('when unsure or lacking the information, counting the question as a content gap; the assignee keeps it', async () => {
    const gaps = async () => expectOk(await call(server, key(), 'GET', '/v1/conversations/analytics/content-gaps')) as any[];
    const c = await aiConversation();
    model.reply(answer({ reply: 'Maybe on Sundays?', confidence: AI_CONFIDENCE_THRESHOLD - 0.2, reason: 'not sure about Sundays', question: 'Are you open on Sundays?' }));
    await post(server, key(), c.id, { content: 'Hello! Are you open on Sundays?', authorType: 'END_USER' });
    const first = await handedBack(c.id);
    expect(first.note).toContain('not sure enough');
    expect(first.note).toContain('not sure about Sundays');
    expect((await thread(c.id)).some((m) => m.content === 'Maybe on Sundays?')).toBe(false);

    // someone else asks the same (other words around it), the model saying it lacks the information
    const d = await aiConversation();
    expectOk(await call(server, key(), 'PUT', `/v1/conversations/${d.id}`, { assignedUserId: team.userSimplyId }));
    model.reply(answer({ missingInformation: true, handBack: true, reason: 'no opening hours for Sundays were given', question: 'are you open on sundays' }));
    await post(server, key(), d.id, { content: 'are you open on sundays??', authorType: 'END_USER' });
    const second = await handedBack(d.id);
    expect(second.note).toContain('lacks the information');
    expect(second.after.assignedUserId).toBe(team.userSimplyId);
    expect((await replyRows(d.id))[0]).toMatchObject({ state: 'HANDED_BACK', reason: 'MISSING_INFORMATION' });
    const gap = (await gaps()).find((g) => g.questionKey === 'are you open on sundays');
    expect(gap).toMatchObject({ askedCount: 2, sampleQuestion: 'are you open on sundays', sampleConversationSimplyId: d.id });

    // a hand-back the model chose for another reason is no content gap
    const e = await aiConversation();
    model.reply(answer({ handBack: true, reason: 'the visitor is upset', question: 'complaint about delivery' }));
    await post(server, key(), e.id, { content: 'This is the third time my delivery is late!', authorType: 'END_USER' });
    await handedBack(e.id);
    expect((await gaps()).some((g) => g.questionKey.includes('complaint'))).toBe(false);
  });

  it('when the model fails, nothing lost; after the bound of replies in a row; and again once handed back to it', async () => {
    const c = await aiConversation();
    model.reply({ error: { status: 500, message: 'down' } });
    await post(server, key(), c.id, { content: 'What is your address?', authorType: 'END_USER' });
    expect((await handedBack(c.id)).note).toContain('the AI model failed (unavailable)');
    expect((await replyRows(c.id))[0]).toMatchObject({ state: 'HANDED_BACK', reason: 'MODEL_ERROR' });

    // handed to the AI again, it tries that message once more
    model.reply(answer({ reply: 'We are at 1 Main Street.', confidence: 0.9 }));
    expectOk(await call(server, key(), 'PUT', `${INBOX}/${c.id}/assign-ai`));
    await until('the retried answer', async () => (await thread(c.id)).at(-1)?.authorType === 'AI');

    model.otherwise(answer({ reply: 'Happy to help.', confidence: 0.9 }));
    for (let i = 2; i <= MAX_CONSECUTIVE_AI_REPLIES; i++) {
      await post(server, key(), c.id, { content: `Question number ${i} about your shop`, authorType: 'END_USER' });
      await until(`reply ${i}`, async () => (await thread(c.id)).filter((m) => m.authorType === 'AI').length === i);
    }
    const asked = model.requests.length;
    await post(server, key(), c.id, { content: 'One more question about your shop', authorType: 'END_USER' });
    expect((await handedBack(c.id)).note).toContain(`${MAX_CONSECUTIVE_AI_REPLIES} replies in a row`);
    expect(model.requests.length).toBe(asked);
  });

  it('a taken-over conversation gets no AI reply', async () => {
    const c = await aiConversation();
    model.reply({ ...answer({ reply: 'Too late.', confidence: 0.9 }), delayMs: 1_000 });
    await post(server, key(), c.id, { content: 'Anyone there?', authorType: 'END_USER' });
    await until('the model asked', () => model.requests.length === 1);
    expectOk(await call(server, { token: team.userToken, teamId: team.teamSimplyId }, 'PUT', `${INBOX}/${c.id}/takeover`));
    const [row] = await settled(c.id, 1);
    expect(row.state).toBe('SKIPPED');
    expect((await thread(c.id)).some((m) => m.authorType === 'AI')).toBe(false);
  });
});
