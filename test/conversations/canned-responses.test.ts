// Canned responses: the team's CANNED_RESPONSE content templates listed for the composer and used
// on a conversation, merge tags filled from the linked record (only what the caller may read),
// counted; with post: true, posted as the caller's message.
import { describe, expect, it } from 'vitest';
import { createCollection } from '../support/data-fixtures.ts';
import { expectError, expectOk } from '../support/expect-envelope.ts';
import { createTeam } from '../support/fixtures.ts';
import { createRecord } from '../support/record-fixtures.ts';
import { useServer } from '../support/use-server.ts';
import { call, FEATURES, keyOf, memberWith, startConversation } from './conversation-fixtures.ts';

const CANNED = '/v1/conversations/canned-responses';

describe('canned responses', () => {
  const { server, teams: [team] } = useServer({ teams: 1 });
  const key = () => keyOf(team);
  const template = async (body: Record<string, unknown>) => expectOk(await call(server, key(), 'POST', '/v1/content-templates', body), 201);

  it('lists the CANNED_RESPONSE templates by name with search, and uses one with the record’s merge tags', async () => {
    const people = await createCollection(server, team, { name: 'People', formula: '{first}', fields: { first: 'PLAIN_TEXT', plan: 'PLAIN_TEXT' } });
    const ada = await createRecord(server, team.apiKey, people.id, { [people.fields.first!]: 'Ada', [people.fields.plan!]: 'Gold' });
    const greet = await template({ name: 'Greeting', textContent: 'Hello {{first}}, your {{plan}} plan is active. {{unknown}}', usageTypes: ['CANNED_RESPONSE'] });
    await template({ name: 'Apology', textContent: 'Sorry for the wait', usageTypes: ['CANNED_RESPONSE', 'OUTGOING_MESSAGE'] });
    await template({ name: 'Newsletter', textContent: 'Not canned', usageTypes: ['OUTGOING_MESSAGE'] });
    const page = await call(server, key(), 'GET', `${CANNED}?limit=10`);
    expect(expectOk(page).map((c: any) => c.name)).toEqual(['Apology', 'Greeting']);
    expect(page.body.meta.pagination).toMatchObject({ total: 2, hasMore: false });
    expect(expectOk(await call(server, key(), 'GET', `${CANNED}?q=WAIT`)).map((c: any) => c.name)).toEqual(['Apology']);

    const c = await startConversation(server, key(), { dataRecordSimplyId: ada.id });
    const used = expectOk(await call(server, key(), 'POST', `${CANNED}/${greet.contentTemplateSimplyId}/use`, { conversationSimplyId: c.id }));
    expect(used).toMatchObject({ text: 'Hello Ada, your Gold plan is active. ', recordUsed: true, useCount: 1, message: null });
    // an agent who may not read the record gets the text with empty tags
    const agent = await memberWith(server, team, [FEATURES.inboxAll]);
    expect(expectOk(await call(server, agent, 'POST', `${CANNED}/${greet.contentTemplateSimplyId}/use`, { conversationSimplyId: c.id }))).toMatchObject({ text: 'Hello , your  plan is active. ', recordUsed: false, useCount: 2 });
    const posted = expectOk(await call(server, key(), 'POST', `${CANNED}/${greet.contentTemplateSimplyId}/use`, { conversationSimplyId: c.id, post: true, channel: 'INTERNAL_NOTE' }));
    expect(posted.message).toMatchObject({ content: 'Hello Ada, your Gold plan is active. ', channel: 'INTERNAL_NOTE', conversationSimplyId: c.id });
    expect(find(expectOk(await call(server, key(), 'GET', CANNED)), greet.contentTemplateSimplyId)).toMatchObject({ useCount: 3, lastUsedAt: expect.any(String) });
  });

  const find = (list: any[], id: string) => list.find((x) => x.cannedResponseSimplyId === id);

  it('answers 400 naming the field and 404 for what is not the team’s or not a canned response', async () => {
    const c = await startConversation(server, key());
    const greet = await template({ name: 'Hi', textContent: 'Hi', usageTypes: ['CANNED_RESPONSE'] });
    const newsletter = await template({ name: 'News', textContent: 'News', usageTypes: ['OUTGOING_MESSAGE'] });
    expect(expectError(await call(server, key(), 'POST', `${CANNED}/${greet.contentTemplateSimplyId}/use`, {}), 400, 'VALIDATION_ERROR').details?.[0]?.field).toBe('conversationSimplyId');
    expect(expectError(await call(server, key(), 'POST', `${CANNED}/nope/use`, { conversationSimplyId: c.id }), 400, 'VALIDATION_ERROR').details?.[0]?.field).toBe('cannedResponseSimplyId');
    expectError(await call(server, key(), 'POST', `${CANNED}/${newsletter.contentTemplateSimplyId}/use`, { conversationSimplyId: c.id }), 404, 'NOT_FOUND');
    expectError(await call(server, key(), 'GET', `${CANNED}?limit=0`), 400, 'VALIDATION_ERROR');
    const other = await createTeam(server);
    expectError(await call(server, keyOf(other), 'POST', `${CANNED}/${greet.contentTemplateSimplyId}/use`, { conversationSimplyId: c.id }), 404, 'NOT_FOUND');
    const otherTemplate = expectOk(await call(server, keyOf(other), 'POST', '/v1/content-templates', { name: 'Theirs', textContent: 'x', usageTypes: ['CANNED_RESPONSE'] }), 201);
    expectError(await call(server, key(), 'POST', `${CANNED}/${otherTemplate.contentTemplateSimplyId}/use`, { conversationSimplyId: c.id }), 404, 'NOT_FOUND');
    const noInbox = await memberWith(server, team, [FEATURES.table]);
    expectError(await call(server, noInbox, 'GET', CANNED), 403, 'PERMISSION_DENIED');
  });
});
