// The oidc-provider adapter over OAuthState (src/modules/oauth) against the real database: what
// oidc-provider stores comes back as it was stored, while the table holds no bearer value in the
// clear (keys are digests of the ids, secrets are sealed); expired rows are invisible and pruned a
// day later; revoking a grant takes its tokens and codes and nothing else; and a real Provider
// saves, finds and revokes an access token through it.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import Provider, { type AdapterConstructor, type AdapterPayload } from 'oidc-provider';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../src/app/auth/tokens.ts';
import { SecretBox } from '../../src/app/secret-box.ts';
import { createPool, createPrisma } from '../../src/db/prisma.ts';
import type { PrismaClient } from '../../src/generated/prisma/client.ts';
import { oauthStorage, pruneExpiredOAuthState } from '../../src/modules/oauth/index.ts';
import type { ThrowawayDatabase } from '../db/helpers.ts';
import { createMigratedDatabase } from '../support/migrated-database.ts';

let database: ThrowawayDatabase;
let pool: pg.Pool;
let prisma: PrismaClient;
let Storage: AdapterConstructor;

beforeAll(async () => {
  database = await createMigratedDatabase('oauth');
  pool = createPool(database.url, 4, 'oauth-test');
  prisma = createPrisma(pool);
  Storage = oauthStorage({ prisma, secretBox: new SecretBox(randomBytes(32)) });
});
afterAll(async () => {
  await prisma?.$disconnect();
  await pool?.end();
  await database?.drop();
});

/** an id like oidc-provider's: every test's own, so tests never meet in the shared table */
const newId = () => randomBytes(32).toString('base64url');
const digest = hashToken;
const epoch = () => Math.floor(Date.now() / 1000);

function token(kind: string, id: string, claims: Record<string, unknown> = {}): AdapterPayload {
  const iat = epoch();
  return { iat, exp: iat + 3600, accountId: 'usr-1', clientId: 'client-1', ...claims, jti: id, kind };
}

interface StoredRow {
  model: string;
  key: string;
  payload: Record<string, unknown>;
  grantId: string | null;
  uid: string | null;
  expiresAt: Date | null;
  consumedAt: Date | null;
}
const rowsWithKeys = async (keys: string[]) =>
  (await pool.query<StoredRow>(`SELECT * FROM "OAuthState" WHERE key = ANY($1) ORDER BY model, key`, [keys])).rows;
const rowOf = async (model: string, id: string) => (await pool.query<StoredRow>(`SELECT * FROM "OAuthState" WHERE model = $1 AND key = $2`, [model, digest(id)])).rows[0];
const expire = (model: string, id: string, ago: string) =>
  pool.query(`UPDATE "OAuthState" SET "expiresAt" = now() - $3::interval WHERE model = $1 AND key = $2`, [model, digest(id), ago]);

describe('oauth storage', () => {
  it('finds what it stored, and an upsert replaces the object', async () => {
    const id = newId();
    const accessTokens = new Storage('AccessToken');
    const first = token('AccessToken', id, { grantId: 'grant-1', scope: 'openid email' });
    await accessTokens.upsert(id, first, 3600);
    expect(await accessTokens.find(id)).toEqual(first);

    const second = token('AccessToken', id, { scope: 'openid' });
    await accessTokens.upsert(id, second, 60);
    expect(await accessTokens.find(id)).toEqual(second);
    const row = await rowOf('AccessToken', id);
    expect(row).toMatchObject({ grantId: null });
    expect(row!.expiresAt!.getTime() - Date.now()).toBeLessThanOrEqual(60_000);

    // one adapter per model: the same id in another model is another object
    expect(await new Storage('RefreshToken').find(id)).toBeUndefined();
    expect(await accessTokens.find(newId())).toBeUndefined();
  });

  it('stores no id and no secret in the clear: keys are SHA-256 of the ids, secrets and carried bearer values are sealed', async () => {
    const [tokenId, sessionId, interactionId, clientId, deviceCodeId] = [newId(), newId(), newId(), `client-${newId()}`, newId()];
    const secret = `secret-${newId()}`;
    const sessionUid = newId();
    const client = { client_id: clientId, client_secret: secret, redirect_uris: ['https://app.example.test/cb'] };
    const session = token('Session', sessionId, { uid: sessionUid, authorizations: { [clientId]: { sid: 'sid-1', grantId: 'grant-2' } } });
    const interaction = token('Interaction', interactionId, {
      session: { accountId: 'usr-1', uid: sessionUid, cookie: sessionId },
      params: { client_id: clientId, request_uri: `urn:ietf:params:oauth:request_uri:${tokenId}` },
      returnTo: `https://auth.example.test/auth/${interactionId}`,
      deviceCode: deviceCodeId,
      parJti: tokenId,
    });
    const deviceCode = token('DeviceCode', deviceCodeId, { userCode: 'WDJBMJHT', params: { client_id: clientId } });

    await new Storage('AccessToken').upsert(tokenId, token('AccessToken', tokenId), 3600);
    await new Storage('Session').upsert(sessionId, session, 3600);
    await new Storage('Interaction').upsert(interactionId, interaction, 600);
    await new Storage('Client').upsert(clientId, client);
    await new Storage('DeviceCode').upsert(deviceCodeId, deviceCode, 600);

    const ids = [tokenId, sessionId, interactionId, clientId, deviceCodeId];
    const rows = await rowsWithKeys(ids.map(digest));
    expect(rows.map((r) => r.model)).toEqual(['AccessToken', 'Client', 'DeviceCode', 'Interaction', 'Session']);
    const everything = (await pool.query<{ text: string }>(`SELECT "OAuthState"::text AS text FROM "OAuthState"`)).rows.map((r) => r.text).join('\n');
    for (const id of [tokenId, sessionId, interactionId, deviceCodeId]) expect(everything).not.toContain(id);
    expect(everything).not.toContain(secret);
    // a client id is no credential, but it is keyed like every other id
    expect(rows.map((r) => r.key)).not.toContain(clientId);

    // and everything comes back as oidc-provider wrote it
    expect(await new Storage('Client').find(clientId)).toEqual(client);
    expect(await new Storage('Interaction').find(interactionId)).toEqual(interaction);
    expect(await new Storage('Session').find(sessionId)).toEqual(session);
    // found by something else than its id, an object still knows its id (to be saved again under it)
    expect(await new Storage('Session').findByUid(sessionUid)).toEqual(session);
    expect(await new Storage('DeviceCode').findByUserCode('WDJBMJHT')).toEqual(deviceCode);

    // a sealed value is bound to its row: copied onto another client it does not open
    const otherClient = `client-${newId()}`;
    await new Storage('Client').upsert(otherClient, { client_id: otherClient, client_secret: 'other', redirect_uris: [] });
    await pool.query(`UPDATE "OAuthState" SET payload = (SELECT payload FROM "OAuthState" WHERE model = 'Client' AND key = $1) WHERE model = 'Client' AND key = $2`, [
      digest(clientId),
      digest(otherClient),
    ]);
    await expect(new Storage('Client').find(otherClient)).rejects.toThrow();
  });

  it('finds no expired object; an object stored without expiry never expires', async () => {
    const [codeId, sessionId, clientId] = [newId(), newId(), `client-${newId()}`];
    const uid = newId();
    const codes = new Storage('AuthorizationCode');
    const sessions = new Storage('Session');
    await codes.upsert(codeId, token('AuthorizationCode', codeId), 600);
    await sessions.upsert(sessionId, token('Session', sessionId, { uid }), 600);
    await new Storage('Client').upsert(clientId, { client_id: clientId });
    expect(await codes.find(codeId)).toBeDefined();

    await expire('AuthorizationCode', codeId, '1 second');
    await expire('Session', sessionId, '1 second');
    expect(await codes.find(codeId)).toBeUndefined();
    expect(await sessions.find(sessionId)).toBeUndefined();
    expect(await sessions.findByUid(uid)).toBeUndefined();
    expect(await rowOf('Client', clientId)).toMatchObject({ expiresAt: null });
    expect(await new Storage('Client').find(clientId)).toEqual({ client_id: clientId });

    // expiresIn counts from the upsert
    const shortLived = newId();
    await new Storage('ReplayDetection').upsert(shortLived, token('ReplayDetection', shortLived, { iss: 'client-1' }), 1);
    expect(await new Storage('ReplayDetection').find(shortLived)).toBeDefined();
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect(await new Storage('ReplayDetection').find(shortLived)).toBeUndefined();
  });

  it('consume marks the object consumed (epoch seconds) until an upsert replaces it', async () => {
    const id = newId();
    const codes = new Storage('AuthorizationCode');
    const code = token('AuthorizationCode', id, { grantId: 'grant-3', redirectUri: 'https://app.example.test/cb' });
    await codes.upsert(id, code, 600);
    const before = epoch();
    await codes.consume(id);
    const consumed = await codes.find(id);
    expect(consumed).toEqual({ ...code, consumed: expect.any(Number) });
    expect(consumed!.consumed).toBeGreaterThanOrEqual(before - 1);
    expect(consumed!.consumed).toBeLessThanOrEqual(epoch());
    expect((await rowOf('AuthorizationCode', id))!.payload).not.toHaveProperty('consumed');

    // oidc-provider saves a consumed object with `consumed` in its payload: it stays consumed
    await codes.upsert(id, consumed!, 600);
    expect(await codes.find(id)).toEqual(consumed);
    await codes.upsert(id, code, 600);
    expect(await codes.find(id)).toEqual(code);
    // what is not there (it may have just expired) cannot be used
    await expect(codes.consume(newId())).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('consume is single use under concurrency: the second is invalid_grant and takes the grant with it', async () => {
    const codes = new Storage('AuthorizationCode');
    const tokens = new Storage('AccessToken');
    const id = newId();
    const tokenId = newId();
    await codes.upsert(id, token('AuthorizationCode', id, { grantId: 'grant-race' }), 600);
    await tokens.upsert(tokenId, token('AccessToken', tokenId, { grantId: 'grant-race' }), 600);
    const results = await Promise.allSettled(Array.from({ length: 5 }, () => codes.consume(id)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results.filter((r): r is PromiseRejectedResult => r.status === 'rejected')) expect(r.reason).toMatchObject({ error: 'invalid_grant' });
    expect(await tokens.find(tokenId)).toBeUndefined();
  });

  it('destroy removes the object of its own model only', async () => {
    const id = newId();
    await new Storage('Interaction').upsert(id, token('Interaction', id), 600);
    await new Storage('Grant').upsert(id, token('Grant', id), 600);
    await new Storage('Interaction').destroy(id);
    expect(await new Storage('Interaction').find(id)).toBeUndefined();
    expect(await rowOf('Interaction', id)).toBeUndefined();
    expect(await new Storage('Grant').find(id)).toBeDefined();
    await new Storage('Interaction').destroy(id);
  });

  it('revokeByGrantId removes the tokens and codes of that grant, whichever model asks, and nothing else', async () => {
    const [grant, otherGrant] = [newId(), newId()];
    const of = (model: string, grantId: string) => ({ model, id: newId(), grantId });
    const revoked = [of('AccessToken', grant), of('RefreshToken', grant), of('AuthorizationCode', grant), of('DeviceCode', grant)];
    const kept = [of('AccessToken', otherGrant), of('RefreshToken', otherGrant), of('Interaction', grant)];
    for (const { model, id, grantId } of [...revoked, ...kept]) await new Storage(model).upsert(id, token(model, id, { grantId }), 600);
    await new Storage('Grant').upsert(grant, token('Grant', grant), 600);

    await new Storage('RefreshToken').revokeByGrantId(grant);
    for (const { model, id } of revoked) expect(await new Storage(model).find(id), model).toBeUndefined();
    for (const { model, id } of kept) expect(await new Storage(model).find(id), model).toBeDefined();
    // the grant itself is oidc-provider's to destroy (revokeGrantPolicy)
    expect(await new Storage('Grant').find(grant)).toBeDefined();
  });

  it('findByUid finds the live Session of that uid, not another model’s row', async () => {
    const [sessionId, interactionId] = [newId(), newId()];
    const uid = newId();
    const session = token('Session', sessionId, { uid, loginTs: epoch() });
    await new Storage('Session').upsert(sessionId, session, 600);
    await new Storage('Interaction').upsert(interactionId, token('Interaction', interactionId, { uid }), 600);
    expect(await new Storage('Session').findByUid(uid)).toEqual(session);
    expect(await new Storage('Session').findByUid(newId())).toBeUndefined();
    expect(await new Storage('Session').findByUserCode(uid)).toBeUndefined();
  });

  it('pruneExpiredOAuthState deletes the rows expired more than a day ago', async () => {
    const [longGone, justExpired, live, forever] = [newId(), newId(), newId(), `client-${newId()}`];
    for (const id of [longGone, justExpired, live]) await new Storage('AccessToken').upsert(id, token('AccessToken', id), 600);
    await new Storage('Client').upsert(forever, { client_id: forever });
    await expire('AccessToken', longGone, '25 hours');
    await expire('AccessToken', justExpired, '23 hours');

    expect(await pruneExpiredOAuthState(prisma)).toBeGreaterThanOrEqual(1);
    expect(await rowOf('AccessToken', longGone)).toBeUndefined();
    expect(await rowOf('AccessToken', justExpired)).toBeDefined();
    expect(await rowOf('AccessToken', live)).toBeDefined();
    expect(await rowOf('Client', forever)).toBeDefined();
    expect(await pruneExpiredOAuthState(prisma)).toBe(0);
  });
});

describe('oauth storage under oidc-provider', () => {
  it('a Provider saves an access token through it, finds it by its value and revokes it with its grant', async () => {
    // Nothing is mounted: the models work without HTTP. The rest is what the Provider warns about
    // when left out: cookie signing keys and a signing key (else development-only ones), its
    // development login pages, and lifetimes for the models this test saves.
    const signingKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });
    const provider = new Provider('https://auth.example.test', {
      adapter: Storage,
      clients: [],
      cookies: { keys: [randomBytes(32).toString('base64url')] },
      jwks: { keys: [{ ...signingKey, alg: 'RS256', use: 'sig' }] },
      features: { devInteractions: { enabled: false } },
      ttl: { AccessToken: 600, Grant: 600 },
    });

    // a dynamically registered client lives in the adapter's Client model, its secret sealed
    const clientId = `client-${newId()}`;
    const secret = newId();
    await new Storage('Client').upsert(clientId, {
      client_id: clientId,
      client_secret: secret,
      redirect_uris: ['https://app.example.test/cb'],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    });
    const client = await provider.Client.find(clientId);
    expect(client).toMatchObject({ clientId, clientSecret: secret });

    const grant = new provider.Grant({ accountId: 'usr-7', clientId });
    grant.addOIDCScope('openid');
    const grantId = await grant.save();

    const value = await new provider.AccessToken({ accountId: 'usr-7', client: client!, grantId, scope: 'openid' }).save();
    expect(await rowOf('AccessToken', value)).toMatchObject({ key: digest(value), grantId });
    expect((await rowsWithKeys([value])).length).toBe(0);

    const found = await provider.AccessToken.find(value);
    expect(found).toMatchObject({ jti: value, accountId: 'usr-7', clientId, grantId, scope: 'openid', isValid: true });

    await provider.AccessToken.revokeByGrantId(grantId);
    expect(await provider.AccessToken.find(value)).toBeUndefined();
    expect(await rowOf('AccessToken', value)).toBeUndefined();
    expect(await provider.Grant.find(grantId)).toBeDefined();
  });
});
