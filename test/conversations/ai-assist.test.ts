// AI assistance for agents (docs/api/conversations.md "AI assistance"): suggested replies grounded
// in the thread, the record and the canned responses (notes inform, never quoted); translation of
// a message and of a draft; the visitor's language detected from their messages; the content-gap
// list's permissions, order and paging; and every AI route without a model (403) or with a
// failing one (424). Against the real local model server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeTeam } from '../../src/modules/conversations/routing-assign.ts';
import { createCollection } from '../support/data-fixtures.ts';
import { expectError, expectOk } from '../support/expect-envelope.ts';
import { createTeam, type TeamFixture } from '../support/fixtures.ts';
import { startModelServer, type ModelServer } from '../support/model-server.ts';
import { createRecord } from '../support/record-fixtures.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { adminOf, call, FEATURES, keyOf, memberWith, post, startConversation, type Caller } from './conversation-fixtures.ts';

const INBOX = '/v1/conversations/inbox';
const GAPS = '/v1/conversations/analytics/content-gaps';

let model: ModelServer;
let server: TestServer;
let team: TeamFixture;
const key = (): Caller => keyOf(team);

beforeAll(async () => {
  model = await startModelServer();
  // no job workers: the AI's own replies are ai-handling.test.ts's
  server = await startTestServer({ env: { AI_BASE_URL: model.baseUrl, AI_MODEL: 'test-model', AI_MAX_RETRIES: 0, AI_TIMEOUT_MS: 5000 } as never });
  team = await createTeam(server);
});
afterAll(async () => {
  await server?.close();
  await model?.close();
});

/** the JSON the feature sent the model (the user turn's data after the task) */
const sentData = (i = -1): any => {
  const content = String(model.requests.at(i)!.body.messages.at(-1)!.content);
  return JSON.parse(content.slice(content.indexOf('\n\n{') + 2));
};

describe('suggested replies', () => {
  it('drafts grounded in the thread, record and canned responses; a draft quoting a note is withheld', async () => {
    const people = await createCollection(server, team, { name: 'Members', formula: '{first}', fields: { first: 'PLAIN_TEXT', plan: 'PLAIN_TEXT' } });
    const ada = await createRecord(server, team.apiKey, people.id, { [people.fields.first!]: 'Ada', [people.fields.plan!]: 'Gold' });
    const canned = expectOk(await call(server, key(), 'POST', '/v1/content-templates', { name: 'Renewal', textContent: 'Hello {{first}}, your {{plan}} plan renews every January.', usageTypes: ['CANNED_RESPONSE'] }), 201);
    const c = await startConversation(server, key(), { dataRecordSimplyId: ada.id });
    await post(server, key(), c.id, { content: 'the customer owes us 300 euros from last year', channel: 'INTERNAL_NOTE' });
    await post(server, key(), c.id, { content: 'When does my membership renew?', authorType: 'END_USER' });

    model.reset();
    model.reply({
      text: JSON.stringify({
        suggestions: [
          { text: 'Hi Ada! Your Gold plan renews every January.', cannedResponseSimplyIds: [canned.contentTemplateSimplyId, 'ctpl-NOPE-NOPE-NOPE'] },
          { text: 'By the way, the customer owes us 300 euros from last year.', cannedResponseSimplyIds: [] },
          { text: 'Your membership renews in January.' },
        ],
      }),
    });
    const answer = expectOk(await call(server, adminOf(team), 'POST', `${INBOX}/${c.id}/suggest-replies`, { count: 3, tone: 'FRIENDLY', instructions: 'Mention the plan' }));
    expect(answer).toEqual({
      conversationSimplyId: c.id,
      language: 'en',
      tone: 'FRIENDLY',
      recordUsed: true,
      suggestions: [
        { text: 'Hi Ada! Your Gold plan renews every January.', cannedResponses: [{ cannedResponseSimplyId: canned.contentTemplateSimplyId, name: 'Renewal' }] },
        { text: 'Your membership renews in January.', cannedResponses: [] },
      ],
    });
    const data = sentData();
    expect(data.messages.map((m: any) => [m.author, m.internal])).toEqual([['AGENT', true], ['VISITOR', false]]);
    expect(data.record.fields).toEqual(expect.arrayContaining([{ field: 'plan', value: 'Gold' }]));
    expect(data.cannedResponses).toEqual([{ cannedResponseSimplyId: canned.contentTemplateSimplyId, name: 'Renewal', text: 'Hello Ada, your Gold plan renews every January.' }]);
    expect(String(model.requests.at(-1)!.body.messages.at(-1)!.content)).toContain('Mention the plan');

    // an agent who may not read the record: the model sees no record values, and neither do the canned texts
    const agent = await memberWith(server, team, [FEATURES.inboxAll]);
    model.reply({ text: JSON.stringify({ suggestions: [{ text: 'It renews in January.' }] }) });
    expect(expectOk(await call(server, agent, 'POST', `${INBOX}/${c.id}/suggest-replies`, {}))).toMatchObject({ recordUsed: false, tone: 'NEUTRAL', suggestions: [{ text: 'It renews in January.' }] });
    expect(sentData().record).toBeNull();
    expect(sentData().cannedResponses[0].text).toBe('Hello , your  plan renews every January.');
  });

  it('keeps to the inbox reach, validates every field and answers 424 when the model fails', async () => {
    const mine = await memberWith(server, team, [FEATURES.inbox]);
    const someoneElse = await memberWith(server, team, [FEATURES.inbox]);
    const c = await startConversation(server, key());
    expectOk(await call(server, key(), 'PUT', `/v1/conversations/${c.id}`, { assignedUserId: someoneElse.userSimplyId }));
    expectError(await call(server, mine, 'POST', `${INBOX}/${c.id}/suggest-replies`, {}), 404, 'NOT_FOUND');
    const other = await createTeam(server);
    expectError(await call(server, keyOf(other), 'POST', `${INBOX}/${c.id}/suggest-replies`, {}), 404, 'NOT_FOUND');
    expectError(await call(server, await memberWith(server, team, [FEATURES.table]), 'POST', `${INBOX}/${c.id}/suggest-replies`, {}), 403, 'PERMISSION_DENIED');
    for (const [body, field] of [
      [{ count: 4 }, 'count'],
      [{ count: 1.5 }, 'count'],
      [{ tone: 'ANGRY' }, 'tone'],
      [{ language: 'not a tag!' }, 'language'],
      [{ instructions: 'x'.repeat(501) }, 'instructions'],
      [{ extra: true }, 'extra'],
    ] as const) {
      expect(expectError(await call(server, key(), 'POST', `${INBOX}/${c.id}/suggest-replies`, body), 400, 'VALIDATION_ERROR').details?.map((d) => d.field)).toEqual([field]);
    }
    model.reset();
    model.reply({ error: { status: 400, message: 'secret provider text' } });
    const failed = expectError(await call(server, key(), 'POST', `${INBOX}/${c.id}/suggest-replies`, {}), 424, 'AI_MODEL_ERROR');
    expect(failed.details).toEqual([{ message: 'provider_error' }]);
    expect(JSON.stringify(failed)).not.toContain('secret provider text');
    model.reply({ text: 'Sure, here are some ideas!' });
    expect(expectError(await call(server, key(), 'POST', `${INBOX}/${c.id}/suggest-replies`, { language: 'de' }), 424, 'AI_MODEL_ERROR').details).toEqual([{ message: 'bad_response' }]);
    expect(String(model.requests.at(-1)!.body.messages.at(-1)!.content)).toContain('German (de)');
  });
});

describe('the visitor’s language and translation', () => {
  it('detects the visitor’s language from their messages and shows it on the conversation', async () => {
    const c = await startConversation(server, key());
    expect(c.visitorLanguage).toBeNull();
    await post(server, key(), c.id, { content: 'ok', authorType: 'END_USER' });
    expect(expectOk(await call(server, key(), 'GET', `/v1/conversations/${c.id}`)).visitorLanguage).toBeNull();
    await post(server, key(), c.id, { content: 'Hallo, ich möchte wissen, wann meine Bestellung ankommt.', authorType: 'END_USER' });
    // an agent writing in another language changes nothing: only the visitor's words count
    await post(server, key(), c.id, { content: 'Bonjour, je voudrais savoir quand votre commande arrivera.' });
    expect(expectOk(await call(server, key(), 'GET', `/v1/conversations/${c.id}`)).visitorLanguage).toBe('de');
    expect(expectOk(await call(server, key(), 'GET', `${INBOX}/${c.id}`)).conversation.visitorLanguage).toBe('de');
    await post(server, key(), c.id, { content: 'Hola, ¿cuándo llegará mi pedido? Lo compré la semana pasada.', authorType: 'END_USER' });
    expect(expectOk(await call(server, key(), 'GET', `${INBOX}?q=${encodeURIComponent(c.subject)}`))[0].visitorLanguage).toBe('es');
  });

  it('translates a message into the agent’s language, and a draft into the visitor’s', async () => {
    const c = await startConversation(server, key());
    const german = await post(server, key(), c.id, { content: 'Kann ich meine Bestellung noch ändern? Ich habe die falsche Größe gewählt.', authorType: 'END_USER' });
    model.reset();
    model.reply({ text: JSON.stringify({ sourceLanguage: 'de', text: 'Can I still change my order? I chose the wrong size.' }) });
    expect(expectOk(await call(server, adminOf(team), 'POST', `${INBOX}/${c.id}/messages/${german.id}/translate`))).toEqual({
      conversationSimplyId: c.id,
      messageSimplyId: german.id,
      sourceLanguage: 'de',
      targetLanguage: 'en',
      text: 'Can I still change my order? I chose the wrong size.',
      translated: true,
    });
    expect(sentData()).toEqual({ text: german.content });
    // the agent's interface language is the default target
    expectOk(await call(server, adminOf(team), 'PATCH', '/v1/users/me', { defaultInterfaceLanguageId: 'fr' }));
    model.reply({ text: JSON.stringify({ sourceLanguage: 'de', text: 'Puis-je encore modifier ma commande ?' }) });
    expect(expectOk(await call(server, adminOf(team), 'POST', `${INBOX}/${c.id}/messages/${german.id}/translate`, {}))).toMatchObject({ targetLanguage: 'fr', translated: true });
    expectOk(await call(server, adminOf(team), 'PATCH', '/v1/users/me', { defaultInterfaceLanguageId: null }));
    // already in the target language: as it is, without asking the model
    const asked = model.requests.length;
    expect(expectOk(await call(server, key(), 'POST', `${INBOX}/${c.id}/messages/${german.id}/translate`, { targetLanguage: 'DE-at' }))).toMatchObject({ sourceLanguage: 'de', targetLanguage: 'de-AT', text: german.content, translated: false });
    expect(model.requests.length).toBe(asked);

    model.reply({ text: JSON.stringify({ sourceLanguage: 'en', text: 'Ja, wir ändern die Größe gern für Sie.' }) });
    expect(expectOk(await call(server, key(), 'POST', `${INBOX}/${c.id}/translate-outgoing`, { content: 'Yes, we will gladly change the size for you.' }))).toEqual({
      conversationSimplyId: c.id,
      messageSimplyId: null,
      sourceLanguage: 'en',
      targetLanguage: 'de',
      text: 'Ja, wir ändern die Größe gern für Sie.',
      translated: true,
    });
    expect(String(model.requests.at(-1)!.body.messages.at(-1)!.content)).toContain('German (de)');
  });

  it('answers 400 naming the field and 404 for a message outside the thread', async () => {
    const c = await startConversation(server, key());
    const other = await startConversation(server, key());
    const theirs = await post(server, key(), other.id, { content: 'elsewhere', authorType: 'END_USER' });
    expectError(await call(server, key(), 'POST', `${INBOX}/${c.id}/messages/${theirs.id}/translate`, { targetLanguage: 'en' }), 404, 'NOT_FOUND');
    expectError(await call(server, key(), 'POST', `${INBOX}/${c.id}/messages/cvm-AAAA-BBBB-CCCC/translate`, { targetLanguage: 'en' }), 404, 'NOT_FOUND');
    const field = async (path: string, body: unknown) => expectError(await call(server, key(), 'POST', path, body), 400, 'VALIDATION_ERROR').details?.map((d) => d.field);
    expect(await field(`${INBOX}/${c.id}/messages/nope/translate`, {})).toEqual(['messageSimplyId']);
    expect(await field(`${INBOX}/${c.id}/messages/${theirs.id}/translate`, { targetLanguage: 'english please' })).toEqual(['targetLanguage']);
    expect(await field(`${INBOX}/${c.id}/translate-outgoing`, { content: '   ' })).toEqual(['content']);
    expect(await field(`${INBOX}/${c.id}/translate-outgoing`, { content: 'x'.repeat(20_001), targetLanguage: 'de' })).toEqual(['content']);
    expect(await field(`${INBOX}/${c.id}/translate-outgoing`, {})).toEqual(['content']);
    // no language detected yet and none named
    expect(await field(`${INBOX}/${c.id}/translate-outgoing`, { content: 'Hello' })).toEqual(['targetLanguage']);
  });
});

describe('content gaps', () => {
  it('needs DATA_CONVERSATIONS_VIEW and the team-wide inbox view; most asked first, since, paged', async () => {
    const own = await createTeam(server);
    const q = (sql: string, values: unknown[]) => server.app.services.pool.query(sql, values);
    const gap = (key: string, count: number, last: string) =>
      q(`INSERT INTO "ConversationContentGap" ("teamId", "questionKey", "sampleQuestion", "askedCount", "firstAskedAt", "lastAskedAt", "sampleConversationSimplyId") VALUES ($1, $2, $2, $3, $4, $4, 'cnv-AAAA-BBBB-CCCC')`, [own.teamId, key, count, last]);
    await gap('opening hours', 5, '2026-11-01T00:00:00Z');
    await gap('parking', 9, '2026-10-01T00:00:00Z');
    await gap('refund policy', 5, '2026-11-20T00:00:00Z');
    const list = async (who: Caller, query = '') => expectOk(await call(server, who, 'GET', `${GAPS}${query}`));
    expect((await list(keyOf(own))).map((g: any) => [g.questionKey, g.askedCount])).toEqual([['parking', 9], ['refund policy', 5], ['opening hours', 5]]);
    expect((await list(keyOf(own), '?since=2026-10-15T00:00:00Z')).map((g: any) => g.questionKey)).toEqual(['refund policy', 'opening hours']);
    const page = await call(server, keyOf(own), 'GET', `${GAPS}?limit=1&offset=1`);
    expect(expectOk(page).map((g: any) => g.questionKey)).toEqual(['refund policy']);
    expect(page.body.meta.pagination).toMatchObject({ total: 3, limit: 1, offset: 1, hasMore: true });
    expect((await list(keyOf(team))).some((g: any) => g.questionKey === 'parking')).toBe(false);

    expect(expectOk(await call(server, await memberWith(server, own, [`${FEATURES.table}:VIEW`, `${FEATURES.inboxAll}:VIEW`]), 'GET', GAPS))).toHaveLength(3);
    expectError(await call(server, await memberWith(server, own, [`${FEATURES.table}:VIEW`]), 'GET', GAPS), 403, 'PERMISSION_DENIED');
    expectError(await call(server, await memberWith(server, own, [FEATURES.inboxAll]), 'GET', GAPS), 403, 'PERMISSION_DENIED');
    expect(expectError(await call(server, keyOf(own), 'GET', `${GAPS}?since=yesterday`), 400, 'VALIDATION_ERROR').details?.[0]?.field).toBe('since');
    expect(expectError(await call(server, keyOf(own), 'GET', `${GAPS}?limit=101`), 400, 'VALIDATION_ERROR').details?.[0]?.field).toBe('limit');
  });
});

describe('without a model', () => {
  let bare: TestServer;
  let t: TeamFixture;
  beforeAll(async () => {
    bare = await startTestServer();
    t = await createTeam(bare);
  });
  afterAll(async () => bare?.close());

  it('the AI routes and assign-ai answer 403 AI_FEATURE_UNAVAILABLE; an AI rule leaves the conversation to people', async () => {
    const c = await startConversation(bare, keyOf(t));
    const m = await post(bare, keyOf(t), c.id, { content: 'Hallo, ich brauche Hilfe mit meiner Rechnung bitte.', authorType: 'END_USER' });
    expectError(await call(bare, keyOf(t), 'POST', `${INBOX}/${c.id}/suggest-replies`, {}), 403, 'AI_FEATURE_UNAVAILABLE');
    expectError(await call(bare, keyOf(t), 'POST', `${INBOX}/${c.id}/messages/${m.id}/translate`, {}), 403, 'AI_FEATURE_UNAVAILABLE');
    expectError(await call(bare, keyOf(t), 'POST', `${INBOX}/${c.id}/translate-outgoing`, { content: 'Hello' }), 403, 'AI_FEATURE_UNAVAILABLE');
    expectError(await call(bare, keyOf(t), 'PUT', `${INBOX}/${c.id}/assign-ai`), 403, 'AI_FEATURE_UNAVAILABLE');
    expect(expectOk(await call(bare, keyOf(t), 'GET', `/v1/conversations/${c.id}`))).toMatchObject({ aiHandling: false, visitorLanguage: 'de' });
    // another team's conversation is still 404, and bad input still 400
    expectError(await call(bare, keyOf(await createTeam(bare)), 'PUT', `${INBOX}/${c.id}/assign-ai`), 404, 'NOT_FOUND');
    expectError(await call(bare, keyOf(t), 'POST', `${INBOX}/${c.id}/suggest-replies`, { count: 9 }), 400, 'VALIDATION_ERROR');

    expectOk(await call(bare, keyOf(t), 'POST', '/v1/conversations/assignment-rules', { name: 'Everything to the AI', actionType: 'AI' }), 201);
    const routed = await startConversation(bare, keyOf(t));
    await routeTeam(bare.app.services, t.teamId);
    expect(expectOk(await call(bare, keyOf(t), 'GET', `/v1/conversations/${routed.id}`))).toMatchObject({ aiHandling: false, assignedUserId: null });
    const { rows } = await bare.app.services.pool.query(`SELECT r.state FROM "ConversationRouting" r JOIN "Conversation" c ON c.id = r."conversationId" WHERE c."simplyId" = $1`, [routed.id]);
    expect(rows[0].state).toBe('UNASSIGNED');
  });
});
