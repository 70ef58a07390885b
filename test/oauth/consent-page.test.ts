// The hosted sign-in and consent page in the machine's Chromium: an authorization request from a
// registered client, the user signing in (password, then the second factor when on), choosing the
// team, reading the client's name, the scopes and where they go back to, and approving (a code the
// client redeems for a working token) or denying (access_denied). Screenshots are saved under the
// system's temp folder. Also: the page's policy, a forged decision, an unknown interaction.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import * as oauth from 'oauth4webapi';
import type { Browser, Page } from 'puppeteer-core';
import { Agent, fetch as undiciFetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../rest-adapter/docs-browser-check.ts';
import { createTeam, type TeamFixture, uniqueEmail } from '../support/fixtures.ts';
import { enableMfa, totp } from '../mfa/mfa-fixtures.ts';
import { useServer } from '../support/use-server.ts';

const PASSWORD = 'correct horse battery staple';
const { server } = useServer();
const shots = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-oauth-consent-'));

let browser: Browser;
let callbackServer: http.Server;
let redirectUri: string;
let as: oauth.AuthorizationServer;
let client: oauth.Client;
let options: { [oauth.customFetch]: typeof fetch };
let plain: TeamFixture;
let withMfa: TeamFixture & { secret: string };

beforeAll(async () => {
  // the client's redirect URI: a local page that just says it got the answer
  callbackServer = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('callback reached'));
  await new Promise<void>((resolve) => callbackServer.listen(0, '127.0.0.1', resolve));
  redirectUri = `http://127.0.0.1:${(callbackServer.address() as AddressInfo).port}/callback`;
  const dispatcher = new Agent({ connect: { ca: server.ca } });
  options = { [oauth.customFetch]: ((url: string, init: object) => undiciFetch(url, { ...init, dispatcher })) as unknown as typeof fetch };
  const issuer = new URL(server.baseUrl);
  as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...options }));
  client = await oauth.processDynamicClientRegistrationResponse(
    await oauth.dynamicClientRegistrationRequest(as, { redirect_uris: [redirectUri], token_endpoint_auth_method: 'none', client_name: 'Desk Assistant' }, options),
  );
  plain = await createTeam(server, { email: uniqueEmail('consent') });
  const mfaTeam = await createTeam(server, { email: uniqueEmail('consent-mfa') });
  withMfa = { ...mfaTeam, secret: (await enableMfa(server, mfaTeam.userToken)).secret };
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => callbackServer?.close(resolve));
});

async function startAuthorization(page: Page, scope: string) {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint!);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: client.client_id,
    redirect_uri: redirectUri,
    scope,
    state,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  }).toString();
  const response = await page.goto(url.href, { waitUntil: 'networkidle0' });
  return { verifier, state, response };
}

async function signIn(page: Page, email: string) {
  await page.type('#sign-in input[name=email]', email);
  await page.type('#sign-in input[name=password]', PASSWORD);
  await page.click('#sign-in button[type=submit]');
}

/** Clicks a decision and waits for the browser to land on the client's redirect URI. */
async function clickAndLand(page: Page, selector: string): Promise<URL> {
  await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.click(selector)]);
  // the authorization endpoint redirects once more, to the callback
  await page.waitForFunction((prefix: string) => location.href.startsWith(prefix), {}, redirectUri);
  return new URL(page.url());
}

describe('the hosted consent page', () => {
  it('signs in, shows the client, the scopes and the return address, and approves: a code that redeems to a working token', async () => {
    const page = await (await browser.createBrowserContext()).newPage();
    const problems: string[] = [];
    // script errors, policy violations and failed loads (the browser's own favicon request aside)
    page.on('console', (message) => message.type() === 'error' && !message.text().startsWith('Failed to load resource') && problems.push(message.text()));
    page.on('response', (r) => r.status() >= 400 && !r.url().endsWith('/favicon.ico') && problems.push(`${r.status()} ${r.url()}`));
    const { verifier, state, response } = await startAuthorization(page, 'schema:read records:read');
    expect(response?.headers()['content-security-policy']).toContain("default-src 'self'");
    expect(response?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(await page.$eval('h1', (h) => h.textContent)).toBe('Desk Assistant wants to use your account');
    expect(await page.$eval('#returns-to', (e) => e.textContent)).toBe(new URL(redirectUri).host);
    await page.screenshot({ path: path.join(shots, 'sign-in.png') });

    await signIn(page, plain.email);
    await page.waitForSelector('#step-consent:not([hidden])');
    expect(await page.$$eval('#scopes li', (items) => items.map((li) => li.textContent))).toEqual([
      "See the team's collections and their fields schema:read",
      'Read records records:read',
    ]);
    expect(await page.$$eval('#team option', (options) => options.map((o) => (o as HTMLOptionElement).value))).toEqual([plain.teamSimplyId]);
    await page.screenshot({ path: path.join(shots, 'consent.png') });

    const landed = await clickAndLand(page, '#approve');
    await page.screenshot({ path: path.join(shots, 'callback.png') });
    console.log(`consent page screenshots: ${shots}`);
    expect(problems, problems.join('\n')).toEqual([]);
    const params = oauth.validateAuthResponse(as, client, landed, state);
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, redirectUri, verifier, options));
    expect(tokens.scope).toBe('schema:read records:read');
    const collections = await server.request('GET', '/v1/data-collections', { token: tokens.access_token });
    expect(collections.status, collections.text).toBe(200);
    // the sign-in the page made ended with the decision
    const sessions = await server.request('GET', '/v1/users/me/sessions', { token: plain.userToken });
    expect(sessions.body.data.filter((s: { deviceName?: string; revokedAt?: string | null }) => s.deviceName === 'OAuth consent page' && !s.revokedAt)).toEqual([]);
    await page.close();
  });

  it('asks for the second factor when it is on, and a denial goes back as access_denied', async () => {
    const page = await (await browser.createBrowserContext()).newPage();
    const { state } = await startAuthorization(page, 'records:read');
    await signIn(page, withMfa.email);
    await page.waitForSelector('#step-mfa:not([hidden])');
    // the next step's code: enabling used the current one, which cannot be used twice
    await page.type('#mfa input[name=code]', await totp(withMfa.secret, 1));
    await page.click('#mfa button[type=submit]');
    await page.waitForSelector('#step-consent:not([hidden])');
    const landed = await clickAndLand(page, '#deny');
    expect(Object.fromEntries(landed.searchParams)).toMatchObject({ error: 'access_denied', state, iss: server.baseUrl });
    expect(landed.searchParams.get('code')).toBeNull();
    await page.close();
  });

  it('shows a wrong password on the page, refuses a decision without the page\'s token, and explains an unknown request', async () => {
    const page = await (await browser.createBrowserContext()).newPage();
    await startAuthorization(page, 'records:read');
    await page.type('#sign-in input[name=email]', plain.email);
    await page.type('#sign-in input[name=password]', 'not the password');
    await page.click('#sign-in button[type=submit]');
    await page.waitForSelector('#error:not([hidden])');
    expect(await page.$eval('#sign-in', (f) => f.closest('section')!.hidden)).toBe(false);

    // the same browser (its interaction cookie), the user's token, but no anti-forgery token
    const uid = await page.$eval('#consent', (m) => (m as HTMLElement).dataset.uid);
    const forged = await page.evaluate(
      async (uidValue: string, token: string, team: string) => {
        const r = await fetch(`/oauth/interaction/${uidValue}/decision`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'x-team-id': team, 'content-type': 'application/x-www-form-urlencoded' }, body: 'decision=approve&csrf=forged' });
        return { status: r.status, body: await r.json() };
      },
      uid!,
      plain.userToken,
      plain.teamSimplyId,
    );
    expect(forged).toMatchObject({ status: 403, body: { error: 'access_denied' } });
    await page.close();

    const unknown = await server.request('GET', '/oauth/interaction/not-a-request');
    expect(unknown.status).toBe(400);
    expect(unknown.text).toContain('expired');
    expect(unknown.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect((await server.request('GET', '/oauth/assets/consent.js')).headers.get('content-type')).toMatch(/javascript/);
    expect((await server.request('GET', '/oauth/assets/..%2Fconsent-page.ts')).status).toBe(404);
  });
});
