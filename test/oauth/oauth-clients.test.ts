// The authorization server's client registry (src/modules/oauth/oauth-clients.service.ts) against
// the real database: a registered client is what a real oidc-provider Provider finds, its secret
// sealed; the list shows no secret; revoking takes the client's tokens and grants and no other
// client's; every invalid registration is refused. And `svc oauth-clients` as an operator runs it.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Provider, { type Client } from 'oidc-provider';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/app/errors.ts';
import { hashToken } from '../../src/app/auth/tokens.ts';
import { SecretBox } from '../../src/app/secret-box.ts';
import { createPool, createPrisma } from '../../src/db/prisma.ts';
import type { PrismaClient } from '../../src/generated/prisma/client.ts';
import { oauthClients, oauthStorage, type RegisterClientInput } from '../../src/modules/oauth/index.ts';
import type { ThrowawayDatabase } from '../db/helpers.ts';
import { createMigratedDatabase } from '../support/migrated-database.ts';
import { runSvc } from '../support/svc-cli.ts';

let database: ThrowawayDatabase;
let pool: pg.Pool;
let prisma: PrismaClient;
let clients: ReturnType<typeof oauthClients>;
let provider: Provider;

/** what oidc-provider.d.ts does not declare of a Client: its metadata as registered */
interface ClientWithMetadata extends Client {
  metadata(): Record<string, unknown>;
}

beforeAll(async () => {
  database = await createMigratedDatabase('oauth-clients');
  pool = createPool(database.url, 4, 'oauth-clients-test');
  prisma = createPrisma(pool);
  const secretBox = new SecretBox(randomBytes(32));
  clients = oauthClients({ prisma, secretBox });
  // configured as the storage test's Provider, plus the client metadata the server will declare
  const signingKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });
  provider = new Provider('https://auth.example.test', {
    adapter: oauthStorage({ prisma, secretBox }),
    clients: [],
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    jwks: { keys: [{ ...signingKey, alg: 'RS256', use: 'sig' }] },
    features: { devInteractions: { enabled: false } },
    extraClientMetadata: { properties: ['first_party', 'allowances'] },
    ttl: { AccessToken: 600, Grant: 600 },
  });
});
afterAll(async () => {
  await prisma?.$disconnect();
  await pool?.end();
  await database?.drop();
});

const digest = hashToken;
const tableText = async () => (await pool.query<{ text: string }>(`SELECT "OAuthState"::text AS text FROM "OAuthState"`)).rows.map((r) => r.text).join('\n');
const clientRowCount = async () => (await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM "OAuthState" WHERE model = 'Client'`)).rows[0]!.n;

const webApp: RegisterClientInput = { name: 'Web app', redirectUris: ['https://app.example.test/cb'] };

/** A grant and an access token the Provider issues to the client; answers the token's value and the grant's id. */
async function issueToken(clientId: string) {
  const client = (await provider.Client.find(clientId))!;
  const grant = new provider.Grant({ accountId: 'usr-1', clientId });
  grant.addOIDCScope('openid');
  const grantId = await grant.save();
  const value = await new provider.AccessToken({ accountId: 'usr-1', client, grantId, scope: 'openid' }).save();
  return { value, grantId };
}

describe('oauth clients', () => {
  it('a confidential client is found by the Provider with its metadata and secret; the secret is not stored in the clear', async () => {
    const created = await clients.registerClient({
      name: 'Team assistant',
      redirectUris: ['https://assistant.example.test/callback', 'https://assistant.example.test/other'],
      firstParty: true,
      allowances: ['team-assistant', 'svc-spaces'],
      confidential: true,
    });
    expect(created.clientId).toMatch(/^oc_[\w-]{32}$/);
    expect(Buffer.from(created.clientSecret!, 'base64url')).toHaveLength(32);

    const client = (await provider.Client.find(created.clientId)) as ClientWithMetadata | undefined;
    expect(client).toMatchObject({ clientId: created.clientId, clientSecret: created.clientSecret });
    expect(client!.metadata()).toMatchObject({
      client_id: created.clientId,
      client_name: 'Team assistant',
      redirect_uris: ['https://assistant.example.test/callback', 'https://assistant.example.test/other'],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
      first_party: true,
      allowances: ['team-assistant', 'svc-spaces'],
    });

    const row = (await pool.query(`SELECT payload FROM "OAuthState" WHERE model = 'Client' AND key = $1`, [digest(created.clientId)])).rows[0];
    expect(row.payload.client_secret).toEqual({ sealed: expect.any(String) });
    expect(await tableText()).not.toContain(created.clientSecret);
  });

  it('a public client has no secret and authenticates with none; loopback and private-use redirect URIs make it a native one', async () => {
    const redirectUris = ['http://127.0.0.1:8765/cb', 'http://[::1]/cb', 'http://localhost:3000/cb', 'com.example.app:/oauth/callback', 'https://app.example.test/cb'];
    const created = await clients.registerClient({ name: 'Desktop app', redirectUris });
    expect(created).toEqual({ clientId: expect.stringMatching(/^oc_/) });

    const client = (await provider.Client.find(created.clientId)) as ClientWithMetadata | undefined;
    expect(client!.clientSecret).toBeUndefined();
    expect(client!.metadata()).toMatchObject({
      application_type: 'native',
      token_endpoint_auth_method: 'none',
      redirect_uris: redirectUris,
      first_party: false,
      allowances: [],
    });
  });

  it('lists every client with its public facts and never a secret', async () => {
    const confidential = await clients.registerClient({ ...webApp, name: 'Listed confidential', allowances: ['svc-spaces'], confidential: true });
    const open = await clients.registerClient({ ...webApp, name: 'Listed public', firstParty: true });

    const listed = await clients.listClients();
    expect(listed.find((c) => c.clientId === confidential.clientId)).toEqual({
      clientId: confidential.clientId,
      name: 'Listed confidential',
      redirectUris: ['https://app.example.test/cb'],
      firstParty: false,
      allowances: ['svc-spaces'],
      confidential: true,
      createdAt: expect.any(Date),
    });
    expect(listed.find((c) => c.clientId === open.clientId)).toMatchObject({ name: 'Listed public', firstParty: true, confidential: false });
    expect(listed).toHaveLength(await clientRowCount());
    expect(JSON.stringify(listed)).not.toContain(confidential.clientSecret);
    expect(JSON.stringify(listed)).not.toContain('sealed');
  });

  it('revoke deletes the client and what was issued to it, and nothing of another client', async () => {
    const revoked = await clients.registerClient({ ...webApp, name: 'To revoke', confidential: true });
    const kept = await clients.registerClient({ ...webApp, name: 'To keep' });
    const [revokedToken, keptToken] = [await issueToken(revoked.clientId), await issueToken(kept.clientId)];
    expect(await provider.AccessToken.find(revokedToken.value)).toMatchObject({ clientId: revoked.clientId, isValid: true });

    expect(await clients.revokeClient(revoked.clientId)).toBe(true);
    expect(await provider.Client.find(revoked.clientId)).toBeUndefined();
    expect(await provider.AccessToken.find(revokedToken.value)).toBeUndefined();
    expect(await provider.Grant.find(revokedToken.grantId)).toBeUndefined();
    expect((await clients.listClients()).map((c) => c.clientId)).not.toContain(revoked.clientId);

    expect(await provider.Client.find(kept.clientId)).toBeDefined();
    expect(await provider.AccessToken.find(keptToken.value)).toMatchObject({ clientId: kept.clientId, isValid: true });
    expect(await provider.Grant.find(keptToken.grantId)).toBeDefined();

    expect(await clients.revokeClient(revoked.clientId)).toBe(false);
    expect(await clients.revokeClient('oc_unknown')).toBe(false);
  });

  it('accepts the limits: a 100-character name and 10 redirect URIs', async () => {
    const redirectUris = Array.from({ length: 10 }, (_, i) => `https://app.example.test/cb/${i}`);
    const created = await clients.registerClient({ name: 'n'.repeat(100), redirectUris });
    expect(await provider.Client.find(created.clientId)).toBeDefined();
  });

  const refusals: [string, RegisterClientInput, RegExp][] = [
    ['an empty name', { ...webApp, name: '' }, /name must be 1 to 100 characters/],
    ['a blank name', { ...webApp, name: '   ' }, /name must be 1 to 100 characters/],
    ['a name of 101 characters', { ...webApp, name: 'n'.repeat(101) }, /name must be 1 to 100 characters/],
    ['no redirect URI', { ...webApp, redirectUris: [] }, /at least one redirect URI/],
    ['11 redirect URIs', { ...webApp, redirectUris: Array.from({ length: 11 }, (_, i) => `https://app.example.test/${i}`) }, /at most 10 redirect URIs/],
    ['a relative redirect URI', { ...webApp, redirectUris: ['/callback'] }, /not an absolute URI/],
    ['http on a public host', { ...webApp, redirectUris: ['http://app.example.test/cb'] }, /http only for a loopback host/],
    ['a fragment', { ...webApp, redirectUris: ['https://app.example.test/cb#done'] }, /must not have a fragment/],
    ['an empty fragment', { ...webApp, redirectUris: ['https://app.example.test/cb#'] }, /must not have a fragment/],
    ['a javascript: URI', { ...webApp, redirectUris: ['javascript:alert(1)'] }, /must be https, http on a loopback host, or a private-use scheme/],
    ['a scheme that is no reversed domain', { ...webApp, redirectUris: ['myapp:/callback'] }, /must be https, http on a loopback host, or a private-use scheme/],
    ['another web scheme', { ...webApp, redirectUris: ['ftp://app.example.test/cb'] }, /must be https, http on a loopback host, or a private-use scheme/],
    ['https on a loopback host in a native client', { ...webApp, redirectUris: ['com.example.app:/cb', 'https://localhost/cb'] }, /native client .* cannot also redirect to https on a loopback host/],
    ['an unknown allowance', { ...webApp, allowances: ['team-assistant', 'everything'] }, /unknown allowance everything \(known: team-assistant, svc-spaces\)/],
  ];

  it.each(refusals)('refuses %s, and stores nothing', async (_case, input, message) => {
    const before = await clientRowCount();
    const refused = clients.registerClient(input);
    await expect(refused).rejects.toBeInstanceOf(ValidationError);
    await expect(refused).rejects.toThrow(message);
    expect(await clientRowCount()).toBe(before);
  });
});

describe('svc oauth-clients', () => {
  let dataDir: string;
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('creates, lists and revokes a client; refuses invalid input (1) and a mistyped command line (2)', async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-oauth-clients-'));
    const env = { DATABASE_URL: database.url, DATA_DIR: dataDir };

    const create = await runSvc(
      ['oauth-clients', 'create', '--name', 'CLI client', '--redirect-uri', 'https://cli.example.test/cb', '--redirect-uri', 'com.example.cli:/cb', '--first-party', '--allow', 'team-assistant', '--confidential'],
      env,
    );
    expect(create.code, create.stderr).toBe(0);
    const createdLines = create.stdout.trim().split('\n');
    expect(createdLines).toHaveLength(1);
    const created = JSON.parse(createdLines[0]!) as { clientId: string; clientSecret: string };
    expect(Object.keys(created).sort()).toEqual(['clientId', 'clientSecret']);
    // sealed under the secrets key of DATA_DIR, the one a server sharing the folder opens it with
    expect(fs.existsSync(path.join(dataDir, 'secrets-key'))).toBe(true);
    expect(await tableText()).not.toContain(created.clientSecret);

    const list = await runSvc(['oauth-clients', 'list'], env);
    expect(list.code, list.stderr).toBe(0);
    const listed = list.stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(listed.find((c) => c.clientId === created.clientId)).toEqual({
      clientId: created.clientId,
      name: 'CLI client',
      redirectUris: ['https://cli.example.test/cb', 'com.example.cli:/cb'],
      firstParty: true,
      allowances: ['team-assistant'],
      confidential: true,
      createdAt: expect.any(String),
    });
    expect(list.stdout).not.toContain(created.clientSecret);

    const revoke = await runSvc(['oauth-clients', 'revoke', created.clientId], env);
    expect(revoke.code, revoke.stderr).toBe(0);
    expect(JSON.parse(revoke.stdout)).toEqual({ revoked: true });
    expect(await provider.Client.find(created.clientId)).toBeUndefined();

    const [again, invalid, usage] = await Promise.all([
      runSvc(['oauth-clients', 'revoke', created.clientId], env),
      runSvc(['oauth-clients', 'create', '--name', 'Bad', '--redirect-uri', 'http://cli.example.test/cb'], env),
      runSvc(['oauth-clients', 'create', '--redirect-uri', 'https://cli.example.test/cb'], env),
    ]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`no client ${created.clientId}`);
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toMatch(/redirect URI http:\/\/cli\.example\.test\/cb: http only for a loopback host/);
    expect(invalid.stdout).toBe('');
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('--name is required');
    expect(usage.stderr).toContain('oauth-clients create --name <name>');
  });
});
