// The hosted sign-in and consent page: markup rendered here (every value escaped), its script and
// stylesheet served from this folder under fixed names, and nothing from anywhere else: the policy
// allows this origin's files only, no inline code, no framing, forms posting only here.
import fs from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { escapeHtml } from '../../../app/html-escape.ts';
import { htmlPage, sendHtmlPage } from '../../../app/http/link-page.ts';
import type { OauthScope } from '../../../app/auth/oauth-scopes.ts';
import { SCOPE_WORDS } from './scope-words.ts';

const POLICY = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

const ASSETS = new Map([
  ['consent.js', { file: path.join(import.meta.dirname, 'consent.browser.js'), contentType: 'text/javascript; charset=utf-8' }],
  ['consent.css', { file: path.join(import.meta.dirname, 'consent.css'), contentType: 'text/css; charset=utf-8' }],
]);

export interface ConsentPageInput {
  uid: string;
  csrf: string;
  clientName: string;
  /** the platform's own application: no scope list to approve, the team choice is enough */
  firstParty: boolean;
  /** the host (or app scheme) of the redirect URI */
  returnsTo: string;
  scopes: string[];
  resource: 'v1' | 'mcp';
}

export function consentPage(input: ConsentPageInput): string {
  const name = escapeHtml(input.clientName);
  const scopes = input.scopes.map((s) => `<li>${escapeHtml(SCOPE_WORDS[s as OauthScope] ?? s)} <code>${escapeHtml(s)}</code></li>`).join('');
  const through = input.resource === 'mcp' ? ' through the Model Context Protocol (MCP)' : '';
  return shell(
    `Allow ${input.clientName}`,
    `<main id="consent" data-uid="${escapeHtml(input.uid)}" data-csrf="${escapeHtml(input.csrf)}" data-first-party="${input.firstParty}">
<h1>${name} wants to use your account</h1>
<p class="muted">Afterwards you will be sent back to <strong id="returns-to">${escapeHtml(input.returnsTo)}</strong>.</p>
<section id="step-sign-in">
<h2>Sign in</h2>
<form id="sign-in">
<label>Email <input name="email" type="email" autocomplete="username" required></label>
<label>Password <input name="password" type="password" autocomplete="current-password" required></label>
<button type="submit">Sign in</button>
</form>
</section>
<section id="step-mfa" hidden>
<h2>Second factor</h2>
<form id="mfa">
<label>Code from your authenticator app, or a recovery code <input name="code" autocomplete="one-time-code" required></label>
<button type="submit">Verify</button>
</form>
</section>
<section id="step-consent" hidden>
<h2>${input.firstParty ? 'Choose the team' : 'Allow access'}</h2>
<form id="decide">
<label>Team <select name="team" id="team" required></select></label>
${input.firstParty ? '' : `<p>${name} will be able to, in this team and as far as your role allows${escapeHtml(through)}:</p><ul id="scopes">${scopes}</ul>`}
<div class="buttons">
<button type="submit" name="decision" value="approve" id="approve">${input.firstParty ? 'Continue' : 'Allow'}</button>
<button type="submit" name="decision" value="deny" id="deny" class="secondary">${input.firstParty ? 'Cancel' : 'Deny'}</button>
</div>
</form>
</section>
<p id="error" role="alert" hidden></p>
</main>`,
  );
}

/** What a browser sees when the request cannot go on: the reason, and no link onwards. */
export function errorPage(message: string): string {
  return shell('Authorization failed', `<main><h1>Authorization failed</h1><p>${escapeHtml(message)}</p></main>`);
}

function shell(title: string, body: string): string {
  return htmlPage({ title, head: '<link rel="stylesheet" href="/oauth/assets/consent.css">\n<script src="/oauth/assets/consent.js" defer></script>', body });
}

export function sendPage(req: IncomingMessage, res: ServerResponse, status: number, html: string): void {
  sendHtmlPage(req, res, status, html, POLICY);
}

/** One of the page's own files by its fixed name; anything else is 404. */
export function serveConsentAsset(req: IncomingMessage, res: ServerResponse, name: string): void {
  const asset = ASSETS.get(name);
  if (!asset || (req.method !== 'GET' && req.method !== 'HEAD')) {
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8', 'content-length': 9 });
    return void res.end('not found');
  }
  const body = fs.readFileSync(asset.file);
  res.writeHead(200, {
    'content-type': asset.contentType,
    'content-length': body.length,
    'cache-control': 'no-cache',
    'x-content-type-options': 'nosniff',
    'content-security-policy': POLICY,
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}
