// Client ID metadata documents: a client whose client_id is an https URL is known by the document
// at that URL, fetched through the platform's guard for user-supplied targets. It runs the code
// flow like any client; a document naming another client_id, or claiming an operator's marks, is
// refused; and without the tests' loopback allowance the guard refuses the loopback host itself.
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { generate } from 'selfsigned';
import { inject, afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';
import { createTeam, type TeamFixture } from '../support/fixtures.ts';

const REDIRECT = 'http://127.0.0.1:4996/callback';
let documents: https.Server;
let origin: string;
let server: TestServer;
let guarded: TestServer;
let team: TeamFixture;
const served = new Map<string, object>();

beforeAll(async () => {
  const pems = await generate([{ name: 'commonName', value: `client metadata ${randomBytes(3).toString('hex')}` }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }] }],
  });
  const certFile = path.join(inject('testDataDir'), `client-metadata-${randomBytes(3).toString('hex')}.pem`);
  fs.writeFileSync(certFile, pems.cert);
  documents = https.createServer({ key: pems.private, cert: pems.cert }, (req, res) => {
    const document = served.get(req.url ?? '');
    if (!document) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=60' }).end(JSON.stringify(document));
  });
  await new Promise<void>((resolve) => documents.listen(0, '127.0.0.1', resolve));
  origin = `https://localhost:${(documents.address() as AddressInfo).port}`;
  server = await startTestServer({ env: { OAUTH_CLIENT_METADATA_ALLOW_LOOPBACK: true, OAUTH_CLIENT_METADATA_CA_FILE: certFile } });
  // the same platform (its data folder: keys, users' tokens) with the guard as in production
  guarded = await startTestServer({ dataDir: server.dataDir, env: { OAUTH_CLIENT_METADATA_CA_FILE: certFile } });
  team = await createTeam(server);
});

afterAll(async () => {
  await server?.close();
  await guarded?.close();
  await new Promise((resolve) => documents?.close(resolve));
});

function documentAt(name: string, overrides: Record<string, unknown> = {}): string {
  const clientId = `${origin}/${name}.json`;
  served.set(`/${name}.json`, { client_id: clientId, client_name: 'Metadata App', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none', ...overrides });
  return clientId;
}

function decide(on: TestServer, clientId: string) {
  return on.request('POST', '/oauth/authorize', {
    token: team.userToken,
    teamId: team.teamSimplyId,
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    rawBody: new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: REDIRECT, scope: 'records:read', state: 's', code_challenge: 'a'.repeat(43), code_challenge_method: 'S256', decision: 'approve' }).toString(),
  });
}

describe('client ID metadata documents', () => {
  it('knows a client by the document at its client_id URL', async () => {
    const response = await decide(server, documentAt('good'));
    expect(response.status, response.text).toBe(302);
    expect(new URL(response.headers.get('location')!).searchParams.get('code')).toBeTruthy();
  });

  it("refuses a document naming another client_id, claiming an operator's marks, or missing", async () => {
    for (const clientId of [documentAt('other', { client_id: 'https://elsewhere.example/client.json' }), documentAt('marked', { first_party: true }), `${origin}/missing.json`]) {
      const response = await decide(server, clientId);
      expect(response.status, clientId).toBe(400);
      expect(response.body, clientId).toMatchObject({ error: 'invalid_client' });
    }
  });

  it('never fetches from a loopback or private host without the tests\' allowance', async () => {
    const response = await decide(guarded, documentAt('guarded'));
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error: 'invalid_client' });
  });
});
