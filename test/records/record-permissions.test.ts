// Data permissions on every record route (Document 1 §2.1, §4.2 rule 2, §5 rules 2-3, §7):
// collection grants (READ / EDIT / none), field permissions (READ / NONE), keys without a team role,
// scoped session tokens (records:read / records:write), and other teams' ids (404).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCollection, REQUIRED_TEXT, type CollectionFixture } from '../support/data-fixtures.ts';
import { expectError, expectOk } from '../support/expect-envelope.ts';
import { addMember, createApiKey, createRole, type TeamFixture } from '../support/fixtures.ts';
import { startServerWithTwoTeams } from '../support/record-fixtures.ts';
import type { TestResponse, TestServer } from '../support/server.ts';

let server: TestServer;
let team: TeamFixture;
let other: TeamFixture;
/** fields: title (required), locked (READ for editor), secret (NONE for editor), n */
let notes: CollectionFixture;
let hidden: CollectionFixture;
let otherNotes: CollectionFixture;
let noteId: string;
let hiddenId: string;
let otherNoteId: string;

let readerKey: string;
let editorKey: string;
let noRoleKey: string;
let elsewhereKey: string;

const f = (column: string) => notes.fields[column]!;
const req = (method: string, path: string, token: string, body?: unknown): Promise<TestResponse> => server.request(method, path, { token, body });

interface Route {
  label: string;
  method: string;
  path: string;
  body?: unknown;
}

/** Every record route, against `collection` / `record`. */
function routes(collection: CollectionFixture, record: string, fields: Record<string, unknown>): { reads: Route[]; writes: Route[] } {
  return {
    reads: [
      { label: 'list', method: 'GET', path: `/v1/data-records?dataCollectionSimplyId=${collection.id}` },
      { label: 'get', method: 'GET', path: `/v1/data-records/${record}` },
      { label: 'search', method: 'POST', path: '/v1/data-records/search', body: { dataCollectionSimplyId: collection.id } },
    ],
    writes: [
      { label: 'create', method: 'POST', path: '/v1/data-records', body: { dataCollectionSimplyId: collection.id, fields } },
      { label: 'patch', method: 'PATCH', path: `/v1/data-records/${record}`, body: { fields } },
      { label: 'put', method: 'PUT', path: `/v1/data-records/${record}`, body: { fields } },
      { label: 'delete', method: 'DELETE', path: `/v1/data-records/${record}` },
      { label: 'batch create', method: 'POST', path: '/v1/data-records/batch', body: { dataCollectionSimplyId: collection.id, records: [{ fields }] } },
      { label: 'create menu', method: 'POST', path: '/v1/create-menu/data-records', body: { dataCollectionSimplyId: collection.id, formData: fields } },
    ],
  };
}

/** Batch update and delete check the permission per record: a 200 whose items are 403. */
async function expectBatchItemsDenied(token: string, record: string, fields: Record<string, unknown>): Promise<void> {
  const update = expectOk(await req('PATCH', '/v1/data-records/batch', token, { records: [{ dataRecordSimplyId: record, fields }] }));
  expect(update).toMatchObject({ updated: 0, failed: 1 });
  expect(update.results[0]).toMatchObject({ ok: false, error: { code: 'PERMISSION_DENIED', status: 403 } });
  const del = expectOk(await req('DELETE', '/v1/data-records/batch', token, { dataRecordSimplyIds: [record] }));
  expect(del).toMatchObject({ deleted: 0, failed: 1 });
  expect(del.results[0]).toMatchObject({ ok: false, error: { code: 'PERMISSION_DENIED', status: 403 } });
}

async function expectUnchanged(): Promise<void> {
  const record = expectOk(await req('GET', `/v1/data-records/${noteId}`, team.apiKey));
  expect(record.fields).toEqual({ [f('title')]: 'Note', [f('locked')]: 'L', [f('secret')]: 'S', [f('n')]: 1 });
}

async function denied(list: Route[], token: string, label: string): Promise<void> {
  for (const route of list) {
    expectError(await req(route.method, route.path, token, route.body), 403, 'PERMISSION_DENIED', `${label} ${route.label}`);
  }
}

beforeAll(async () => {
  ({ server, team, other, otherCollection: otherNotes, otherRecordId: otherNoteId } = await startServerWithTwoTeams({ column: 'title', name: 'Theirs' }));
  notes = await createCollection(server, team, {
    name: 'Notes',
    formula: '{title}',
    fields: {
      title: REQUIRED_TEXT,
      locked: 'PLAIN_TEXT',
      secret: 'PLAIN_TEXT',
      n: 'NUMBER',
    },
  });
  hidden = await createCollection(server, team, { name: 'Hidden', fields: { title: 'PLAIN_TEXT' } });
  noteId = expectOk(await req('POST', '/v1/data-records', team.apiKey, { dataCollectionSimplyId: notes.id, fields: { [f('title')]: 'Note', [f('locked')]: 'L', [f('secret')]: 'S', [f('n')]: 1 } }), 201).id;
  hiddenId = expectOk(await req('POST', '/v1/data-records', team.apiKey, { dataCollectionSimplyId: hidden.id, fields: { [hidden.fields.title!]: 'Hidden' } }), 201).id;

  const [readerRole, editorRole, elsewhereRole] = await Promise.all([
    createRole(server, team, { name: 'Reader', dataPermissions: [{ dataCollectionSimplyId: notes.id, level: 'READ' }] }),
    createRole(server, team, {
      name: 'Editor',
      dataPermissions: [{ dataCollectionSimplyId: notes.id, level: 'EDIT' }],
      fieldPermissions: [
        { dataFieldSimplyId: f('locked'), level: 'READ' },
        { dataFieldSimplyId: f('secret'), level: 'NONE' },
      ],
    }),
    createRole(server, team, { name: 'Elsewhere', dataPermissions: [{ dataCollectionSimplyId: hidden.id, level: 'EDIT' }] }),
  ]);
  const keys = await Promise.all([
    createApiKey(server, team, { name: 'reader', teamRoleSimplyId: readerRole, featurePermissions: [] }),
    createApiKey(server, team, { name: 'editor', teamRoleSimplyId: editorRole, featurePermissions: [] }),
    createApiKey(server, team, { name: 'no role', featurePermissions: [] }),
    createApiKey(server, team, { name: 'elsewhere', teamRoleSimplyId: elsewhereRole, featurePermissions: [] }),
  ]);
  [readerKey, editorKey, noRoleKey, elsewhereKey] = keys.map((k) => k.key) as [string, string, string, string];
});
afterAll(() => server?.close());

describe('a role with READ on the collection', () => {
  it('reads: list, get, search work with every field', async () => {
    const { reads } = routes(notes, noteId, {});
    for (const route of reads) {
      const res = await req(route.method, route.path, readerKey, route.body);
      const data = expectOk(res);
      const record = Array.isArray(data) ? data[0] : data;
      expect(record.fields, route.label).toEqual({ [f('title')]: 'Note', [f('locked')]: 'L', [f('secret')]: 'S', [f('n')]: 1 });
    }
  });

  it('writes: POST, PATCH, PUT, DELETE, batch create and create menu are 403 PERMISSION_DENIED; batch update/delete items 403', async () => {
    const { writes } = routes(notes, noteId, { [f('title')]: 'Changed' });
    await denied(writes, readerKey, 'reader');
    await expectBatchItemsDenied(readerKey, noteId, { [f('title')]: 'Changed' });
    await expectUnchanged();
  });

  it('a collection the role does not list is 403 for reads and writes', async () => {
    const { reads, writes } = routes(hidden, hiddenId, { [hidden.fields.title!]: 'x' });
    await denied([...reads, ...writes], readerKey, 'reader/hidden');
  });
});

describe('a role with EDIT on the collection, narrowed by field permissions', () => {
  it('a READ field is readable, a NONE field is left out of fields, fieldDefinitions and projections', async () => {
    const record = expectOk(await req('GET', `/v1/data-records/${noteId}?expand=fieldDefinitions,collection`, editorKey));
    expect(record.fields).toEqual({ [f('title')]: 'Note', [f('locked')]: 'L', [f('n')]: 1 });
    const res = await req('GET', `/v1/data-records/${noteId}?expand=fieldDefinitions,collection`, editorKey);
    expect(res.body.meta.expanded.fieldDefinitions.map((d: any) => d.dataFieldSimplyId).sort()).toEqual([f('title'), f('locked'), f('n')].sort());
    expect(res.body.meta.expanded.collection.fieldCount).toBe(3);
    const projected = expectOk(await req('GET', `/v1/data-records/${noteId}?fields=${f('secret')},${f('n')}`, editorKey));
    expect(projected.fields).toEqual({ [f('n')]: 1 });
    const list = expectOk(await req('GET', `/v1/data-records?dataCollectionSimplyId=${notes.id}&fields=${f('secret')}`, editorKey));
    expect(list[0].fields).toEqual({});
    const searched = expectOk(await req('POST', '/v1/data-records/search', editorKey, { dataCollectionSimplyId: notes.id, fields: [f('secret'), f('locked')] }));
    expect(searched[0].fields).toEqual({ [f('locked')]: 'L' });
  });

  it('filters: a READ field can be filtered on; a NONE field is 400 "not a field of this collection"', async () => {
    const ok = expectOk(await req('POST', '/v1/data-records/search', editorKey, { dataCollectionSimplyId: notes.id, filters: [{ field: f('locked'), operator: 'eq', value: 'l' }] }));
    expect(ok.map((r: any) => r.id)).toContain(noteId);
    const error = expectError(
      await req('POST', '/v1/data-records/search', editorKey, { dataCollectionSimplyId: notes.id, filters: [{ field: f('secret'), operator: 'eq', value: 'S' }] }),
      400,
      'VALIDATION_ERROR',
    );
    expect(error.details).toEqual([{ field: 'filters[0].field', message: expect.stringContaining('not a field') }]);
    // the admin key can filter on it
    const admin = expectOk(await req('POST', '/v1/data-records/search', team.apiKey, { dataCollectionSimplyId: notes.id, filters: [{ field: f('secret'), operator: 'eq', value: 'S' }] }));
    expect(admin.map((r: any) => r.id)).toEqual([noteId]);
  });

  it('writing a READ or NONE field is 403 (create, PATCH, PUT, create menu); other fields can be written', async () => {
    for (const column of ['locked', 'secret']) {
      const fields = { [f('title')]: 'By editor', [f(column)]: 'x' };
      const { writes } = routes(notes, noteId, fields);
      const single = writes.filter((r) => ['create', 'patch', 'put', 'create menu'].includes(r.label));
      await denied(single, editorKey, `editor ${column}`);
      // clearing counts as writing
      expectError(await req('PATCH', `/v1/data-records/${noteId}`, editorKey, { fields: { [f(column)]: null } }), 403, 'PERMISSION_DENIED', `clear ${column}`);
      // batch: per item
      const batch = expectOk(await req('POST', '/v1/data-records/batch', editorKey, { dataCollectionSimplyId: notes.id, records: [{ fields }, { fields: { [f('title')]: 'batch ok' } }] }));
      expect(batch).toMatchObject({ created: 1, failed: 1 });
      expect(batch.results[0]).toMatchObject({ ok: false, error: { code: 'PERMISSION_DENIED', status: 403 } });
      const update = expectOk(await req('PATCH', '/v1/data-records/batch', editorKey, { records: [{ dataRecordSimplyId: noteId, fields: { [f(column)]: 'y' } }] }));
      expect(update.results[0]).toMatchObject({ ok: false, error: { code: 'PERMISSION_DENIED', status: 403 } });
    }
    await expectUnchanged();

    // editable fields: create and update; the unreadable field keeps its value
    const created = expectOk(await req('POST', '/v1/data-records', editorKey, { dataCollectionSimplyId: notes.id, fields: { [f('title')]: 'Editor note', [f('n')]: 2 } }), 201);
    expect(created.fields).toEqual({ [f('title')]: 'Editor note', [f('n')]: 2 });
    const patched = expectOk(await req('PATCH', `/v1/data-records/${noteId}`, editorKey, { fields: { [f('n')]: 5 } }));
    expect(patched.fields).toEqual({ [f('title')]: 'Note', [f('locked')]: 'L', [f('n')]: 5 });
    expect(expectOk(await req('GET', `/v1/data-records/${noteId}`, team.apiKey)).fields[f('secret')]).toBe('S');
    expectOk(await req('PATCH', `/v1/data-records/${noteId}`, editorKey, { fields: { [f('n')]: 1 } }));
    // deleting is allowed with EDIT
    expect(expectOk(await req('DELETE', `/v1/data-records/${created.id}`, editorKey))).toMatchObject({ deleted: true });
  });

  it('another collection of the team is 403', async () => {
    const { reads, writes } = routes(hidden, hiddenId, { [hidden.fields.title!]: 'x' });
    await denied([...reads, ...writes], editorKey, 'editor/hidden');
    await expectBatchItemsDenied(editorKey, hiddenId, { [hidden.fields.title!]: 'x' });
  });
});

describe('credentials without record access', () => {
  it('a key with no team role is 403 on every record route', async () => {
    const { reads, writes } = routes(notes, noteId, { [f('title')]: 'x' });
    await denied([...reads, ...writes], noRoleKey, 'no role');
    expectError(await req('PATCH', '/v1/data-records/batch', noRoleKey, { records: [{ dataRecordSimplyId: noteId, fields: {} }] }), 403, 'PERMISSION_DENIED');
    expectError(await req('DELETE', '/v1/data-records/batch', noRoleKey, { dataRecordSimplyIds: [noteId] }), 403, 'PERMISSION_DENIED');
    await expectUnchanged();
  });

  it('a role without the collection is 403 on every record route of that collection', async () => {
    const { reads, writes } = routes(notes, noteId, { [f('title')]: 'x' });
    await denied([...reads, ...writes], elsewhereKey, 'elsewhere');
    await expectBatchItemsDenied(elsewhereKey, noteId, { [f('title')]: 'x' });
    await expectUnchanged();
    // while its own collection works
    expectOk(await req('GET', `/v1/data-records/${hiddenId}`, elsewhereKey));
  });

  it('a team member user with the READ role: reads work, writes 403', async () => {
    const role = await createRole(server, team, { name: 'Member reader', dataPermissions: [{ dataCollectionSimplyId: notes.id, level: 'READ' }] });
    const member = await addMember(server, team, { teamRoleSimplyId: role });
    const get = await server.request('GET', `/v1/data-records/${noteId}`, { token: member.token, teamId: team.teamSimplyId });
    expect(expectOk(get).id).toBe(noteId);
    const post = await server.request('POST', '/v1/data-records', { token: member.token, teamId: team.teamSimplyId, body: { dataCollectionSimplyId: notes.id, fields: { [f('title')]: 'x' } } });
    expectError(post, 403, 'PERMISSION_DENIED');
  });
});

describe('session tokens', () => {
  async function mint(token: string, oauthScopes?: string[]): Promise<{ token: string; oauthScopes: string[] }> {
    return expectOk(await req('POST', '/v1/session-tokens', token, oauthScopes ? { oauthScopes } : {}), 201);
  }

  it('records:read only: reads work, every write is 403', async () => {
    const session = await mint(team.apiKey, ['records:read']);
    expect(session.oauthScopes).toEqual(['records:read']);
    const { reads, writes } = routes(notes, noteId, { [f('title')]: 'x' });
    for (const route of reads) expectOk(await req(route.method, route.path, session.token, route.body));
    await denied(writes, session.token, 'records:read');
    expectError(await req('PATCH', '/v1/data-records/batch', session.token, { records: [{ dataRecordSimplyId: noteId, fields: { [f('n')]: 9 } }] }), 403, 'PERMISSION_DENIED');
    expectError(await req('DELETE', '/v1/data-records/batch', session.token, { dataRecordSimplyIds: [noteId] }), 403, 'PERMISSION_DENIED');
    await expectUnchanged();
  });

  it('the default scopes (schema:read, records:read) cannot write either', async () => {
    const session = await mint(team.apiKey);
    expect(session.oauthScopes).toEqual(['schema:read', 'records:read']);
    expectError(await req('POST', '/v1/data-records', session.token, { dataCollectionSimplyId: notes.id, fields: { [f('title')]: 'x' } }), 403, 'PERMISSION_DENIED');
    expectOk(await req('GET', `/v1/data-records/${noteId}`, session.token));
  });

  it('without records:read, reads (and writes) are 403', async () => {
    const session = await mint(team.apiKey, ['schema:read']);
    const { reads, writes } = routes(notes, noteId, { [f('title')]: 'x' });
    await denied([...reads, ...writes], session.token, 'schema:read');
    const writeOnly = await mint(team.apiKey, ['records:write']);
    await denied(reads, writeOnly.token, 'records:write only');
  });

  it('records:read + records:write: reads and writes work', async () => {
    const session = await mint(team.apiKey, ['records:read', 'records:write']);
    const created = expectOk(await req('POST', '/v1/data-records', session.token, { dataCollectionSimplyId: notes.id, fields: { [f('title')]: 'From session' } }), 201);
    expectOk(await req('PATCH', `/v1/data-records/${created.id}`, session.token, { fields: { [f('n')]: 3 } }));
    expectOk(await req('DELETE', `/v1/data-records/${created.id}`, session.token));
  });

  it('a token keeps its creator\'s team role: records:write is dropped for a READ-only creator, field permissions still apply', async () => {
    const fromReader = await mint(readerKey, ['records:read', 'records:write']);
    expect(fromReader.oauthScopes).toEqual(['records:read']);
    expectError(await req('PATCH', `/v1/data-records/${noteId}`, fromReader.token, { fields: { [f('n')]: 2 } }), 403, 'PERMISSION_DENIED');
    expectError(await req('GET', `/v1/data-records/${hiddenId}`, fromReader.token), 403, 'PERMISSION_DENIED');

    const fromEditor = await mint(editorKey, ['records:read', 'records:write']);
    expect(expectOk(await req('GET', `/v1/data-records/${noteId}`, fromEditor.token)).fields).not.toHaveProperty(f('secret'));
    expectError(await req('PATCH', `/v1/data-records/${noteId}`, fromEditor.token, { fields: { [f('locked')]: 'x' } }), 403, 'PERMISSION_DENIED');
    await expectUnchanged();
  });
});

describe('other teams', () => {
  it('another team\'s collection and record ids are 404 on every route, even with full access', async () => {
    const { reads, writes } = routes(otherNotes, otherNoteId, { [otherNotes.fields.title!]: 'x' });
    for (const route of [...reads, ...writes]) {
      expectError(await req(route.method, route.path, team.apiKey, route.body), 404, 'NOT_FOUND', route.label);
    }
    const update = expectOk(await req('PATCH', '/v1/data-records/batch', team.apiKey, { records: [{ dataRecordSimplyId: otherNoteId, fields: {} }] }));
    expect(update.results[0]).toMatchObject({ ok: false, error: { code: 'NOT_FOUND', status: 404 } });
    const del = expectOk(await req('DELETE', '/v1/data-records/batch', team.apiKey, { dataRecordSimplyIds: [otherNoteId] }));
    expect(del.results[0]).toMatchObject({ ok: false, error: { code: 'NOT_FOUND', status: 404 } });
    expect(expectOk(await req('GET', `/v1/data-records/${otherNoteId}`, other.apiKey)).name).toBe('Theirs');
  });

  it('a restricted key gets 404 (not 403) for another team\'s ids: existence does not leak', async () => {
    for (const token of [readerKey, elsewhereKey]) {
      expectError(await req('GET', `/v1/data-records/${otherNoteId}`, token), 404, 'NOT_FOUND');
      expectError(await req('GET', `/v1/data-records?dataCollectionSimplyId=${otherNotes.id}`, token), 404, 'NOT_FOUND');
    }
  });
});
