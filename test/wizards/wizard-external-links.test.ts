// External-access links (docs/api/data-wizards.md "External-access links"): creating one (the
// secret shown once, stored as its SHA-256 only), listing and revoking them, the rules and limits,
// who may, another team's ids; and the form its url opens, over plain HTTPS: the page and its
// policy, what it shows, a submission (the run, the use counted, the completion event), a form sent
// twice, one that fails, links that open nothing (all one 404), concurrent submissions of a
// one-use link, and the rate limit. test/wizards/wizard-external-form-browser.test.ts drives the
// form in Chromium.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCollection, type CollectionFixture } from '../support/data-fixtures.ts';
import { expectError, expectGqlError, expectOk, gqlData } from '../support/expect-envelope.ts';
import { addMember, createApiKey, createRole, createTeam, startServerWithTeam, type TeamFixture } from '../support/fixtures.ts';
import { oauthToken } from '../support/oauth-fixtures.ts';
import { createRecord, readRecord } from '../support/record-fixtures.ts';
import { startTestServer, type TestResponse, type TestServer } from '../support/server.ts';
import { createWizard, ID, requiredLink, updateTask } from '../support/wizard-fixtures.ts';

let server: TestServer;
let team: TeamFixture;
let other: TeamFixture;
let people: CollectionFixture;
let pets: CollectionFixture;
/** a key with RUN everywhere and the wizard feature at edit level: it may hand out links */
let maker: { key: string; id: string };
let wizard: string;
let otherWizard: string;
let otherRecord: string;

const LINK_KEYS = ['createdAt', 'createdBy', 'dataRecordSimplyId', 'dataWizardExternalAccessLinkSimplyId', 'dataWizardSimplyId', 'expiresAt', 'id', 'label', 'lastUsedAt', 'maxUses', 'revokedAt', 'status', 'useCount'];
const LINK_ID = new RegExp(`^wxl-${ID}$`);
const DAY = 24 * 60 * 60 * 1000;
const POLICY = /^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/]+=*'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'$/;

function call(method: string, path: string, body?: unknown, token = maker.key, teamId?: string): Promise<TestResponse> {
  return server.request(method, path, { token, teamId, body });
}

const links = (w = wizard) => `/v1/data-wizards/${w}/external-access-links`;

async function newRecord(fields: Record<string, unknown> = {}): Promise<string> {
  return (await createRecord(server, team.apiKey, people.id, fields)).id;
}

async function newLink(body: Record<string, unknown>, w = wizard): Promise<any> {
  return expectOk(await call('POST', links(w), body), 201);
}

/** the path of a link's form (the url without the server's base) */
const formPath = (url: string) => new URL(url).pathname;
const secretOf = (url: string) => formPath(url).split('/').pop()!;

async function openForm(url: string): Promise<{ res: TestResponse; token: string }> {
  const res = await server.request('GET', formPath(url));
  return { res, token: /name="formToken" value="([^"]+)"/.exec(res.text)?.[1] ?? '' };
}

function submit(url: string, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<TestResponse> {
  return server.request('POST', formPath(url), { rawBody: new URLSearchParams(fields).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers } });
}

const linkRow = (id: string) => server.app.services.prisma.dataWizardExternalLink.findFirstOrThrow({ where: { teamId: team.teamId, simplyId: id } });
const runsBy = (linkId: string) => server.app.services.prisma.dataWizardInstance.findMany({ where: { teamId: team.teamId, actorId: linkId }, orderBy: { id: 'asc' } });

beforeAll(async () => {
  // the form is public: its requests take from the budget of callers without a credential
  ({ server, team } = await startServerWithTeam({ env: { RATE_LIMIT_ANONYMOUS_PER_MINUTE: 100_000 } }));
  other = await createTeam(server);
  people = await createCollection(server, team, {
    name: 'People',
    fields: {
      first_name: { dataType: 'PLAIN_TEXT', title: 'First name' },
      email: { dataType: 'EMAIL_ADDRESS', title: 'Email' },
      age: { dataType: 'NUMBER', title: 'Age' },
      internal: { dataType: 'PLAIN_TEXT', title: 'Internal note' },
    },
  });
  pets = await createCollection(server, team, { name: 'Pets', fields: { species: 'PLAIN_TEXT' } });
  const role = await createRole(server, team, { name: 'Link maker', dataFullAccess: 'EDIT', dataPermissions: [{ dataCollectionSimplyId: '*', level: 'RUN' }] });
  maker = await createApiKey(server, team, { name: 'link maker', teamRoleSimplyId: role, featurePermissions: ['TEAM_ADMIN_DATA_WIZARDS:EDIT'] });
  wizard = (await createWizard(server, team.apiKey, {
    name: { en: 'Update your details', de: 'Ihre Angaben' },
    dataCollectionSimplyId: people.id,
    steps: [
      { title: 'About you', tasks: [updateTask('Name and email', requiredLink(people.fields.first_name!), people.fields.email!)] },
      { title: 'More', tasks: [updateTask('Age', people.fields.age!), { type: 'DISPLAY', title: 'Thanks', config: { body: 'We keep this private.' } }] },
    ],
  })).dataWizardSimplyId;
  const theirs = await createCollection(server, other, { name: 'Theirs', fields: { x: 'PLAIN_TEXT' } });
  otherWizard = (await createWizard(server, other.apiKey, { name: 'Theirs', dataCollectionSimplyId: theirs.id, steps: [{ title: 'Only', tasks: [updateTask('x', theirs.fields.x!)] }] })).dataWizardSimplyId;
  otherRecord = (await createRecord(server, other.apiKey, theirs.id, {})).id;
});
afterAll(() => server?.close());

describe('POST …/external-access-links', () => {
  it('creates a link (201) whose url holds the secret once; only its SHA-256 is stored', async () => {
    const record = await newRecord();
    const before = Date.now();
    const res = await call('POST', links(), { dataRecordSimplyId: record, label: '  Ada, address update  ' });
    const link = expectOk(res, 201);
    expect(Object.keys(link).sort()).toEqual([...LINK_KEYS, 'url'].sort());
    expect(link).toMatchObject({ dataWizardSimplyId: wizard, dataRecordSimplyId: record, label: 'Ada, address update', status: 'ACTIVE', useCount: 0, maxUses: null, revokedAt: null, lastUsedAt: null, createdBy: { kind: 'API_KEY', id: maker.id } });
    expect(link.id).toMatch(LINK_ID);
    expect(link.dataWizardExternalAccessLinkSimplyId).toBe(link.id);
    expect(link.url).toMatch(new RegExp(`^${server.baseUrl.replace(/[.]/g, '\\.')}/wizard-links/svc_wxl_[A-Za-z0-9_-]{43}$`));
    const expires = new Date(link.expiresAt).getTime();
    expect(expires).toBeGreaterThanOrEqual(before + 7 * DAY - 1000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 7 * DAY + 1000);

    const secret = secretOf(link.url);
    const row = await linkRow(link.id);
    expect(row.tokenHash).toBe(createHash('sha256').update(secret).digest('hex'));
    expect(JSON.stringify(row, (_k, v) => (typeof v === 'bigint' ? String(v) : v))).not.toContain(secret.slice('svc_wxl_'.length, 20));
    const { rows } = await server.app.services.pool.query(`SELECT * FROM "DataWizardExternalLink" WHERE "tokenHash" = $1`, [row.tokenHash]);
    expect(Object.values(rows[0]).some((v) => typeof v === 'string' && v.includes(secret))).toBe(false);

    // never shown again: not in the list, not in GraphQL
    const list = await call('GET', links());
    expect(list.text).not.toContain(secret);
    const listed = expectOk(list).find((l: any) => l.id === link.id);
    expect(Object.keys(listed).sort()).toEqual(LINK_KEYS);
    const gql = gqlData(await server.graphql(`query ($w: String!) { dataWizardExternalAccessLinks(dataWizardSimplyId: $w, limit: 100) { nodes { id url } } }`, { w: wizard }, { token: maker.key }));
    expect(gql.dataWizardExternalAccessLinks.nodes.find((l: any) => l.id === link.id)).toEqual({ id: link.id, url: null });
  });

  it('takes expiresAt (up to 90 days), maxUses (1-1000) and a label; a team admin may create too', async () => {
    const record = await newRecord();
    const at = new Date(Date.now() + 3 * DAY).toISOString();
    expect(await newLink({ dataRecordSimplyId: record, expiresAt: at, maxUses: 3, label: null })).toMatchObject({ expiresAt: at, maxUses: 3, label: null });
    expect(await newLink({ dataRecordSimplyId: record, expiresAt: new Date(Date.now() + 89 * DAY).toISOString(), maxUses: 1000 })).toMatchObject({ maxUses: 1000 });
    const byAdmin = expectOk(await call('POST', links(), { dataRecordSimplyId: record }, team.userToken, team.teamSimplyId), 201);
    expect(byAdmin.createdBy).toEqual({ kind: 'USER', id: team.userSimplyId });
  });

  it('names what is wrong with a body (400), before anything is created', async () => {
    const record = await newRecord();
    const cases: [unknown, string][] = [
      [{}, 'dataRecordSimplyId'],
      [{ dataRecordSimplyId: 12 }, 'dataRecordSimplyId'],
      [{ dataRecordSimplyId: 'nope' }, 'dataRecordSimplyId'],
      [{ dataRecordSimplyId: record, colour: 'red' }, 'colour'],
      [{ dataRecordSimplyId: record, expiresAt: 'tomorrow' }, 'expiresAt'],
      [{ dataRecordSimplyId: record, expiresAt: '2026-12-24T18:00:00' }, 'expiresAt'],
      [{ dataRecordSimplyId: record, expiresAt: new Date(Date.now() - 1000).toISOString() }, 'expiresAt'],
      [{ dataRecordSimplyId: record, expiresAt: new Date(Date.now() + 91 * DAY).toISOString() }, 'expiresAt'],
      [{ dataRecordSimplyId: record, maxUses: 0 }, 'maxUses'],
      [{ dataRecordSimplyId: record, maxUses: 1001 }, 'maxUses'],
      [{ dataRecordSimplyId: record, maxUses: 1.5 }, 'maxUses'],
      [{ dataRecordSimplyId: record, maxUses: '2' }, 'maxUses'],
      [{ dataRecordSimplyId: record, label: 'x'.repeat(201) }, 'label'],
      [{ dataRecordSimplyId: record, label: 5 }, 'label'],
    ];
    const count = await server.app.services.prisma.dataWizardExternalLink.count({ where: { teamId: team.teamId } });
    for (const [body, field] of cases) {
      const error = expectError(await call('POST', links(), body), 400, 'VALIDATION_ERROR', JSON.stringify(body));
      expect(error.details?.map((d) => d.field), JSON.stringify(body)).toContain(field);
    }
    expectError(await call('POST', links(), [1]), 400, 'VALIDATION_ERROR');
    expect(await server.app.services.prisma.dataWizardExternalLink.count({ where: { teamId: team.teamId } })).toBe(count);
  });

  it("404s a record that is not the wizard's collection's, another team's, or none; 409 WIZARD_NOT_READY with the blockers", async () => {
    const pet = (await createRecord(server, team.apiKey, pets.id, {})).id;
    expectError(await call('POST', links(), { dataRecordSimplyId: pet }), 404, 'NOT_FOUND');
    expectError(await call('POST', links(), { dataRecordSimplyId: otherRecord }), 404, 'NOT_FOUND');
    expectError(await call('POST', links(), { dataRecordSimplyId: 'ZZZZ-ZZZZ-ZZZZ' }), 404, 'NOT_FOUND');
    const empty = (await createWizard(server, team.apiKey, { name: 'No steps yet', dataCollectionSimplyId: people.id })).dataWizardSimplyId;
    const error = expectError(await call('POST', links(empty), { dataRecordSimplyId: await newRecord() }), 409, 'WIZARD_NOT_READY');
    expect(error.details).toEqual([expect.objectContaining({ code: 'NO_STEPS', field: 'steps' })]);
  });

  it('the creator must hold RUN and read the collected fields: a link delegates both', async () => {
    const record = await newRecord();
    // the wizard feature and full edit access, but no RUN
    const noRun = (await createApiKey(server, team, { name: 'no run', teamRoleSimplyId: await createRole(server, team, { name: 'Editors', dataFullAccess: 'EDIT' }), featurePermissions: ['TEAM_ADMIN_DATA_WIZARDS:EDIT'] })).key;
    expect(expectError(await call('POST', links(), { dataRecordSimplyId: record }, noRun), 403, 'PERMISSION_DENIED').message).toContain('RUN');
    const blindRole = await createRole(server, team, { name: 'Runs but cannot read emails', dataPermissions: [{ dataCollectionSimplyId: people.id, level: 'RUN' }] });
    const { prisma } = server.app.services;
    const roleRow = await prisma.teamRole.findUniqueOrThrow({ where: { teamId_simplyId: { teamId: team.teamId, simplyId: blindRole } } });
    await prisma.teamRoleFieldPermission.create({ data: { teamId: team.teamId, teamRoleId: roleRow.id, dataFieldSimplyId: people.fields.email!, level: 'NONE' } });
    const blind = (await createApiKey(server, team, { name: 'email-blind', teamRoleSimplyId: blindRole, featurePermissions: ['TEAM_ADMIN_DATA_WIZARDS:EDIT'] })).key;
    expect(expectError(await call('POST', links(), { dataRecordSimplyId: record }, blind), 403, 'PERMISSION_DENIED').message).toContain(people.fields.email!);
  });
});

describe('GET and DELETE …/external-access-links', () => {
  it('lists newest first with meta.pagination; DELETE revokes at once, again changes nothing', async () => {
    const w = (await createWizard(server, team.apiKey, { name: 'Listed', dataCollectionSimplyId: people.id, steps: [{ title: 'One', tasks: [updateTask('Name', people.fields.first_name!)] }] })).dataWizardSimplyId;
    const record = await newRecord();
    const made: any[] = [];
    for (const label of ['first', 'second', 'third']) made.push(await newLink({ dataRecordSimplyId: record, label }, w));
    const res = await call('GET', `${links(w)}?limit=2`);
    expect(expectOk(res).map((l: any) => l.label)).toEqual(['third', 'second']);
    expect(res.body.meta.pagination).toEqual({ total: 3, limit: 2, offset: 0, hasMore: true });

    const revoke = `${links(w)}/${made[1].id}`;
    expect(expectOk(await call('DELETE', revoke))).toEqual({ id: made[1].id, revoked: true });
    const revoked = expectOk(await call('GET', links(w))).find((l: any) => l.id === made[1].id);
    expect(revoked.status).toBe('REVOKED');
    expect(revoked.revokedAt).not.toBeNull();
    expectOk(await call('DELETE', revoke));
    expect(expectOk(await call('GET', links(w))).find((l: any) => l.id === made[1].id).revokedAt).toBe(revoked.revokedAt);
    expect((await openForm(made[1].url)).res.status).toBe(404);
    expect((await openForm(made[0].url)).res.status).toBe(200);

    // another wizard's link, another team's wizard, a link that does not exist: 404; a malformed id: 400
    expectError(await call('DELETE', `${links()}/${made[0].id}`), 404, 'NOT_FOUND');
    expectError(await call('DELETE', `${links(otherWizard)}/${made[0].id}`), 404, 'NOT_FOUND');
    expectError(await call('DELETE', `${links(w)}/wxl-ZZZZ-ZZZZ-ZZZZ`), 404, 'NOT_FOUND');
    expectError(await call('DELETE', `${links(w)}/17`), 400, 'VALIDATION_ERROR');
    expectError(await call('GET', links(otherWizard)), 404, 'NOT_FOUND');
    expectError(await call('POST', links(otherWizard), { dataRecordSimplyId: otherRecord }), 404, 'NOT_FOUND');
    expectError(await call('GET', `${links(w)}?limit=101`), 400, 'VALIDATION_ERROR');
  });

  it('GraphQL: create (with the url) and revoke', async () => {
    const record = await newRecord();
    const created = gqlData(
      await server.graphql(`mutation ($w: String!, $input: DataWizardExternalAccessLinkInput!) { createDataWizardExternalAccessLink(dataWizardSimplyId: $w, input: $input) { id url status maxUses label } }`, { w: wizard, input: { dataRecordSimplyId: record, maxUses: 2, label: 'via GraphQL' } }, { token: maker.key }),
    ).createDataWizardExternalAccessLink;
    expect(created).toMatchObject({ status: 'ACTIVE', maxUses: 2, label: 'via GraphQL' });
    expect(created.url).toContain('/wizard-links/svc_wxl_');
    const revoke = `mutation ($w: String!, $l: String!) { revokeDataWizardExternalAccessLink(dataWizardSimplyId: $w, dataWizardExternalAccessLinkSimplyId: $l) }`;
    expect(gqlData(await server.graphql(revoke, { w: wizard, l: created.id }, { token: maker.key })).revokeDataWizardExternalAccessLink).toBe(true);
    expectGqlError(await server.graphql(`mutation ($w: String!, $input: DataWizardExternalAccessLinkInput!) { createDataWizardExternalAccessLink(dataWizardSimplyId: $w, input: $input) { id } }`, { w: wizard, input: { dataRecordSimplyId: record, expiresAt: 'soon' } }, { token: maker.key }), 'VALIDATION_ERROR', 400);
  });

  it('the privileged tier: view to list, edit to create and revoke; scoped tokens never', async () => {
    const record = await newRecord();
    const link = await newLink({ dataRecordSimplyId: record });
    const viewerRole = await createRole(server, team, { name: 'Viewer runner', dataFullAccess: 'EDIT', dataPermissions: [{ dataCollectionSimplyId: '*', level: 'RUN' }] });
    const viewer = (await createApiKey(server, team, { name: 'wizard viewer', teamRoleSimplyId: viewerRole, featurePermissions: ['TEAM_ADMIN_DATA_WIZARDS:VIEW'] })).key;
    const plain = (await createApiKey(server, team, { name: 'runner without the feature', teamRoleSimplyId: viewerRole, featurePermissions: [] })).key;
    const session = expectOk(await server.request('POST', '/v1/session-tokens', { token: team.apiKey, body: { expiresInMinutes: 5, oauthScopes: ['schema:read', 'records:read', 'records:write'] } }), 201).token;
    const oauth = await oauthToken(server, team, 'schema:read records:read records:write wizards:run admin:read');
    const member = await addMember(server, team);
    const requests: [string, string, unknown][] = [
      ['GET', links(), undefined],
      ['POST', links(), { dataRecordSimplyId: record }],
      ['DELETE', `${links()}/${link.id}`, undefined],
    ];
    expectOk(await call('GET', links(), undefined, viewer));
    for (const [method, path, body] of requests) {
      if (method !== 'GET') expectError(await call(method, path, body, viewer), 403, 'PERMISSION_DENIED', `viewer ${method}`);
      expectError(await call(method, path, body, plain), 403, 'PERMISSION_DENIED', `plain ${method}`);
      expectError(await call(method, path, body, member.token, team.teamSimplyId), 403, 'PERMISSION_DENIED', `member ${method}`);
      expectError(await call(method, path, body, session), 403, 'PERMISSION_DENIED', `session ${method}`);
      expect((await call(method, path, body, oauth)).status, `oauth ${method}`).toBe(403);
      expectError(await call(method, path, body, 'svc_live_nope'), 401, 'UNAUTHENTICATED');
    }
    expect((await linkRow(link.id)).revokedAt).toBeNull();
  });
});

describe('the form a link opens', () => {
  it('is a page of its own policy: every step, inputs typed by data type, values escaped, only collected fields pre-filled', async () => {
    const record = await newRecord({ [people.fields.first_name!]: 'Ada "<b>Lovelace</b>"', [people.fields.age!]: 36, [people.fields.internal!]: 'do not show outsiders' });
    const link = await newLink({ dataRecordSimplyId: record });
    const { res, token } = await openForm(link.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toMatch(POLICY);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('set-cookie')).toBeNull();
    expect(token).toMatch(/^\d+\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}$/);
    const html = res.text;
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain('<h1>Update your details</h1>');
    expect(html).toContain('Step 1: About you');
    expect(html).toContain('Step 2: More');
    expect(html).toContain('We keep this private.');
    expect(html).toContain(`name="f.${people.fields.first_name}" required aria-required="true" value="Ada &quot;&lt;b&gt;Lovelace&lt;/b&gt;&quot;"`);
    expect(html).toMatch(new RegExp(`<input type="email"[^>]*name="f.${people.fields.email}"`));
    expect(html).toMatch(new RegExp(`<input type="number"[^>]*name="f.${people.fields.age}"[^>]*value="36"`));
    expect(html).not.toContain('do not show outsiders');
    expect(html).not.toContain('<b>Lovelace');
    // the reader's language
    expect((await server.request('GET', formPath(link.url), { headers: { 'accept-language': 'de-CH, en;q=0.5' } })).text).toContain('<h1>Ihre Angaben</h1>');
    expect((await server.request('HEAD', formPath(link.url))).status).toBe(200);
    expect((await server.request('PUT', formPath(link.url))).status).toBe(405);
  });

  it('a submission runs the wizard as the link: the record changes, a run and a completion event are recorded, a use counted; the same form again changes nothing', async () => {
    const record = await newRecord({ [people.fields.first_name!]: 'Old' });
    const link = await newLink({ dataRecordSimplyId: record, maxUses: 5 });
    const { token } = await openForm(link.url);
    const form = { formToken: token, [`f.${people.fields.first_name}`]: 'Grace', [`f.${people.fields.email}`]: 'grace@example.com', [`f.${people.fields.age}`]: '85' };
    const res = await submit(link.url, form);
    expect(res.status).toBe(200);
    expect(res.text).toContain('your answers were saved');
    expect(res.headers.get('content-security-policy')).toMatch(POLICY);
    expect((await readRecord(server, team.apiKey, record)).fields).toMatchObject({ [people.fields.first_name!]: 'Grace', [people.fields.email!]: 'grace@example.com', [people.fields.age!]: 85 });
    const [run] = await runsBy(link.id);
    expect(run).toMatchObject({ status: 'COMPLETED', actorKind: 'PUBLIC_LINK', actorId: link.id });
    const instance = expectOk(await call('GET', `/v1/data-wizards/${wizard}/instances/${run!.simplyId}`));
    expect(instance).toMatchObject({ actorKind: 'PUBLIC_LINK', actorId: link.id, dataRecordSimplyId: record, formData: { [people.fields.first_name!]: 'Grace', [people.fields.age!]: '85' } });
    const event = await server.app.services.prisma.domainEvent.findUniqueOrThrow({ where: { eventId: `wizard:${run!.simplyId}:completion:v1` } });
    expect(event.eventType).toBe('WIZARD_COMPLETED');
    expect((event.payload as any).actor).toMatchObject({ kind: 'PUBLIC_LINK', id: link.id });
    let row = await linkRow(link.id);
    expect(row.useCount).toBe(1);
    expect(row.lastUsedAt).not.toBeNull();

    // sent again (a double click, a reload): the first run's answer, no second run or use
    expect((await submit(link.url, { ...form, [`f.${people.fields.first_name}`]: 'Twice' })).status).toBe(200);
    expect(await runsBy(link.id)).toHaveLength(1);
    row = await linkRow(link.id);
    expect(row.useCount).toBe(1);
    expect((await readRecord(server, team.apiKey, record)).fields[people.fields.first_name!]).toBe('Grace');
    const listed = expectOk(await call('GET', links())).find((l: any) => l.id === link.id);
    expect(listed).toMatchObject({ useCount: 1, status: 'ACTIVE' });
    expect(listed.lastUsedAt).not.toBeNull();
  });

  it('a failing run shows the form again with 422 naming the fields; nothing changes, no use is counted', async () => {
    const record = await newRecord({ [people.fields.first_name!]: 'Kept' });
    const link = await newLink({ dataRecordSimplyId: record, maxUses: 1 });
    const { token } = await openForm(link.url);
    const res = await submit(link.url, { formToken: token, [`f.${people.fields.first_name}`]: '', [`f.${people.fields.email}`]: 'not an <email>', [`f.${people.fields.age}`]: '1.5' });
    expect(res.status).toBe(422);
    expect(res.text).toContain('Nothing was saved');
    expect(res.text).toContain(`id="e-${people.fields.first_name}"`);
    expect(res.text).toContain(`id="e-${people.fields.email}"`);
    expect(res.text).toContain('value="not an &lt;email&gt;"');
    expect(res.text).not.toContain('not an <email>');
    expect((await readRecord(server, team.apiKey, record)).fields[people.fields.first_name!]).toBe('Kept');
    const runs = await runsBy(link.id);
    expect(runs.map((r) => r.status)).toEqual(['FAILED']);
    expect((await linkRow(link.id)).useCount).toBe(0);
    // the re-rendered form carries a fresh token that works
    const again = /name="formToken" value="([^"]+)"/.exec(res.text)![1]!;
    expect((await submit(link.url, { formToken: again, [`f.${people.fields.first_name}`]: 'Fixed', [`f.${people.fields.email}`]: '', [`f.${people.fields.age}`]: '' })).status).toBe(200);
    expect((await readRecord(server, team.apiKey, record)).fields[people.fields.first_name!]).toBe('Fixed');
    // one use, and it is spent: the link opens nothing now
    expect((await openForm(link.url)).res.status).toBe(404);
  });

  it('a form this server did not render for the link (400) or one sent from another site (403) runs nothing', async () => {
    const record = await newRecord();
    const link = await newLink({ dataRecordSimplyId: record });
    const other = await newLink({ dataRecordSimplyId: record });
    const { token: othersToken } = await openForm(other.url);
    const { token } = await openForm(link.url);
    const values = { [`f.${people.fields.first_name}`]: 'Mallory' };
    for (const formToken of [undefined, '', 'x', othersToken, token.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')), `1.${token.split('.').slice(1).join('.')}`]) {
      const res = await submit(link.url, formToken === undefined ? values : { ...values, formToken });
      expect(res.status, String(formToken)).toBe(400);
      expect(res.text).toContain('check your answers and submit it again');
    }
    expect((await submit(link.url, { ...values, formToken: token }, { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    const json = await server.request('POST', formPath(link.url), { body: { formToken: token, ...values } });
    expect(json.status).toBe(400);
    expect(await runsBy(link.id)).toHaveLength(0);
    expect((await readRecord(server, team.apiKey, record)).fields[people.fields.first_name!]).toBeUndefined();
    const big = await server.request('POST', formPath(link.url), { rawBody: `formToken=${token}&x=${'a'.repeat(1024 * 1024 + 10)}`, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(big.status).toBe(413);
  });

  it('unknown, malformed, revoked, expired and used-up links, and a deleted record, all answer the same 404 page', async () => {
    const record = await newRecord();
    const live = await newLink({ dataRecordSimplyId: record });
    const revoked = await newLink({ dataRecordSimplyId: record });
    expectOk(await call('DELETE', `${links()}/${revoked.id}`));
    const expired = await newLink({ dataRecordSimplyId: record });
    await server.app.services.prisma.dataWizardExternalLink.updateMany({ where: { teamId: team.teamId, simplyId: expired.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const usedUp = await newLink({ dataRecordSimplyId: record, maxUses: 1 });
    await server.app.services.prisma.dataWizardExternalLink.updateMany({ where: { teamId: team.teamId, simplyId: usedUp.id }, data: { useCount: 1 } });
    const gone = await newRecord();
    const onDeleted = await newLink({ dataRecordSimplyId: gone });
    expectOk(await server.request('DELETE', `/v1/data-records/${gone}`, { token: team.apiKey }));

    const { token } = await openForm(live.url);
    const unknown = `${server.baseUrl}/wizard-links/svc_wxl_${'A'.repeat(43)}`;
    const pages = [];
    for (const url of [unknown, `${server.baseUrl}/wizard-links/`, `${server.baseUrl}/wizard-links/nope`, revoked.url, expired.url, usedUp.url, onDeleted.url]) {
      const get = await server.request('GET', formPath(url));
      const post = await submit(url, { formToken: token, [`f.${people.fields.first_name}`]: 'x' });
      expect([get.status, post.status], url).toEqual([404, 404]);
      expect(get.headers.get('content-security-policy')).toMatch(POLICY);
      pages.push(get.text, post.text);
    }
    expect(new Set(pages).size).toBe(1);
    expect(pages[0]).toContain('Form not available');
  });

  it('N concurrent submissions of a one-use link: exactly one runs', async () => {
    const record = await newRecord();
    const link = await newLink({ dataRecordSimplyId: record, maxUses: 1 });
    const tokens = await Promise.all(Array.from({ length: 6 }, async () => (await openForm(link.url)).token));
    const answers = await Promise.all(tokens.map((formToken, i) => submit(link.url, { formToken, [`f.${people.fields.first_name}`]: `racer ${i}` })));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, 404, 404, 404, 404, 404]);
    const runs = await runsBy(link.id);
    expect(runs.map((r) => r.status)).toEqual(['COMPLETED']);
    expect((await linkRow(link.id)).useCount).toBe(1);
    const winner = answers.findIndex((a) => a.status === 200);
    expect((await readRecord(server, team.apiKey, record)).fields[people.fields.first_name!]).toBe(`racer ${winner}`);
  });
});

describe('rate limit', () => {
  it('the form takes from the budget of callers without a credential: 429 with Retry-After', async () => {
    const limited = await startTestServer({ env: { RATE_LIMIT_ANONYMOUS_PER_MINUTE: 3 } });
    try {
      const statuses: number[] = [];
      let last: TestResponse | undefined;
      for (let i = 0; i < 5; i++) {
        last = await limited.request('GET', `/wizard-links/svc_wxl_${'B'.repeat(43)}`);
        statuses.push(last.status);
      }
      expect(statuses).toEqual([404, 404, 404, 429, 429]);
      expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(last!.headers.get('content-type')).toBe('text/html; charset=utf-8');
    } finally {
      await limited.close();
    }
  });
});
