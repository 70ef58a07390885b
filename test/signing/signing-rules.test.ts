// The create-body rules, permissions and visibility of signing requests, over REST and GraphQL:
// every validation rule of the create body, read and update access on the source collection and
// its fields, OAuth-style scopes of session tokens, lists scoped to readable collections, filters,
// paging limits, another team's ids (404), and the document-template readiness gate.
import { beforeAll, afterAll, describe, expect, it } from 'vitest';
import type { CollectionFixture } from '../support/data-fixtures.ts';

import { expectError, expectGqlError, expectOk, gqlData } from '../support/expect-envelope.ts';
import { createApiKey, createRole, type TeamFixture } from '../support/fixtures.ts';
import { mintSessionToken } from '../support/credentials-fixtures.ts';
import { startServerWithTwoTeams } from '../support/record-fixtures.ts';
import type { TestServer } from '../support/server.ts';
import { contractCollection, contractRecord, createBody } from './signing-support.ts';

let server: TestServer;
let team: TeamFixture;
let other: TeamFixture;
let otherCollection: CollectionFixture;
let otherRecord: string;
let c: CollectionFixture;
let hidden: CollectionFixture;
let record: string;
let hiddenRecord: string;
let readerKey: string;
let editorKey: string;
let narrowKey: string;
let noRoleKey: string;

const req = (method: string, path: string, body?: unknown, token = team.apiKey) => server.request(method, path, { token, body });
const create = async (body: unknown, token = team.apiKey) => expectOk(await req('POST', '/v1/signing-requests', body, token), 201);

beforeAll(async () => {
  let otherRecordId: string;
  ({ server, team, other, otherCollection, otherRecordId } = await startServerWithTwoTeams());
  otherRecord = otherRecordId;
  c = await contractCollection(server, team);
  hidden = await contractCollection(server, team, 'Hidden contracts');
  record = await contractRecord(server, team.apiKey, c);
  hiddenRecord = await contractRecord(server, team.apiKey, hidden);
  const [reader, editor, narrow] = await Promise.all([
    createRole(server, team, { name: 'Reader', dataPermissions: [{ dataCollectionSimplyId: c.id, level: 'READ' }] }),
    createRole(server, team, { name: 'Editor', dataPermissions: [{ dataCollectionSimplyId: c.id, level: 'EDIT' }] }),
    createRole(server, team, {
      name: 'Narrow editor',
      dataPermissions: [{ dataCollectionSimplyId: c.id, level: 'EDIT' }],
      fieldPermissions: [
        { dataFieldSimplyId: c.fields.secret, level: 'NONE' },
        { dataFieldSimplyId: c.fields.signature, level: 'READ' },
      ],
    }),
  ]);
  const keys = await Promise.all([
    createApiKey(server, team, { name: 'reader', teamRoleSimplyId: reader, featurePermissions: [] }),
    createApiKey(server, team, { name: 'editor', teamRoleSimplyId: editor, featurePermissions: [] }),
    createApiKey(server, team, { name: 'narrow', teamRoleSimplyId: narrow, featurePermissions: [] }),
    createApiKey(server, team, { name: 'no role', featurePermissions: [] }),
  ]);
  [readerKey, editorKey, narrowKey, noRoleKey] = keys.map((k) => k.key) as [string, string, string, string];
});
afterAll(() => server?.close());

describe('create body rules', () => {
  const invalid: [string, (b: any) => unknown, string][] = [
    ['no review field', (b) => ({ ...b, reviewFieldSimplyIds: [] }), 'reviewFieldSimplyIds'],
    ['review fields missing', (b) => ({ ...b, reviewFieldSimplyIds: undefined }), 'reviewFieldSimplyIds'],
    ['no signer', (b) => ({ ...b, signers: [] }), 'signers'],
    ['signers missing', (b) => ({ ...b, signers: undefined }), 'signers'],
    ['signer without roleKey', (b) => ({ ...b, signers: [{ name: 'A', email: 'a@x.test' }] }), 'signers.0.roleKey'],
    ['signer without email or email field', (b) => ({ ...b, signers: [{ roleKey: 'a', name: 'A' }] }), 'signers.0.email'],
    ['signingOrder 0', (b) => ({ ...b, signers: [{ roleKey: 'a', email: 'a@x.test', signingOrder: 0 }] }), 'signers.0.signingOrder'],
    ['signingOrder not an integer', (b) => ({ ...b, signers: [{ roleKey: 'a', email: 'a@x.test', signingOrder: 1.5 }] }), 'signers.0.signingOrder'],
    ['duplicate roleKey', (b) => ({ ...b, signers: [{ roleKey: 'a', email: 'a@x.test' }, { roleKey: 'a', email: 'b@x.test' }] }), 'signers.1.roleKey'],
    ['fileTarget without fileFieldSimplyId', (b) => ({ ...b, fileTarget: { fileSimplyId: 'file-AAAA-BBBB-CCCC' } }), 'fileTarget.fileFieldSimplyId'],
    ['both expirationDays and expiresAt', (b) => ({ ...b, expiresAt: new Date(Date.now() + 86_400_000).toISOString() }), 'expiresAt'],
    ['expiresAt in the past', (b) => ({ ...b, expirationDays: undefined, expiresAt: '2020-01-01T00:00:00Z' }), 'expiresAt'],
    ['expiresAt not a date', (b) => ({ ...b, expirationDays: undefined, expiresAt: 'tomorrow' }), 'expiresAt'],
    ['expirationDays not an integer', (b) => ({ ...b, expirationDays: 2.5 }), 'expirationDays'],
    ['signingBaseUrl not http(s)', (b) => ({ ...b, signingBaseUrl: 'javascript:alert(1)' }), 'signingBaseUrl'],
    ['sendImmediately not a boolean', (b) => ({ ...b, sendImmediately: 'yes' }), 'sendImmediately'],
    ['unknown key', (b) => ({ ...b, colour: 'red' }), 'colour'],
    ['consentText key not a language tag', (b) => ({ ...b, consentText: { 'not a tag': 'x' } }), 'consentText'],
    ['malformed collection id', (b) => ({ ...b, sourceDataCollectionSimplyId: '42' }), 'sourceDataCollectionSimplyId'],
  ];
  it.each(invalid)('%s: 400 VALIDATION_ERROR naming %s', async (_label, change, field) => {
    const error = expectError(await req('POST', '/v1/signing-requests', change(createBody(c, record))), 400, 'VALIDATION_ERROR');
    expect(error.details?.map((d) => d.field)).toContain(field);
  });

  it('fields that the collection lacks, or of the wrong type, are 400 naming them', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ reviewFieldSimplyIds: [otherCollection.fields.label] }, 'reviewFieldSimplyIds[0]'],
      [{ signatureFieldSimplyIds: [c.fields.amount] }, 'signatureFieldSimplyIds[0]'],
      [{ signatureFieldSimplyIds: [hidden.fields.signature] }, 'signatureFieldSimplyIds[0]'],
      [{ fileTarget: { fileFieldSimplyId: c.fields.title } }, 'fileTarget.fileFieldSimplyId'],
      [{ fileTarget: { fileFieldSimplyId: c.fields.photo } }, 'fileTarget.fileFieldSimplyId'],
      [{ signers: [{ roleKey: 'a', emailFieldSimplyId: c.fields.title }] }, 'signers[0].emailFieldSimplyId'],
      [{ signers: [{ roleKey: 'a', emailFieldSimplyId: c.fields.signature }] }, 'signers[0].emailFieldSimplyId'],
      [{ signers: [{ roleKey: 'a', email: 'not an address' }] }, 'signers[0].email'],
    ];
    for (const [change, field] of cases) {
      const error = expectError(await req('POST', '/v1/signing-requests', { ...createBody(c, record), ...change }), 400, 'VALIDATION_ERROR', field);
      expect(error.details?.map((d) => d.field), field).toContain(field);
    }
    // nothing was half-written
    expect(await server.app.services.prisma.signingRequest.count({ where: { teamId: team.teamId } })).toBe(0);
  });

  it('defaults: sendImmediately true, signingOrder 1; names and emails read from the record', async () => {
    const body = createBody(c, record, {}, 'defaults');
    body.signers = [{ roleKey: 'tenant', nameFieldSimplyId: c.fields.signer_name, emailFieldSimplyId: c.fields.signer_email } as never];
    const created = await create(body);
    expect(created).toMatchObject({ status: 'sent', signers: [{ roleKey: 'tenant', name: 'Grace Hopper', signingOrder: 1, status: 'sent', email: expect.stringMatching(/^grace-/) }] });
  });
});

describe('signer references', () => {
  it('an internal team member must be a membership of the team; a linked constituent record must be readable and in the named collection', async () => {
    const membership = await server.app.services.prisma.teamMembership.findFirstOrThrow({ where: { teamId: team.teamId } });
    const otherMembership = await server.app.services.prisma.teamMembership.findFirstOrThrow({ where: { teamId: other.teamId } });
    const signer = (more: Record<string, unknown>) => createBody(c, record, { signers: [{ roleKey: 'a', email: 'a@signers.test', ...more }] });
    const created = await create(signer({ internalTeamUserLinkSimplyId: membership.simplyId }));
    expect(expectOk(await req('GET', `/v1/signing-requests/${created.id}`)).signers[0].internalTeamUserLinkSimplyId).toBe(membership.simplyId);
    expectError(await req('POST', '/v1/signing-requests', signer({ internalTeamUserLinkSimplyId: otherMembership.simplyId })), 404, 'NOT_FOUND');
    expectError(await req('POST', '/v1/signing-requests', signer({ internalTeamUserLinkSimplyId: 'nobody' })), 400, 'VALIDATION_ERROR');
    expectError(await req('POST', '/v1/signing-requests', signer({ linkedConstituentDataRecordSimplyId: otherRecord })), 404, 'NOT_FOUND');
    expectError(await req('POST', '/v1/signing-requests', signer({ linkedConstituentDataRecordSimplyId: hiddenRecord }), editorKey), 404, 'NOT_FOUND');
    expectError(await req('POST', '/v1/signing-requests', signer({ linkedConstituentDataRecordSimplyId: record, linkedConstituentDataCollectionSimplyId: hidden.id })), 404, 'NOT_FOUND');
    const linked = await create(signer({ linkedConstituentDataRecordSimplyId: record, linkedConstituentDataCollectionSimplyId: c.id }));
    expect(expectOk(await req('GET', `/v1/signing-requests/${linked.id}`)).signers[0].linkedConstituentDataRecordSimplyId).toBe(record);
  });
});

describe('permissions', () => {
  it('read access to the collection reads; update access is needed to create, resend or void (403)', async () => {
    const created = await create(createBody(c, record));
    expectOk(await req('GET', `/v1/signing-requests/${created.id}`, undefined, readerKey));
    expect(expectOk(await req('GET', '/v1/signing-requests', undefined, readerKey)).map((r: any) => r.id)).toContain(created.id);
    expectError(await req('POST', '/v1/signing-requests', createBody(c, record), readerKey), 403, 'PERMISSION_DENIED');
    expectError(await req('POST', `/v1/signing-requests/${created.id}/resend`, {}, readerKey), 403, 'PERMISSION_DENIED');
    expectError(await req('POST', `/v1/signing-requests/${created.id}/void`, {}, readerKey), 403, 'PERMISSION_DENIED');
    expectOk(await req('POST', `/v1/signing-requests/${created.id}/resend`, {}, editorKey));
    expectOk(await req('POST', `/v1/signing-requests/${created.id}/void`, {}, editorKey));
  });

  it('a review field the caller cannot read, or a signature field it cannot update, is 403', async () => {
    expectError(await req('POST', '/v1/signing-requests', createBody(c, record, { reviewFieldSimplyIds: [c.fields.secret] }), narrowKey), 403, 'PERMISSION_DENIED');
    expectError(await req('POST', '/v1/signing-requests', createBody(c, record, { signatureFieldSimplyIds: [c.fields.signature] }), narrowKey), 403, 'PERMISSION_DENIED');
    expectError(await req('POST', '/v1/signing-requests', createBody(c, record, { fileTarget: { fileFieldSimplyId: c.fields.document } }), readerKey), 403, 'PERMISSION_DENIED');
    await create(createBody(c, record, { signatureFieldSimplyIds: [c.fields.signed_on] }), narrowKey);
  });

  it('a collection the caller cannot read is 404, and its requests are invisible', async () => {
    const theirs = await create(createBody(hidden, hiddenRecord, { signatureFieldSimplyIds: null, reviewFieldSimplyIds: [hidden.fields.title] }));
    expectError(await req('GET', `/v1/signing-requests/${theirs.id}`, undefined, readerKey), 404, 'NOT_FOUND');
    expectError(await req('POST', `/v1/signing-requests/${theirs.id}/void`, {}, editorKey), 404, 'NOT_FOUND');
    expectError(await req('POST', '/v1/signing-requests', createBody(hidden, hiddenRecord, { signatureFieldSimplyIds: null, reviewFieldSimplyIds: [hidden.fields.title] }), editorKey), 404, 'NOT_FOUND');
    expect(expectOk(await req('GET', '/v1/signing-requests?limit=100', undefined, readerKey)).map((r: any) => r.id)).not.toContain(theirs.id);
    expectError(await req('GET', `/v1/signing-requests?sourceDataCollectionSimplyId=${hidden.id}`, undefined, readerKey), 404, 'NOT_FOUND');
    expectError(await req('GET', `/v1/signing-requests?sourceDataRecordSimplyId=${hiddenRecord}`, undefined, readerKey), 404, 'NOT_FOUND');
  });

  it('a key without a team role gets 403; session tokens need records:read to read and records:write to write', async () => {
    expectError(await req('GET', '/v1/signing-requests', undefined, noRoleKey), 403, 'PERMISSION_DENIED');
    expectError(await req('POST', '/v1/signing-requests', createBody(c, record), noRoleKey), 403, 'PERMISSION_DENIED');
    const readOnly = (await mintSessionToken(server, team.apiKey, { oauthScopes: ['records:read'] })).token;
    const noScopes = (await mintSessionToken(server, team.apiKey, { oauthScopes: [] })).token;
    const writer = (await mintSessionToken(server, team.apiKey, { oauthScopes: ['records:read', 'records:write'] })).token;
    const created = await create(createBody(c, record), writer);
    expectOk(await req('GET', `/v1/signing-requests/${created.id}`, undefined, readOnly));
    expectError(await req('GET', `/v1/signing-requests/${created.id}`, undefined, noScopes), 403, 'PERMISSION_DENIED');
    expectError(await req('POST', '/v1/signing-requests', createBody(c, record), readOnly), 403, 'PERMISSION_DENIED');
    expectError(await req('POST', `/v1/signing-requests/${created.id}/void`, {}, readOnly), 403, 'PERMISSION_DENIED');
  });

  it("another team's request, collection and record are 404, like missing ones", async () => {
    const created = await create(createBody(c, record));
    for (const path of [`/v1/signing-requests/${created.id}`, '/v1/signing-requests/sgr-AAAA-BBBB-CCCC']) expectError(await req('GET', path, undefined, other.apiKey), 404, 'NOT_FOUND');
    expectError(await req('POST', `/v1/signing-requests/${created.id}/resend`, {}, other.apiKey), 404, 'NOT_FOUND');
    expectError(await req('POST', `/v1/signing-requests/${created.id}/void`, {}, other.apiKey), 404, 'NOT_FOUND');
    expectError(await req('POST', '/v1/signing-requests', { ...createBody(c, record), sourceDataCollectionSimplyId: otherCollection.id }), 404, 'NOT_FOUND');
    expectError(await req('POST', '/v1/signing-requests', { ...createBody(c, otherRecord) }), 404, 'NOT_FOUND');
    expectError(await req('POST', '/v1/signing-requests', { ...createBody(c, hiddenRecord) }), 404, 'NOT_FOUND');
    expectError(await req('GET', `/v1/signing-requests?sourceDataCollectionSimplyId=${otherCollection.id}`), 404, 'NOT_FOUND');
    expectError(await req('GET', '/v1/signing-requests/not-an-id'), 400, 'VALIDATION_ERROR');
  });
});

describe('list', () => {
  it('filters by status, collection, record and signing profile; limit 1-100, default 25', async () => {
    const other2 = await contractRecord(server, team.apiKey, c);
    const a = await create(createBody(c, other2, { signingProfileSimplyId: 'profile-lease' }));
    const b = await create(createBody(c, other2, { sendImmediately: false }));
    const byRecord = expectOk(await req('GET', `/v1/signing-requests?sourceDataRecordSimplyId=${other2}`));
    expect(byRecord.map((r: any) => r.id)).toEqual([b.id, a.id]);
    expect(expectOk(await req('GET', `/v1/signing-requests?sourceDataRecordSimplyId=${other2}&status=created`)).map((r: any) => r.id)).toEqual([b.id]);
    expect(expectOk(await req('GET', `/v1/signing-requests?sourceDataRecordSimplyId=${other2}&status=sent`)).map((r: any) => r.id)).toEqual([a.id]);
    expect(expectOk(await req('GET', '/v1/signing-requests?signingProfileSimplyId=profile-lease')).map((r: any) => r.id)).toEqual([a.id]);
    expect(expectOk(await req('GET', `/v1/signing-requests?sourceDataCollectionSimplyId=${c.id}&limit=100`)).length).toBeGreaterThanOrEqual(2);
    const page = await req('GET', '/v1/signing-requests?limit=1&offset=1');
    expect(expectOk(page)).toHaveLength(1);
    expect(page.body.meta.pagination).toMatchObject({ limit: 1, offset: 1, hasMore: true });
    expect((await req('GET', '/v1/signing-requests')).body.meta.pagination.limit).toBe(25);
    for (const bad of ['limit=0', 'limit=101', 'offset=-1', 'status=finished']) expectError(await req('GET', `/v1/signing-requests?${bad}`), 400, 'VALIDATION_ERROR', bad);
  });
});

describe('document templates', () => {
  it('a template whose readiness has blocking issues is refused; a ready one is accepted', async () => {
    const template = expectOk(await req('POST', '/v1/content-templates', { name: 'Lease', textContent: 'Lease for {{title}}', dataCollectionSimplyId: c.id, templateScope: 'TEAM' }), 201);
    const refused = expectError(await req('POST', '/v1/signing-requests', createBody(c, record, { contentTemplateSimplyId: template.id })), 400, 'VALIDATION_ERROR');
    expect(refused.details).toEqual([expect.objectContaining({ field: 'contentTemplateSimplyId', message: expect.stringContaining('MISSING_DOCUMENT_SETTINGS') })]);
    expectOk(await req('PATCH', `/v1/content-templates/${template.id}`, { documentSettings: { pageSize: 'A4', orientation: 'PORTRAIT', marginsMm: { top: 20, right: 20, bottom: 20, left: 20 } } }));
    const created = await create(createBody(c, record, { contentTemplateSimplyId: template.id }));
    expect(expectOk(await req('GET', `/v1/signing-requests/${created.id}`)).contentTemplateSimplyId).toBe(template.id);
  });
});

describe('GraphQL', () => {
  const CREATE = `mutation($input: CreateSigningRequestInput!) { createSigningRequest(input: $input) { signingRequestSimplyId status signers { roleKey status } } }`;
  const GET = `query($id: String!) { signingRequest(signingRequestSimplyId: $id) { status signers { roleKey status events { eventType } } targets { targetType state } } }`;

  it('creates, reads, lists, resends and voids with the same rules', async () => {
    const body = createBody(c, record);
    const created = gqlData(await server.graphql(CREATE, { input: body }, { token: team.apiKey })).createSigningRequest;
    expect(created).toMatchObject({ status: 'sent', signers: [{ roleKey: 'tenant', status: 'sent' }, { roleKey: 'landlord', status: 'waiting' }] });
    const id = created.signingRequestSimplyId;
    const read = gqlData(await server.graphql(GET, { id }, { token: readerKey })).signingRequest;
    expect(read.signers[0].events.map((e: any) => e.eventType)).toEqual(['SENT']);
    expect(read.targets.map((t: any) => t.targetType)).toEqual(['SIGNATURE_FIELD', 'SIGNATURE_FIELD', 'SIGNATURE_FIELD']);
    const list = gqlData(await server.graphql(`{ signingRequests(limit: 5, status: "sent") { nodes { signingRequestSimplyId } pagination { limit } } }`, {}, { token: team.apiKey })).signingRequests;
    expect(list.pagination.limit).toBe(5);
    const resent = gqlData(await server.graphql(`mutation($id: String!) { resendSigningRequest(signingRequestSimplyId: $id) { resentSignerSimplyIds } }`, { id }, { token: team.apiKey }));
    expect(resent.resendSigningRequest.resentSignerSimplyIds).toHaveLength(1);
    const voided = gqlData(await server.graphql(`mutation($id: String!) { voidSigningRequest(signingRequestSimplyId: $id, input: { reason: "x" }) { status voidReason } }`, { id }, { token: team.apiKey }));
    expect(voided.voidSigningRequest).toEqual({ status: 'voided', voidReason: 'x' });
    expectGqlError(await server.graphql(`mutation($id: String!) { voidSigningRequest(signingRequestSimplyId: $id) { status } }`, { id }, { token: team.apiKey }), 'VALIDATION_ERROR', 400);

    expectGqlError(await server.graphql(CREATE, { input: { ...body, signers: [] } }, { token: team.apiKey }), 'VALIDATION_ERROR', 400);
    expectGqlError(await server.graphql(CREATE, { input: { ...body, reviewFieldSimplyIds: [] } }, { token: team.apiKey }), 'VALIDATION_ERROR', 400);
    expectGqlError(await server.graphql(CREATE, { input: { ...body, fileTarget: {} } }, { token: team.apiKey }), 'VALIDATION_ERROR', 400);
    expectGqlError(await server.graphql(CREATE, { input: body }, { token: readerKey }), 'PERMISSION_DENIED', 403);
    expectGqlError(await server.graphql(GET, { id }, { token: other.apiKey }), 'NOT_FOUND', 404);
    expectGqlError(await server.graphql(`{ signingSession(signingToken: "svc_sgn_nothing-here-xxxxxxxxxxxxxxxx") { status } }`, {}, {}), 'NOT_FOUND', 404);
  });
});


