// The default expiry of signing requests: a create giving neither expirationDays nor expiresAt gets
// the team's default (GET/PUT /v1/signing-settings), else the platform default; the setting's
// range, who may change it, and the GraphQL face.
import { describe, expect, it } from 'vitest';
import { mintSessionToken } from '../support/credentials-fixtures.ts';
import { expectError, expectGqlError, expectOk, gqlData } from '../support/expect-envelope.ts';
import { createApiKey, createTeam, type TeamFixture } from '../support/fixtures.ts';
import { useServer } from '../support/use-server.ts';
import { SIGNING_LIMITS } from '../../src/modules/signing/signing.input.ts';
import { contractCollection, contractRecord, createBody } from './signing-support.ts';

const DAY = 86_400_000;
const SETTINGS = '/v1/signing-settings';
const suite = useServer();

const GQL = {
  settings: 'query { signingSettings { defaultExpirationDays effectiveExpirationDays platformDefaultExpirationDays updatedAt } }',
  update: 'mutation($input: SigningSettingsInput!) { updateSigningSettings(input: $input) { defaultExpirationDays effectiveExpirationDays } }',
};

/** A team with a collection and record to sign on. */
async function signingTeam() {
  const team = await createTeam(suite.server);
  const c = await contractCollection(suite.server, team);
  const record = await contractRecord(suite.server, team.apiKey, c);
  return { team, c, record };
}

/** Creates a request without expirationDays or expiresAt; answers the created request and the time window it was created in. */
async function createWithoutExpiry(t: { team: TeamFixture; c: Awaited<ReturnType<typeof contractCollection>>; record: string }) {
  const before = Date.now();
  const body = createBody(t.c, t.record, { expirationDays: undefined });
  const created = expectOk(await suite.server.request('POST', '/v1/signing-requests', { token: t.team.apiKey, body }), 201);
  return { created, before, after: Date.now() };
}

function expectExpiryIn(created: { expiresAt: string }, before: number, after: number, days: number) {
  const expiresAt = Date.parse(created.expiresAt);
  expect(expiresAt).toBeGreaterThanOrEqual(before + days * DAY - 1000);
  expect(expiresAt).toBeLessThanOrEqual(after + days * DAY + 1000);
}

describe('default expiry', () => {
  it(`a create with neither expirationDays nor expiresAt: 201, expiring after the platform default (${SIGNING_LIMITS.defaultExpirationDays} days)`, async () => {
    const t = await signingTeam();
    const { created, before, after } = await createWithoutExpiry(t);
    expect(created.status).toBe('sent');
    expectExpiryIn(created, before, after, SIGNING_LIMITS.defaultExpirationDays);
    // the signers' links end with the request
    for (const s of created.signers) if (s.linkExpiresAt) expect(s.linkExpiresAt).toBe(created.expiresAt);
    // null is the same as left out
    const viaNull = expectOk(await suite.server.request('POST', '/v1/signing-requests', { token: t.team.apiKey, body: createBody(t.c, t.record, { expirationDays: null, expiresAt: null }) }), 201);
    expectExpiryIn(viaNull, before, Date.now(), SIGNING_LIMITS.defaultExpirationDays);
  });

  it("the team's setting changes the default; null returns to the platform default; given values still win", async () => {
    const t = await signingTeam();
    expect(expectOk(await suite.server.request('GET', SETTINGS, { token: t.team.apiKey }))).toEqual({
      defaultExpirationDays: null,
      effectiveExpirationDays: SIGNING_LIMITS.defaultExpirationDays,
      platformDefaultExpirationDays: SIGNING_LIMITS.defaultExpirationDays,
      updatedAt: null,
    });
    const changed = expectOk(await suite.server.request('PUT', SETTINGS, { token: t.team.apiKey, body: { defaultExpirationDays: 5 } }));
    expect(changed).toEqual({ defaultExpirationDays: 5, effectiveExpirationDays: 5, platformDefaultExpirationDays: SIGNING_LIMITS.defaultExpirationDays, updatedAt: expect.any(String) });
    expect(expectOk(await suite.server.request('GET', SETTINGS, { token: t.team.apiKey }))).toEqual(changed);

    const five = await createWithoutExpiry(t);
    expectExpiryIn(five.created, five.before, five.after, 5);
    // expirationDays given: it wins over the team default
    const before = Date.now();
    const given = expectOk(await suite.server.request('POST', '/v1/signing-requests', { token: t.team.apiKey, body: createBody(t.c, t.record, { expirationDays: 2 }) }), 201);
    expectExpiryIn(given, before, Date.now(), 2);

    // another team keeps the platform default
    const other = await signingTeam();
    const theirs = await createWithoutExpiry(other);
    expectExpiryIn(theirs.created, theirs.before, theirs.after, SIGNING_LIMITS.defaultExpirationDays);

    expect(expectOk(await suite.server.request('PUT', SETTINGS, { token: t.team.userToken, teamId: t.team.teamSimplyId, body: { defaultExpirationDays: null } }))).toMatchObject({
      defaultExpirationDays: null,
      effectiveExpirationDays: SIGNING_LIMITS.defaultExpirationDays,
    });
    const back = await createWithoutExpiry(t);
    expectExpiryIn(back.created, back.before, back.after, SIGNING_LIMITS.defaultExpirationDays);
  });

  it('both expirationDays and expiresAt: 400 VALIDATION_ERROR, as before', async () => {
    const t = await signingTeam();
    const body = createBody(t.c, t.record, { expirationDays: 3, expiresAt: new Date(Date.now() + 2 * DAY).toISOString() });
    const error = expectError(await suite.server.request('POST', '/v1/signing-requests', { token: t.team.apiKey, body }), 400, 'VALIDATION_ERROR');
    expect(error.details?.map((d) => d.field)).toContain('expiresAt');
  });
});

describe('signing settings', () => {
  it(`the setting is validated: an integer from 1 to ${SIGNING_LIMITS.expirationDaysMax}, or null`, async () => {
    const t = await createTeam(suite.server);
    const bad: unknown[] = [{}, { defaultExpirationDays: 0 }, { defaultExpirationDays: -3 }, { defaultExpirationDays: SIGNING_LIMITS.expirationDaysMax + 1 }, { defaultExpirationDays: 2.5 }, { defaultExpirationDays: '7' }, { defaultExpirationDays: 7, extra: 1 }];
    for (const body of bad) {
      const error = expectError(await suite.server.request('PUT', SETTINGS, { token: t.apiKey, body }), 400, 'VALIDATION_ERROR', JSON.stringify(body));
      if (body && typeof body === 'object' && !('extra' in body)) expect(error.details?.map((d) => d.field), JSON.stringify(body)).toContain('defaultExpirationDays');
    }
    // nothing was stored
    expect(expectOk(await suite.server.request('GET', SETTINGS, { token: t.apiKey })).updatedAt).toBeNull();
    for (const days of [1, SIGNING_LIMITS.expirationDaysMax]) {
      expect(expectOk(await suite.server.request('PUT', SETTINGS, { token: t.apiKey, body: { defaultExpirationDays: days } })).defaultExpirationDays).toBe(days);
    }
    expectGqlError(await suite.server.graphql(GQL.update, { input: { defaultExpirationDays: 0 } }, { token: t.apiKey }), 'VALIDATION_ERROR', 400);
    expectGqlError(await suite.server.graphql(GQL.update, { input: {} }, { token: t.apiKey }), 'VALIDATION_ERROR', 400);
  });

  it('GraphQL: signingSettings and updateSigningSettings', async () => {
    const t = await createTeam(suite.server);
    expect(gqlData(await suite.server.graphql(GQL.update, { input: { defaultExpirationDays: 14 } }, { token: t.apiKey })).updateSigningSettings).toEqual({ defaultExpirationDays: 14, effectiveExpirationDays: 14 });
    expect(gqlData(await suite.server.graphql(GQL.settings, {}, { token: t.apiKey })).signingSettings).toMatchObject({ defaultExpirationDays: 14, effectiveExpirationDays: 14 });
    expect(expectOk(await suite.server.request('GET', SETTINGS, { token: t.apiKey })).defaultExpirationDays).toBe(14);
  });

  it('team admins and TEAM_SETTINGS only: a limited credential cannot read or change it (403)', async () => {
    const t = await createTeam(suite.server);
    const limited = (await createApiKey(suite.server, t, { name: 'records only', featurePermissions: [] })).key;
    const session = (await mintSessionToken(suite.server, t.apiKey)).token;
    for (const token of [limited, session]) {
      expectError(await suite.server.request('PUT', SETTINGS, { token, body: { defaultExpirationDays: 3 } }), 403, 'PERMISSION_DENIED');
      expectError(await suite.server.request('GET', SETTINGS, { token }), 403, 'PERMISSION_DENIED');
      expectGqlError(await suite.server.graphql(GQL.update, { input: { defaultExpirationDays: 3 } }, { token }), 'PERMISSION_DENIED', 403);
    }
    expect(expectOk(await suite.server.request('GET', SETTINGS, { token: t.apiKey })).defaultExpirationDays).toBeNull();
    // TEAM_SETTINGS edit is enough
    const settingsKey = (await createApiKey(suite.server, t, { name: 'settings', featurePermissions: ['TEAM_SETTINGS'] })).key;
    expect(expectOk(await suite.server.request('PUT', SETTINGS, { token: settingsKey, body: { defaultExpirationDays: 3 } })).defaultExpirationDays).toBe(3);
  });
});
