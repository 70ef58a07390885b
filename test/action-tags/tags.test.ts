// Action tags over REST and GraphQL (docs/api/action-tags.md "Tags", "Plans and gates"): CRUD with
// every filter and sort, the status transition table, validation naming the field (unsafe schemes,
// markup, six calls to action), powered fields refused on a standalone plan, the plan a system
// administrator sets (and what a downgrade archives), capabilities for a signed-in Team Admin only,
// the API-key band gate, bulk generation, and other teams' ids answering 404.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { setActionTagPlan } from '../../src/modules/action-tags/action-tag-plan.service.ts';
import { expectError, expectGqlError, expectOk, gqlData } from '../support/expect-envelope.ts';
import { addMember, createTeam, type TeamFixture } from '../support/fixtures.ts';
import { restCaller } from '../support/rest-caller.ts';
import { useServer } from '../support/use-server.ts';
import { createCollection } from '../support/data-fixtures.ts';
import { createRecord } from '../support/record-fixtures.ts';
import { runSvc } from '../support/svc-cli.ts';
import { teamsCommand } from '../../src/modules/action-tags/cli/teams-plan-command.ts';

const TAGS = '/v1/action-tags';
const ID = /^atag-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}$/;

describe('action tags', () => {
  const { server, teams: [team, other, small] } = useServer({ teams: 3 });
  const call = restCaller(() => server, () => team.apiKey);
  let sysadmin: TeamFixture;
  beforeAll(async () => {
    sysadmin = await createTeam(server, { isSystemAdmin: true });
    await setActionTagPlan(server.app.services, small.teamSimplyId, { preset: 'standalone-100' }, null);
  });
  const create = async (body: Record<string, unknown>, token?: string) => expectOk(await call('POST', TAGS, body, token), 201);

  it('creates, reads, changes and deletes a URL tag whose id never changes', async () => {
    const tag = await create({ name: 'Gala poster', notes: 'Lobby', actionUrl: 'https://example.org/gala?x=1', labelSimplyIds: ['gala', 'gala'] });
    expect(tag).toMatchObject({ name: 'Gala poster', notes: 'Lobby', status: 'DRAFT', actionType: 'URL', destinationDomain: 'example.org', labelSimplyIds: ['gala'], lifetimeScans: 0, lastScannedAt: null });
    expect(tag.id).toMatch(ID);
    expect(tag.publicUrl).toBe(`${server.baseUrl}/a/${tag.id}`);
    expect(expectOk(await call('GET', `${TAGS}/${tag.id}`))).toMatchObject({ id: tag.id, name: 'Gala poster' });
    const changed = expectOk(await call('PUT', `${TAGS}/${tag.id}`, { status: 'ACTIVE', actionUrl: 'https://www.example.com/new', notes: null }));
    expect(changed).toMatchObject({ id: tag.id, publicUrl: tag.publicUrl, status: 'ACTIVE', actionUrl: 'https://www.example.com/new', destinationDomain: 'www.example.com', notes: null, name: 'Gala poster' });
    expect(expectOk(await call('DELETE', `${TAGS}/${tag.id}`))).toEqual({ id: tag.id, deleted: true });
    expectError(await call('GET', `${TAGS}/${tag.id}`), 404, 'NOT_FOUND');
    expectError(await call('DELETE', `${TAGS}/${tag.id}`), 404, 'NOT_FOUND');
  });

  it('refuses bad input with 400s naming the field', async () => {
    const refused = async (body: unknown, field: string) => {
      const error = expectError(await call('POST', TAGS, body), 400, 'VALIDATION_ERROR', field);
      expect(error.details?.map((d) => d.field), JSON.stringify(error.details)).toContain(field);
    };
    await refused({ actionUrl: 'https://example.org' }, 'name');
    await refused({ name: 'x', actionUrl: 'javascript:alert(1)' }, 'actionUrl');
    await refused({ name: 'x', actionUrl: 'data:text/html,hi' }, 'actionUrl');
    await refused({ name: 'x', actionUrl: 'ftp://example.org/file' }, 'actionUrl');
    await refused({ name: 'x', actionUrl: 'https://user:pw@example.org/' }, 'actionUrl');
    await refused({ name: 'x' }, 'actionUrl');
    await refused({ name: '<b>x</b>', actionUrl: 'https://example.org' }, 'name');
    await refused({ name: 'x', actionType: 'LINK_PAGE' }, 'linkPageSettings');
    const cta = (i: number) => ({ label: `Link ${i}`, url: `https://example.org/${i}` });
    await refused({ name: 'x', linkPageSettings: { title: 'Hi', callsToAction: [1, 2, 3, 4, 5, 6].map(cta) } }, 'linkPageSettings.callsToAction');
    await refused({ name: 'x', linkPageSettings: { title: 'Hi', callsToAction: [] } }, 'linkPageSettings.callsToAction');
    await refused({ name: 'x', linkPageSettings: { title: '<script>x</script>', callsToAction: [cta(1)] } }, 'linkPageSettings.title');
    await refused({ name: 'x', linkPageSettings: { title: 'Hi', callsToAction: [{ label: 'Go', url: 'javascript:void(0)' }] } }, 'linkPageSettings.callsToAction.0.url');
    await refused({ name: 'x', linkPageSettings: { title: 'Hi', callsToAction: [{ label: '<img src=x>', url: 'https://example.org' }] } }, 'linkPageSettings.callsToAction.0.label');
    await refused({ name: 'x', actionUrl: 'https://example.org', qrCodeSettings: { foregroundColor: 'red' } }, 'qrCodeSettings.foregroundColor');
    await refused({ name: 'x', actionUrl: 'https://example.org', qrCodeSettings: { logoImageBase64: Buffer.from('<svg/>').toString('base64') } }, 'qrCodeSettings.logoImageBase64');
    await refused({ name: 'x', actionUrl: 'https://example.org', status: 'ARCHIVED' }, 'status');
    await refused({ name: 'x', actionUrl: 'https://example.org', surprise: 1 }, 'surprise');
    expectError(await call('GET', `${TAGS}/not-an-id`), 400, 'VALIDATION_ERROR');
    expectError(await call('GET', `${TAGS}?limit=501`), 400, 'VALIDATION_ERROR');
    expectError(await call('GET', `${TAGS}?sort=secret:asc`), 400, 'VALIDATION_ERROR');
    expectError(await call('GET', `${TAGS}?sort=name:sideways`), 400, 'VALIDATION_ERROR');
    expectError(await call('GET', `${TAGS}?status=LIVE`), 400, 'VALIDATION_ERROR');
  });

  it('accepts a LINK_PAGE tag with one to five calls to action', async () => {
    const calls = [1, 2, 3, 4, 5].map((i) => ({ label: `Link ${i}`, url: `https://example.org/${i}` }));
    const tag = await create({ name: 'Table card', linkPageSettings: { title: 'Welcome & thanks', callsToAction: calls } });
    expect(tag).toMatchObject({ actionType: 'LINK_PAGE', linkPageSettings: { title: 'Welcome & thanks', theme: 'SYSTEM', callsToAction: calls } });
  });

  it('follows the transition table', async () => {
    const tag = await create({ name: 'Moves', actionUrl: 'https://example.org' });
    const move = (status: string) => call('PUT', `${TAGS}/${tag.id}`, { status });
    expect(expectOk(await move('ACTIVE')).status).toBe('ACTIVE');
    expectError(await move('DRAFT'), 409, 'ACTION_TAG_INVALID_TRANSITION');
    expect(expectOk(await move('INACTIVE')).status).toBe('INACTIVE');
    expect(expectOk(await move('ARCHIVED')).status).toBe('ARCHIVED');
    expectError(await move('ACTIVE'), 409, 'ACTION_TAG_INVALID_TRANSITION');
    expectError(await move('ARCHIVED_BY_DOWNGRADE'), 400, 'VALIDATION_ERROR');
    expect(expectOk(await move('INACTIVE')).status).toBe('INACTIVE');
  });

  it('lists with every filter, column:direction sorts and limits', async () => {
    const t = await createTeam(server);
    const c = restCaller(() => server, () => t.apiKey);
    const mk = async (body: Record<string, unknown>) => expectOk(await c('POST', TAGS, body), 201);
    const a = await mk({ name: 'Alpha poster', actionUrl: 'https://alpha.example/x', status: 'ACTIVE', labelSimplyIds: ['spring'] });
    const b = await mk({ name: 'Bravo flyer', notes: 'summer fair', actionUrl: 'https://bravo.example/', labelSimplyIds: ['summer'] });
    const l = await mk({ name: 'Charlie card', linkPageSettings: { title: 'Hi', callsToAction: [{ label: 'Go', url: 'https://c.example' }] }, status: 'INACTIVE' });
    await server.app.services.prisma.actionTag.update({ where: { simplyId: a.id }, data: { lastScannedAt: new Date('2026-03-01T10:00:00Z') } });
    const ids = async (query: string) => expectOk(await c('GET', `${TAGS}?${query}`)).map((x: any) => x.id);
    expect(await ids('')).toEqual([l.id, b.id, a.id]);
    expect(await ids('sort=name:asc')).toEqual([a.id, b.id, l.id]);
    expect(await ids('sort=status:asc,name:desc')).toEqual([a.id, b.id, l.id]);
    expect(await ids('status=ACTIVE,INACTIVE&sort=name:asc')).toEqual([a.id, l.id]);
    expect(await ids('actionType=LINK_PAGE')).toEqual([l.id]);
    expect(await ids('labelSimplyIds=summer,autumn')).toEqual([b.id]);
    expect(await ids('search=FAIR')).toEqual([b.id]);
    expect(await ids('destinationDomain=ALPHA.example')).toEqual([a.id]);
    expect(await ids('hasLinkedRecord=true')).toEqual([]);
    expect(await ids('hasLinkedRecord=false').then((x) => x.length)).toBe(3);
    expect(await ids('lastScannedFrom=2026-02-01&lastScannedTo=2026-03-01')).toEqual([a.id]);
    expect(await ids('createdFrom=2000-01-01&createdTo=2000-12-31')).toEqual([]);
    expect(await ids('sort=lastScannedAt:desc')).toEqual([a.id, l.id, b.id]);
    const page = await c('GET', `${TAGS}?limit=2&offset=1&sort=name:asc`);
    expect(expectOk(page).map((x: any) => x.id)).toEqual([b.id, l.id]);
    expect(page.body.meta.pagination).toEqual({ total: 3, limit: 2, offset: 1, hasMore: false });
    expect((await c('GET', TAGS)).body.meta.pagination.limit).toBe(100);
  });

  it('answers 404 for another team’s tag on every id route', async () => {
    const tag = await create({ name: 'Mine', actionUrl: 'https://example.org' });
    const theirs = restCaller(() => server, () => other.apiKey);
    for (const [method, suffix, body] of [['GET', ''], ['PUT', '', { name: 'x' }], ['DELETE', ''], ['GET', '/scans'], ['GET', '/analytics'], ['GET', '/qr-code']] as const) {
      expectError(await theirs(method, `${TAGS}/${tag.id}${suffix}`, body), 404, 'NOT_FOUND', `${method} ${suffix}`);
    }
    expect(expectOk(await call('GET', `${TAGS}/${tag.id}`)).name).toBe('Mine');
  });

  it('refuses powered types and fields on a standalone plan, and accepts them on a powered one', async () => {
    const powered = { name: 'Record', actionType: 'DATA_RECORD', actionUrl: 'https://example.org', dataRecordSimplyId: 'AB23-CD45-EF67' };
    const error = expectError(await call('POST', TAGS, powered), 400, 'VALIDATION_ERROR');
    expect(error.details?.map((d) => d.field)).toEqual(['actionType', 'dataRecordSimplyId']);
    expect(expectError(await call('POST', TAGS, { name: 'x', actionUrl: 'https://example.org', requireFreshScan: true }), 400, 'VALIDATION_ERROR').details?.[0]?.field).toBe('requireFreshScan');

    const t = await createTeam(server);
    await setActionTagPlan(server.app.services, t.teamSimplyId, { preset: 'paid-500' }, null);
    const c = restCaller(() => server, () => t.apiKey);
    const collection = await createCollection(server, t, { name: 'Members', fields: { title: 'PLAIN_TEXT' } });
    const record = await createRecord(server, t.apiKey, collection.id, { title: 'Ada' });
    const tag = expectOk(await c('POST', TAGS, { ...powered, dataRecordSimplyId: record.id }), 201);
    expect(tag).toMatchObject({ actionType: 'DATA_RECORD', dataRecordSimplyId: record.id, dataCollectionSimplyId: collection.id });
    expect(expectOk(await c('GET', `${TAGS}?hasLinkedRecord=true`)).map((x: any) => x.id)).toEqual([tag.id]);
    expect(expectOk(await c('GET', `${TAGS}?dataCollectionSimplyId=${collection.id}`)).map((x: any) => x.id)).toEqual([tag.id]);
    // another team's record and wizard are unknown here
    expectError(await c('POST', TAGS, { ...powered, dataRecordSimplyId: 'AB23-CD45-EF67' }), 400, 'VALIDATION_ERROR');
    expectError(await c('POST', TAGS, { name: 'W', actionType: 'DATA_WIZARD', actionUrl: 'https://example.org', dataWizardSimplyId: 'wiz-AB23-CD45-EF67' }), 400, 'VALIDATION_ERROR');

    // the downgrade archives the powered tag
    const changed = await setActionTagPlan(server.app.services, t.teamSimplyId, { preset: 'standalone-500' }, null);
    expect(changed.archivedByDowngrade).toBe(1);
    expect(expectOk(await c('GET', `${TAGS}/${tag.id}`)).status).toBe('ARCHIVED_BY_DOWNGRADE');
  });

  it('gates API keys below the 500 band and enforces managed capacity', async () => {
    expectError(await call('GET', TAGS, undefined, small.apiKey), 403, 'ACTION_TAG_BAND_REQUIRED');
    // a signed-in member of the same team is not band-gated
    const own = restCaller(() => server, () => small.userToken);
    expect(expectOk(await own('GET', TAGS, undefined, small.userToken, small.teamSimplyId))).toEqual([]);
    const t = await createTeam(server);
    await setActionTagPlan(server.app.services, t.teamSimplyId, { preset: 'standalone-500', managedCapacity: 2 }, null);
    const c = restCaller(() => server, () => t.apiKey);
    const first = expectOk(await c('POST', TAGS, { name: 'one', actionUrl: 'https://example.org' }), 201);
    expectOk(await c('POST', TAGS, { name: 'two', actionUrl: 'https://example.org' }), 201);
    expectError(await c('POST', TAGS, { name: 'three', actionUrl: 'https://example.org' }), 409, 'ACTION_TAG_CAPACITY_REACHED');
    expectOk(await c('PUT', `${TAGS}/${first.id}`, { status: 'ARCHIVED' }));
    expectOk(await c('POST', TAGS, { name: 'three', actionUrl: 'https://example.org' }), 201);
    expectError(await c('PUT', `${TAGS}/${first.id}`, { status: 'INACTIVE' }), 409, 'ACTION_TAG_CAPACITY_REACHED');
    // a smaller capacity archives the newest beyond it
    expect((await setActionTagPlan(server.app.services, t.teamSimplyId, { managedCapacity: 1 }, null)).archivedByDowngrade).toBe(1);
  });

  it('shows capabilities to a signed-in Team Admin only, and lets a system administrator set the plan', async () => {
    const caps = expectOk(await server.request('GET', `${TAGS}/capabilities`, { token: team.userToken, teamId: team.teamSimplyId }));
    expect(caps).toEqual({
      contract: 'STANDALONE',
      billing: 'FREE',
      band: 500,
      managedCapacity: 500,
      tagsInUse: expect.any(Number),
      domainAllowance: 0,
      planIsDefault: true,
      retention: { scanDetailDays: 30, userAgentMaskedAfterDays: 7, abuseHashDays: 30 },
      features: { apiKeyAccess: true, csvImportExport: true, lifecycleWebhooks: true, customDomains: false, poweredActions: false, bulkGenerate: false },
    });
    expectError(await call('GET', `${TAGS}/capabilities`), 403, 'IDP_REQUIRED');
    const member = await addMember(server, team, {});
    expectError(await server.request('GET', `${TAGS}/capabilities`, { token: member.token, teamId: team.teamSimplyId }), 403, 'PERMISSION_DENIED');

    const set = `mutation($team: String!, $input: JSON!) { setActionTagPlan(teamSimplyId: $team, input: $input) { archivedByDowngrade capabilities { band billing contract planIsDefault managedCapacity retention features } } }`;
    expectGqlError(await server.graphql(set, { team: other.teamSimplyId, input: { preset: 'paid-1000' } }, { token: team.userToken, teamId: team.teamSimplyId }), 'PERMISSION_DENIED', 403);
    const done = gqlData(await server.graphql(set, { team: other.teamSimplyId, input: { preset: 'paid-1000' } }, { token: sysadmin.userToken, teamId: sysadmin.teamSimplyId })).setActionTagPlan;
    expect(done.capabilities).toMatchObject({ band: 1000, billing: 'PAID', contract: 'POWERED', planIsDefault: false, managedCapacity: 1000, retention: { scanDetailDays: 730 } });
    expect(done.capabilities.features).toMatchObject({ poweredActions: true, customDomains: true, bulkGenerate: true });
    const bad = await server.graphql(set, { team: other.teamSimplyId, input: { band: 7 } }, { token: sysadmin.userToken, teamId: sysadmin.teamSimplyId });
    expectGqlError(bad, 'VALIDATION_ERROR', 400);
  });

  it('sets a plan with svc teams plan; a mistyped command line exits 2', async () => {
    const t = await createTeam(server);
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-teams-plan-'));
    const set = await runSvc(['teams', 'plan', '--team', t.teamSimplyId, '--preset', 'paid-1000', '--domains', '5'], { DATABASE_URL: inject('databaseUrl'), DATA_DIR: dataDir });
    fs.rmSync(dataDir, { recursive: true, force: true });
    expect(set.code, set.stderr).toBe(0);
    expect(JSON.parse(set.stdout)).toMatchObject({ teamSimplyId: t.teamSimplyId, contract: 'POWERED', billing: 'PAID', band: 1000, domainAllowance: 5, features: { poweredActions: true }, archivedByDowngrade: 0 });
    expect(expectOk(await server.request('GET', `${TAGS}/capabilities`, { token: t.userToken, teamId: t.teamSimplyId }))).toMatchObject({ band: 1000, planIsDefault: false });
    // usage mistakes are found before anything is opened
    const written: string[] = [];
    const write = process.stderr.write;
    process.stderr.write = ((chunk: string) => (written.push(String(chunk)), true)) as typeof process.stderr.write;
    try {
      expect(await teamsCommand(['plan', '--preset', 'paid-1000'])).toBe(2);
      expect(await teamsCommand(['plan', '--team', t.teamSimplyId, '--band', 'many'])).toBe(2);
    } finally {
      process.stderr.write = write;
    }
    expect(written.join('')).toContain('--team is required');
  });

  it('bulk-generates one tag per record for a signed-in member of a powered team, never for an API key', async () => {
    const t = await createTeam(server);
    const c = restCaller(() => server, () => t.apiKey);
    const collection = await createCollection(server, t, { name: 'Cards', fields: { title: 'PLAIN_TEXT' } });
    for (let i = 0; i < 3; i++) await createRecord(server, t.apiKey, collection.id, { title: `Card ${i}` });
    const body = { dataCollectionSimplyId: collection.id, actionUrl: 'https://example.org/card', namePrefix: 'Card' };
    const asUser = (b: unknown) => server.request('POST', `${TAGS}/bulk-generate`, { token: t.userToken, teamId: t.teamSimplyId, body: b });
    expectError(await c('POST', `${TAGS}/bulk-generate`, body), 403, 'IDP_REQUIRED');
    expectError(await asUser(body), 403, 'ACTION_TAG_PAID_PLAN_REQUIRED');
    await setActionTagPlan(server.app.services, t.teamSimplyId, { preset: 'paid-500' }, null);
    const first = expectOk(await asUser({ ...body, limit: 2 }), 201);
    expect(first.created).toHaveLength(2);
    expect(first.created[0]).toMatchObject({ actionType: 'DATA_RECORD', dataCollectionSimplyId: collection.id, status: 'DRAFT' });
    const second = expectOk(await asUser(body), 201);
    expect(second).toMatchObject({ skipped: 2 });
    expect(second.created).toHaveLength(1);
    expect(new Set([...first.created, ...second.created].map((x: any) => x.dataRecordSimplyId)).size).toBe(3);
    expectError(await asUser({ ...body, dataCollectionSimplyId: 'AB23-CD45-EF67' }), 400, 'VALIDATION_ERROR');
  });

  it('serves the same operations over GraphQL', async () => {
    const made = gqlData(
      await server.graphql(`mutation($input: JSON!) { createActionTag(input: $input) { id status publicUrl } }`, { input: { name: 'GQL', actionUrl: 'https://example.org', status: 'ACTIVE' } }, { token: team.apiKey }),
    ).createActionTag;
    expect(made.id).toMatch(ID);
    const list = gqlData(await server.graphql(`query { actionTags(search: "GQL", limit: 5) { nodes { id } pagination { total } } }`, {}, { token: team.apiKey })).actionTags;
    expect(list.nodes.map((n: any) => n.id)).toContain(made.id);
    expectGqlError(await server.graphql(`mutation($input: JSON!) { createActionTag(input: $input) { id } }`, { input: { name: 'x', actionUrl: 'vbscript:x' } }, { token: team.apiKey }), 'VALIDATION_ERROR', 400);
  });
});

