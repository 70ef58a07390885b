// Merging and unmerging (docs/api/conversations.md "Merging"): both threads' messages in time
// order in the surviving conversation, the merged one out of the lists and closed to changes, a
// history of every merge and its undoing, the record link lent and given back, chains of merges,
// and the refusals.
import { describe, expect, it } from 'vitest';
import { expectError, expectOk } from '../support/expect-envelope.ts';
import { createRecord } from '../support/record-fixtures.ts';
import { useServer } from '../support/use-server.ts';
import { call, createContacts, keyOf, post, startConversation } from './conversation-fixtures.ts';

describe('merging conversations', () => {
  const { server, teams: [team] } = useServer({ teams: 1 });
  const key = () => keyOf(team);
  const thread = async (id: string) => (expectOk(await call(server, key(), 'GET', `/v1/conversations/${id}/messages?limit=100`)) as any[]).map((m) => m.content);
  const get = async (id: string) => expectOk(await call(server, key(), 'GET', `/v1/conversations/${id}`));
  const merge = (id: string, body: object) => call(server, key(), 'POST', `/v1/conversations/inbox/${id}/merge`, body);

  /** two conversations whose messages interleave in time: a1 b1 a2 b2 */
  async function pair() {
    const a = await startConversation(server, key());
    const b = await startConversation(server, key());
    await post(server, key(), a.id, { content: 'a1', authorType: 'END_USER' });
    await post(server, key(), b.id, { content: 'b1', authorType: 'END_USER' });
    await post(server, key(), a.id, { content: 'a2' });
    await post(server, key(), b.id, { content: 'b2', authorType: 'END_USER' });
    return { a, b };
  }

  it('merges one into another: both threads in time order there, the merged one out of the lists and closed to changes', async () => {
    const { a, b } = await pair();
    const result = expectOk(await merge(a.id, { into: b.id }));
    expect(result.merge).toMatchObject({ sourceConversationSimplyId: a.id, targetConversationSimplyId: b.id, unmergedAt: null, mergedByKind: 'API_KEY' });
    expect(result.merge.mergeSimplyId).toMatch(/^cmg-/);
    expect(result.sourceConversation).toMatchObject({ id: a.id, mergedIntoConversationSimplyId: b.id });
    expect(result.targetConversation).toMatchObject({ id: b.id, messageCount: 4, lastMessagePreview: 'b2', mergedIntoConversationSimplyId: null });

    expect(await thread(b.id)).toEqual(['a1', 'b1', 'a2', 'b2']);
    expect(await thread(a.id)).toEqual(['a1', 'a2']);
    const messages = expectOk(await call(server, key(), 'GET', `/v1/conversations/${b.id}/messages`));
    expect(messages.map((m: any) => m.conversationSimplyId)).toEqual([a.id, b.id, a.id, b.id]);
    const listed = (expectOk(await call(server, key(), 'GET', '/v1/conversations?limit=100')) as any[]).map((c) => c.id);
    expect(listed).toContain(b.id);
    expect(listed).not.toContain(a.id);
    expect((expectOk(await call(server, key(), 'GET', '/v1/conversations/inbox?limit=100')) as any[]).map((c) => c.id)).not.toContain(a.id);
    const detail = expectOk(await call(server, key(), 'GET', `/v1/conversations/inbox/${b.id}`));
    expect(detail.messages.map((m: any) => m.content)).toEqual(['a1', 'b1', 'a2', 'b2']);
    expect(detail.merges.map((m: any) => m.mergeSimplyId)).toEqual([result.merge.mergeSimplyId]);

    // the merged one takes nothing more until it is unmerged
    expectError(await call(server, key(), 'POST', `/v1/conversations/${a.id}/messages`, { content: 'late' }), 409, 'CONVERSATION_MERGED');
    expectError(await call(server, key(), 'PUT', `/v1/conversations/${a.id}`, { status: 'CLOSED' }), 409, 'CONVERSATION_MERGED');
    expectError(await call(server, key(), 'PUT', `/v1/conversations/inbox/${a.id}/assign-ai`), 409, 'CONVERSATION_MERGED');
    expectError(await merge(a.id, { into: b.id }), 409, 'CONVERSATION_MERGED');
    expectError(await merge(b.id, { into: a.id }), 409, 'CONVERSATION_MERGED');
    const other = await startConversation(server, key());
    expectError(await merge(other.id, { into: a.id }), 409, 'CONVERSATION_MERGED');
  });

  it('unmerges: the merged one comes back as it was, what was posted to the survivor since stays there, and the history keeps both', async () => {
    const { a, b } = await pair();
    const merged = expectOk(await merge(b.id, { source: a.id }));
    await post(server, key(), b.id, { content: 'after the merge' });
    const undone = expectOk(await merge(a.id, { unmerge: true }));
    expect(undone.merge).toMatchObject({ mergeSimplyId: merged.merge.mergeSimplyId, unmergedByKind: 'API_KEY' });
    expect(undone.merge.unmergedAt).not.toBeNull();
    expect(undone.sourceConversation).toMatchObject({ id: a.id, mergedIntoConversationSimplyId: null, mergedAt: null, messageCount: 2, lastMessagePreview: 'a2' });
    expect(undone.targetConversation).toMatchObject({ id: b.id, messageCount: 3, lastMessagePreview: 'after the merge' });
    expect(await thread(a.id)).toEqual(['a1', 'a2']);
    expect(await thread(b.id)).toEqual(['b1', 'b2', 'after the merge']);
    await post(server, key(), a.id, { content: 'a is back' });

    // again, and the history shows both merges
    expectOk(await merge(a.id, { into: b.id }));
    expect(await thread(b.id)).toEqual(['a1', 'b1', 'a2', 'b2', 'after the merge', 'a is back']);
    const history = expectOk(await call(server, key(), 'GET', `/v1/conversations/inbox/${a.id}`)).merges;
    expect(history).toHaveLength(2);
    expect(history[0].unmergedAt).not.toBeNull();
    expect(history[1].unmergedAt).toBeNull();
    expectError(await merge(b.id, { unmerge: true }), 409, 'CONVERSATION_NOT_MERGED');
  });

  it('follows chains of merges, and lends a record to a survivor without one until the unmerge', async () => {
    const contacts = await createContacts(server, team);
    const record = await createRecord(server, team.apiKey, contacts.id, { [contacts.fields.name!]: 'Chain' });
    const a = await startConversation(server, key(), { dataRecordSimplyId: record.id });
    const b = await startConversation(server, key(), { visitorEmail: null });
    const c = await startConversation(server, key(), { visitorEmail: null });
    for (const [id, content] of [[a.id, 'a'], [b.id, 'b'], [c.id, 'c']]) await post(server, key(), id!, { content: content!, authorType: 'END_USER' });
    expectOk(await merge(a.id, { into: b.id }));
    expect(await get(b.id)).toMatchObject({ dataRecordSimplyId: record.id, recordLinkSource: 'GIVEN' });
    expect(expectOk(await call(server, key(), 'GET', `/v1/data-records/${record.id}/conversations`)).map((x: any) => x.id)).toEqual([b.id]);
    expectOk(await merge(b.id, { into: c.id }));
    expect(await thread(c.id)).toEqual(['a', 'b', 'c']);
    expect((await get(c.id)).messageCount).toBe(3);

    expectOk(await merge(b.id, { unmerge: true }));
    expect(await thread(c.id)).toEqual(['c']);
    expect(await thread(b.id)).toEqual(['a', 'b']);
    expectOk(await merge(a.id, { unmerge: true }));
    expect(await get(b.id)).toMatchObject({ dataRecordSimplyId: null, recordLinkSource: null, messageCount: 1 });
  });

  it('refuses a merge into itself, without exactly one of into, source and unmerge, or with malformed ids: 400 naming the field', async () => {
    const a = await startConversation(server, key());
    const b = await startConversation(server, key());
    for (const [body, field] of [
      [{ into: a.id }, 'into'],
      [{ source: a.id }, 'source'],
      [{}, 'into'],
      [{ into: b.id, source: b.id }, 'into'],
      [{ into: b.id, unmerge: true }, 'into'],
      [{ into: 'someone' }, 'into'],
      [{ unmerge: 'yes' }, 'unmerge'],
      [{ into: b.id, extra: 1 }, 'extra'],
    ] as const) {
      const error = expectError(await merge(a.id, body), 400, 'VALIDATION_ERROR', JSON.stringify(body));
      expect(error.details?.map((d) => d.field), JSON.stringify(body)).toContain(field);
    }
    expectError(await merge(a.id, { into: 'cnv-2222-3333-4444' }), 404, 'NOT_FOUND');
    expectError(await merge(a.id, { unmerge: true }), 409, 'CONVERSATION_NOT_MERGED');
  });
});
