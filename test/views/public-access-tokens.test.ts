// Sharing a view (docs/api/data-views.md "Sharing"): public access tokens (POST, GET, DELETE
// …/public-access-tokens/{EMBED|ICS_FEED}, privileged) and internal tokens (GET …/internal-token,
// standard), over REST and GraphQL: the secret shown once and stored as its hash, rotation,
// revocation at once, the readiness rules, allowed origins, share readiness showing the tokens,
// the privileged tier, other teams' ids, and an internal token bound to the view and the caller.
import { beforeAll, afterAll, describe, expect, it } from 'vitest';
import { expectError, expectGqlError, expectOk, gqlData } from '../support/expect-envelope.ts';
import { addMember, createApiKey, createRole } from '../support/fixtures.ts';
import { oauthToken } from '../support/oauth-fixtures.ts';
import { createEvent, createToken, pathOf, publish, publishedView, sha256Hex, startSharingBed, type SharingBed } from './view-sharing-fixtures.ts';

let bed: SharingBed;
const tokens = (view: string, type = 'EMBED') => `/v1/data-views/${view}/public-access-tokens/${type}`;
const META_KEYS = ['allowedOrigins', 'createdAt', 'createdBy', 'dataViewSimplyId', 'exists', 'isServing', 'lastUsedAt', 'maskedUrl', 'purpose', 'tokenHint', 'tokenType'];

beforeAll(async () => {
  bed = await startSharingBed();
  await createEvent(bed, { title: 'Opening', starts: '2026-03-01T09:00:00Z', ends: '2026-03-01T10:00:00Z', seats: 10, secret: 'hidden value' });
});
afterAll(() => bed?.server.close());

describe('public access tokens', () => {
  it('POST returns the secret once with the ready URL; only its hash is stored; GET shows metadata only', async () => {
    const view = await publishedView(bed, { columns: ['title', 'seats'] });
    const created = await createToken(bed, view, 'EMBED', { allowedOrigins: ['https://WWW.Example.org/', 'https://app.example.com:8443'] });
    expect(Object.keys(created).sort()).toEqual([...META_KEYS, 'rotated', 'token', 'url'].sort());
    expect(created).toMatchObject({
      dataViewSimplyId: view,
      tokenType: 'EMBED',
      purpose: 'DATAVIEW_EMBED',
      exists: true,
      rotated: false,
      isServing: true,
      lastUsedAt: null,
      allowedOrigins: ['https://www.example.org', 'https://app.example.com:8443'],
      createdBy: { kind: 'API_KEY', id: expect.stringMatching(/^key-/) },
    });
    expect(created.token).toMatch(/^svc_vem_[A-Za-z0-9_-]{43}$/);
    expect(created.url).toBe(`${bed.server.baseUrl}/view-embeds/${created.token}`);
    expect(created.tokenHint).toBe(`svc_vem_${created.token.slice(8, 12)}…`);
    expect(created.maskedUrl).toBe(`${bed.server.baseUrl}/view-embeds/${created.tokenHint}`);

    // the database holds the SHA-256 and the hint, never the secret
    const rows = await bed.server.app.services.pool.query(`SELECT * FROM "DataViewPublicToken" WHERE "tokenHash" = $1`, [sha256Hex(created.token)]);
    expect(rows.rows).toHaveLength(1);
    expect(JSON.stringify(rows.rows[0], (_k, v) => (typeof v === 'bigint' ? String(v) : v))).not.toContain(created.token.slice(8));

    const read = expectOk(await bed.call('GET', tokens(view)));
    expect(Object.keys(read).sort()).toEqual(META_KEYS.sort());
    expect(read).toMatchObject({ exists: true, tokenHint: created.tokenHint, maskedUrl: created.maskedUrl, allowedOrigins: created.allowedOrigins, createdAt: created.createdAt, createdBy: created.createdBy });
    expect(JSON.stringify(read)).not.toContain(created.token);
    // the URL works, and its use is recorded
    expect((await bed.server.request('GET', pathOf(created.url))).status).toBe(200);
    await expect.poll(async () => expectOk(await bed.call('GET', tokens(view))).lastUsedAt).not.toBeNull();
  });

  it('GET of a type the view has no token of answers exists: false', async () => {
    const view = await publishedView(bed, { columns: ['title'] });
    expect(expectOk(await bed.call('GET', tokens(view, 'ICS_FEED')))).toEqual({
      dataViewSimplyId: view,
      tokenType: 'ICS_FEED',
      purpose: 'DATAVIEW_ICS_FEED',
      exists: false,
      tokenHint: null,
      maskedUrl: null,
      allowedOrigins: [],
      createdAt: null,
      createdBy: null,
      lastUsedAt: null,
      isServing: false,
    });
  });

  it('a second POST rotates: one token per view and type, the old secret stops working at once', async () => {
    const view = await publishedView(bed, { columns: ['title'] });
    const first = await createToken(bed, view, 'EMBED');
    const second = await createToken(bed, view, 'EMBED', { allowedOrigins: ['https://example.net'] });
    expect(second.rotated).toBe(true);
    expect(second.token).not.toBe(first.token);
    expect((await bed.server.request('GET', pathOf(first.url))).status).toBe(404);
    expect((await bed.server.request('GET', pathOf(second.url))).status).toBe(200);
    const count = await bed.server.app.services.prisma.dataViewPublicToken.count({ where: { teamId: bed.team.teamId, view: { simplyId: view } } });
    expect(count).toBe(1);
    // the two types are separate tokens
    const calendar = await publishedView(bed, { type: 'CALENDAR', columns: ['title'] });
    const embed = await createToken(bed, calendar, 'EMBED');
    const feed = await createToken(bed, calendar, 'ICS_FEED');
    expect(feed.token).toMatch(/^svc_vcf_/);
    expect(feed.url).toBe(`${bed.server.baseUrl}/view-feeds/${feed.token}.ics`);
    expect((await bed.server.request('GET', pathOf(embed.url))).status).toBe(200);
    expect((await bed.server.request('GET', pathOf(feed.url))).status).toBe(200);
    // a token of one type opens nothing of the other
    expect((await bed.server.request('GET', `/view-embeds/${feed.token}`)).status).toBe(404);
    expect((await bed.server.request('GET', `/view-feeds/${embed.token}.ics`)).status).toBe(404);
  });

  it('DELETE revokes at once; a second DELETE is 404', async () => {
    const view = await publishedView(bed, { type: 'CALENDAR', columns: ['title'] });
    const feed = await createToken(bed, view, 'ICS_FEED');
    expect((await bed.server.request('GET', pathOf(feed.url))).status).toBe(200);
    expect(expectOk(await bed.call('DELETE', tokens(view, 'ICS_FEED')))).toEqual({ id: view, tokenType: 'ICS_FEED', deleted: true });
    const refused = await bed.server.request('GET', pathOf(feed.url));
    expect(refused.status).toBe(404);
    // indistinguishable from a token that never existed
    const unknown = await bed.server.request('GET', `/view-feeds/svc_vcf_${'A'.repeat(43)}.ics`);
    expect({ status: refused.status, code: refused.body.error.code, message: refused.body.error.message }).toEqual({ status: unknown.status, code: unknown.body.error.code, message: unknown.body.error.message });
    expectError(await bed.call('DELETE', tokens(view, 'ICS_FEED')), 404, 'NOT_FOUND');
    expect(expectOk(await bed.call('GET', tokens(view, 'ICS_FEED'))).exists).toBe(false);
  });

  it('refuses a view that cannot be shared: 409 VIEW_NOT_SHAREABLE listing the blockers', async () => {
    const f = bed.events.fields;
    const table = await publishedView(bed, { columns: ['title'] });
    const notCalendar = expectError(await bed.call('POST', tokens(table, 'ICS_FEED')), 409, 'VIEW_NOT_SHAREABLE');
    expect(notCalendar.details).toEqual([expect.objectContaining({ code: 'NOT_A_CALENDAR', field: 'enumDataViewTypeId' })]);
    const draft = expectOk(await bed.call('POST', '/v1/data-views', { dataCollectionSimplyId: bed.events.id, name: 'Draft', enumDataViewTypeId: 'TABLE', config: { columns: [f.title] } }), 201).id;
    const unpublished = expectError(await bed.call('POST', tokens(draft)), 409, 'VIEW_NOT_SHAREABLE');
    expect(unpublished.details?.map((d: any) => d.code)).toEqual(['NOT_PUBLISHED']);
    const empty = expectOk(await bed.call('POST', '/v1/data-views', { dataCollectionSimplyId: bed.events.id, name: 'Empty', enumDataViewTypeId: 'TABLE' }), 201).id;
    const notReady = expectError(await bed.call('POST', tokens(empty)), 409, 'VIEW_NOT_SHAREABLE');
    expect(notReady.details?.map((d: any) => d.code)).toEqual(['VIEW_NOT_READY', 'NOT_PUBLISHED']);
    expect(await bed.server.app.services.prisma.dataViewPublicToken.count({ where: { teamId: bed.team.teamId, view: { simplyId: { in: [table, draft, empty] } } } })).toBe(0);
  });

  it('validates the body and the token type, naming the field', async () => {
    const view = await publishedView(bed, { type: 'CALENDAR', columns: ['title'] });
    const cases: [unknown, string][] = [
      [{ allowedOrigins: ['http://example.org'] }, 'allowedOrigins.0'],
      [{ allowedOrigins: ['https://example.org/embed'] }, 'allowedOrigins.0'],
      [{ allowedOrigins: ['https://*.example.org'] }, 'allowedOrigins.0'],
      [{ allowedOrigins: ['https://user:pw@example.org'] }, 'allowedOrigins.0'],
      [{ allowedOrigins: ['not a url'] }, 'allowedOrigins.0'],
      [{ allowedOrigins: Array.from({ length: 11 }, (_, i) => `https://site${i}.example.org`) }, 'allowedOrigins'],
      [{ allowedOrigins: 'https://example.org' }, 'allowedOrigins'],
      [{ surprise: true }, 'surprise'],
    ];
    for (const [body, field] of cases) {
      const error = expectError(await bed.call('POST', tokens(view), body), 400, 'VALIDATION_ERROR', JSON.stringify(body));
      expect(error.details?.map((d) => d.field), JSON.stringify(body)).toContain(field);
    }
    const icsWithOrigins = expectError(await bed.call('POST', tokens(view, 'ICS_FEED'), { allowedOrigins: ['https://example.org'] }), 400, 'VALIDATION_ERROR');
    expect(icsWithOrigins.details?.map((d) => d.field)).toEqual(['allowedOrigins']);
    for (const type of ['embed', 'PDF', 'DATAVIEW_EMBED']) expectError(await bed.call('GET', tokens(view, type)), 400, 'VALIDATION_ERROR', type);
    expectError(await bed.call('POST', tokens('view-1234')), 400, 'VALIDATION_ERROR');
    expectError(await bed.call('GET', tokens('12')), 400, 'VALIDATION_ERROR');
  });

  it('share readiness shows the tokens, and a token of an unpublished view stops serving until it is published again', async () => {
    const view = await publishedView(bed, { type: 'CALENDAR', columns: ['title'] });
    const feed = await createToken(bed, view, 'ICS_FEED');
    let readiness = expectOk(await bed.call('GET', `/v1/data-views/${view}/share-readiness`));
    expect(readiness.shareTargets).toEqual([
      { tokenType: 'EMBED', isAvailable: true, blockers: [], hasToken: false, isServing: false },
      { tokenType: 'ICS_FEED', isAvailable: true, blockers: [], hasToken: true, isServing: true },
    ]);
    await publish(bed, view, false);
    expect((await bed.server.request('GET', pathOf(feed.url))).status).toBe(404);
    expect(expectOk(await bed.call('GET', tokens(view, 'ICS_FEED')))).toMatchObject({ exists: true, isServing: false });
    readiness = expectOk(await bed.call('GET', `/v1/data-views/${view}/share-readiness`));
    expect(readiness.shareTargets[1]).toMatchObject({ tokenType: 'ICS_FEED', isAvailable: false, hasToken: true, isServing: false });
    expect(readiness.warnings.map((w: any) => w.code)).toContain('TOKEN_NOT_SERVING');
    await publish(bed, view, true);
    expect((await bed.server.request('GET', pathOf(feed.url))).status).toBe(200);
  });

  it('deleting the view deletes its tokens', async () => {
    const view = await publishedView(bed, { columns: ['title'] });
    const embed = await createToken(bed, view, 'EMBED');
    expectOk(await bed.call('DELETE', `/v1/data-views/${view}`));
    expect((await bed.server.request('GET', pathOf(embed.url))).status).toBe(404);
    expect(await bed.server.app.services.prisma.dataViewPublicToken.count({ where: { tokenHash: sha256Hex(embed.token) } })).toBe(0);
  });

  it('GraphQL: create, read and delete with the same rules', async () => {
    const view = await publishedView(bed, { columns: ['title'] });
    const created = gqlData(
      await bed.server.graphql(
        `mutation($id: String!) { createDataViewPublicAccessToken(dataViewSimplyId: $id, tokenType: EMBED, input: { allowedOrigins: ["https://example.org"] }) { token url rotated purpose allowedOrigins createdBy { kind id } } }`,
        { id: view },
        { token: bed.team.apiKey },
      ),
    ).createDataViewPublicAccessToken;
    expect(created).toMatchObject({ rotated: false, purpose: 'DATAVIEW_EMBED', allowedOrigins: ['https://example.org'], createdBy: { kind: 'API_KEY' } });
    const read = gqlData(await bed.server.graphql(`query($id: String!) { dataViewPublicAccessToken(dataViewSimplyId: $id, tokenType: EMBED) { exists tokenHint isServing } }`, { id: view }, { token: bed.team.apiKey }));
    expect(read.dataViewPublicAccessToken).toEqual({ exists: true, tokenHint: `${created.token.slice(0, 12)}…`, isServing: true });
    expect(gqlData(await bed.server.graphql(`mutation($id: String!) { deleteDataViewPublicAccessToken(dataViewSimplyId: $id, tokenType: EMBED) }`, { id: view }, { token: bed.team.apiKey }))).toEqual({ deleteDataViewPublicAccessToken: true });
    expect((await bed.server.request('GET', pathOf(created.url))).status).toBe(404);
    expectGqlError(await bed.server.graphql(`mutation($id: String!) { createDataViewPublicAccessToken(dataViewSimplyId: $id, tokenType: ICS_FEED) { token } }`, { id: view }, { token: bed.team.apiKey }), 'VIEW_NOT_SHAREABLE', 409);
  });
});

describe('privileged tier and other teams', () => {
  it('scoped session tokens, OAuth tokens, keys without TEAM_SETTINGS and plain members are refused; TEAM_SETTINGS view level only reads', async () => {
    const view = await publishedView(bed, { columns: ['title'] });
    const session = expectOk(await bed.call('POST', '/v1/session-tokens', { oauthScopes: ['schema:read', 'records:read', 'admin:read'], featurePermissions: ['TEAM_SETTINGS'] }), 201).token;
    const oauth = await oauthToken(bed.server, bed.team, 'schema:read admin:read');
    const noFeature = (await createApiKey(bed.server, bed.team, { name: 'no settings', featurePermissions: [] })).key;
    const role = await createRole(bed.server, bed.team, { name: 'Everything but settings', dataFullAccess: 'EDIT' });
    const member = await addMember(bed.server, bed.team, { teamRoleSimplyId: role });
    const routes: [string, string][] = [['POST', tokens(view)], ['GET', tokens(view)], ['DELETE', tokens(view)]];
    for (const [method, path] of routes) {
      for (const [who, token, teamId] of [['session', session], ['oauth', oauth], ['key', noFeature], ['member', member.token, bed.team.teamSimplyId]] as const) {
        const res = await bed.call(method, path, undefined, token, teamId);
        expect(res.status, `${who} ${method} ${path} ${res.text}`).toBe(403);
        expect(['PERMISSION_DENIED', 'OAUTH_SCOPE_REQUIRED', 'OAUTH_CLIENT_FORBIDDEN']).toContain(res.body.error.code);
      }
    }
    expect(await bed.server.app.services.prisma.dataViewPublicToken.count({ where: { teamId: bed.team.teamId, view: { simplyId: view } } })).toBe(0);
    const viewer = (await createApiKey(bed.server, bed.team, { name: 'settings viewer', featurePermissions: ['TEAM_SETTINGS:VIEW'] })).key;
    expectOk(await bed.call('GET', tokens(view), undefined, viewer));
    expectError(await bed.call('POST', tokens(view), undefined, viewer), 403, 'PERMISSION_DENIED');
    expectError(await bed.call('DELETE', tokens(view), undefined, viewer), 403, 'PERMISSION_DENIED');
    // a team admin signed in creates one; the creator is the user
    const admin = await addMember(bed.server, bed.team, { isTeamAdmin: true });
    const created = expectOk(await bed.call('POST', tokens(view), undefined, admin.token, bed.team.teamSimplyId), 201);
    expect(created.createdBy).toEqual({ kind: 'USER', id: admin.userSimplyId });
  });

  it("another team's view is 404 on every route, exactly as a view that does not exist", async () => {
    for (const method of ['POST', 'GET', 'DELETE']) {
      for (const route of [tokens(bed.otherView), tokens(bed.otherView, 'ICS_FEED'), `/v1/data-views/${bed.otherView}/internal-token`]) {
        if (route.endsWith('internal-token') && method !== 'GET') continue;
        const foreign = expectError(await bed.call(method, route), 404, 'NOT_FOUND', `${method} ${route}`);
        const missing = expectError(await bed.call(method, route.replace(bed.otherView, 'view-2222-3333-4444')), 404, 'NOT_FOUND');
        expect(foreign.message.replace(bed.otherView, 'X')).toBe(missing.message.replace('view-2222-3333-4444', 'X'));
      }
    }
    expect(await bed.server.app.services.prisma.dataViewPublicToken.count({ where: { teamId: bed.other.teamId } })).toBe(0);
  });
});

describe('internal tokens', () => {
  const internal = (view: string) => `/v1/data-views/${view}/internal-token`;

  it('answers a short-lived URL of the view for the caller; the page works until the view changes', async () => {
    const view = await publishedView(bed, { columns: ['title', 'seats'] });
    const before = Date.now();
    const issued = expectOk(await bed.call('GET', internal(view)));
    expect(Object.keys(issued).sort()).toEqual(['dataViewSimplyId', 'expiresAt', 'expiresInSeconds', 'url']);
    expect(issued.dataViewSimplyId).toBe(view);
    expect(issued.expiresInSeconds).toBe(300);
    expect(new Date(issued.expiresAt).getTime()).toBeGreaterThanOrEqual(before + 299_000);
    expect(new Date(issued.expiresAt).getTime()).toBeLessThanOrEqual(Date.now() + 300_000);
    expect(issued.url).toMatch(new RegExp(`^${bed.server.baseUrl}/view-embeds/svc_vit_[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]{43}$`));
    const page = await bed.server.request('GET', pathOf(issued.url));
    expect(page.status).toBe(200);
    expect(page.text).toContain('Opening');
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'self'");
    // the internal token works for an unpublished view too (members see their own views)
    await publish(bed, view, false);
    const unpublished = expectOk(await bed.call('GET', internal(view)));
    expect((await bed.server.request('GET', pathOf(unpublished.url))).status).toBe(200);
    // the earlier token named the view as it was: changed since, it is refused
    expect((await bed.server.request('GET', pathOf(issued.url))).status).toBe(404);
  });

  it('a forged, altered or expired token is 404', async () => {
    const view = await publishedView(bed, { columns: ['title'] });
    const { url } = expectOk(await bed.call('GET', internal(view)));
    const token = url.split('/').at(-1) as string;
    const [body = '', sig = ''] = token.split('.');
    const claims = JSON.parse(Buffer.from(body.slice(8), 'base64url').toString());
    const resign = (c: unknown) => `svc_vit_${Buffer.from(JSON.stringify(c)).toString('base64url')}.${sig}`;
    for (const forged of [
      `${body}.${'A'.repeat(43)}`,
      resign({ ...claims, e: claims.e + 3600 }),
      resign({ ...claims, f: 'AAAA' }),
      resign({ ...claims, t: bed.other.teamSimplyId }),
      `${body}.`,
      'svc_vit_',
      'svc_vit_x.y',
    ]) {
      expect((await bed.server.request('GET', `/view-embeds/${forged}`)).status, forged).toBe(404);
    }
    // a token past its expiry: signed like the platform signs, with an expiry in the past
    const { createHmac } = await import('node:crypto');
    const { derivedSecretsKey } = await import('../../src/app/secrets-key.ts');
    const expiredBody = `svc_vit_${Buffer.from(JSON.stringify({ ...claims, e: Math.floor(Date.now() / 1000) - 1 })).toString('base64url')}`;
    const expiredSig = createHmac('sha256', derivedSecretsKey(bed.server.app.services.config.secretsKeyFile, 'svc view internal tokens v1')).update(expiredBody).digest('base64url');
    expect((await bed.server.request('GET', `/view-embeds/${expiredBody}.${expiredSig}`)).status).toBe(404);
    const stillValid = `svc_vit_${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
    const validSig = createHmac('sha256', derivedSecretsKey(bed.server.app.services.config.secretsKeyFile, 'svc view internal tokens v1')).update(stillValid).digest('base64url');
    expect((await bed.server.request('GET', `/view-embeds/${stillValid}.${validSig}`)).status).toBe(200);
  });

  it('needs read permission on the collection (and records:read for scoped tokens); shows only the fields the caller can read', async () => {
    const f = bed.events.fields;
    const view = await publishedView(bed, { columns: ['title', 'secret'] });
    const noRole = (await createApiKey(bed.server, bed.team, { name: 'no role', featurePermissions: [] })).key;
    expectError(await bed.call('GET', internal(view), undefined, noRole), 403, 'PERMISSION_DENIED');
    const otherCollectionRole = await createRole(bed.server, bed.team, { name: 'Elsewhere', dataPermissions: [] });
    const elsewhere = (await createApiKey(bed.server, bed.team, { name: 'elsewhere', teamRoleSimplyId: otherCollectionRole })).key;
    expectError(await bed.call('GET', internal(view), undefined, elsewhere), 403, 'PERMISSION_DENIED');
    const schemaOnly = expectOk(await bed.call('POST', '/v1/session-tokens', { oauthScopes: ['schema:read'] }), 201).token;
    expectError(await bed.call('GET', internal(view), undefined, schemaOnly), 403, 'PERMISSION_DENIED');
    const reading = expectOk(await bed.call('POST', '/v1/session-tokens', { oauthScopes: ['schema:read', 'records:read'] }), 201).token;
    expectOk(await bed.call('GET', internal(view), undefined, reading));
    const oauth = await oauthToken(bed.server, bed.team, 'schema:read records:read');
    expectError(await bed.call('GET', internal(view), undefined, oauth), 403, 'PERMISSION_DENIED');

    const narrow = await createRole(bed.server, bed.team, {
      name: 'No secrets',
      dataPermissions: [{ dataCollectionSimplyId: bed.events.id, level: 'READ' }],
      fieldPermissions: [{ dataFieldSimplyId: f.secret, level: 'NONE' }],
    });
    const narrowKey = (await createApiKey(bed.server, bed.team, { name: 'narrow', teamRoleSimplyId: narrow })).key;
    const narrowPage = await bed.server.request('GET', pathOf(expectOk(await bed.call('GET', internal(view), undefined, narrowKey)).url));
    expect(narrowPage.status).toBe(200);
    expect(narrowPage.text).toContain('Opening');
    expect(narrowPage.text).not.toContain('hidden value');
    expect(narrowPage.text).not.toContain('>secret<');
    const fullPage = await bed.server.request('GET', pathOf(expectOk(await bed.call('GET', internal(view))).url));
    expect(fullPage.text).toContain('hidden value');
  });

  it('GraphQL: dataViewInternalToken', async () => {
    const view = await publishedView(bed, { columns: ['title'] });
    const data = gqlData(await bed.server.graphql(`query($id: String!) { dataViewInternalToken(dataViewSimplyId: $id) { dataViewSimplyId url expiresAt expiresInSeconds } }`, { id: view }, { token: bed.team.apiKey }));
    expect(data.dataViewInternalToken).toMatchObject({ dataViewSimplyId: view, expiresInSeconds: 300 });
    expect((await bed.server.request('GET', pathOf(data.dataViewInternalToken.url))).status).toBe(200);
    expectGqlError(await bed.server.graphql(`query($id: String!) { dataViewInternalToken(dataViewSimplyId: $id) { url } }`, { id: bed.otherView }, { token: bed.team.apiKey }), 'NOT_FOUND', 404);
  });
});
