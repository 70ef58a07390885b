// Signing visitors in to a site's access areas (docs/api/websites.md "Signing in on the site"):
//
//   GET  {site}/_signin?next=/members        the email form
//   POST {site}/_signin  step=email          mails a 6-digit code (constituent authentication), shows the code form
//   POST {site}/_signin  step=code           checks the code; the visitor's tokens go into cookies, 303 to `next`
//   POST {site}/_signin  step=signout        ends the session, clears the cookies, 303 to the home page
//
// where {site} is /sites/{slug} (or nothing on the site's custom domain). The forms are plain HTML
// (the served pages run no script); the tokens are those of the constituent routes, kept in
// HttpOnly, Secure, SameSite=Lax cookies scoped to the site's path: the access token (30 minutes)
// and the refresh token, which renews it (served-access.ts). The same limits and decoys apply as on
// /v1/constituent-auth: the code form shows whether or not the address belongs to anyone.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ANONYMOUS, type Principal } from '../../app/auth/principal.ts';
import { CONSTITUENT_ACCESS_TOKEN_PREFIX, CONSTITUENT_REFRESH_TOKEN_PREFIX } from '../../app/auth/tokens.ts';
import type { RequestContext, Services } from '../../app/context.ts';
import { ApiError } from '../../app/errors.ts';
import { escapeHtml } from '../../app/html-escape.ts';
import { clientAddress } from '../../app/http/client-address.ts';
import { type ConstituentTokens, initiateConstituentSignIn, logoutConstituent, verifyConstituentSignIn } from '../constituent-auth/index.ts';
import { hostOf, platformHost } from './serve-host.ts';
import { type ServedSite, siteByDomain, siteBySlug } from './serve-site.ts';

export const SIGN_IN_SEGMENT = '/_signin';
export const ACCESS_COOKIE = 'svc_site_at';
export const REFRESH_COOKIE = 'svc_site_rt';
const BODY_LIMIT = 8 * 1024;
const POLICY = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

/** The site's base path in the URL a request came by: `/sites/{slug}`, or '' on its custom domain. */
export function basePathOf(req: IncomingMessage, site: Pick<ServedSite, 'slug'>): string {
  const prefix = `/sites/${site.slug}`;
  const path = (req.url ?? '/').split('?')[0]!;
  return path === prefix || path.startsWith(`${prefix}/`) ? prefix : '';
}

export function readCookie(req: IncomingMessage, name: string): string | null {
  const header = req.headers.cookie;
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim() || null;
  }
  return null;
}

const cookie = (name: string, value: string, base: string, maxAgeSeconds: number) =>
  `${name}=${value}; Path=${base}/; Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}; HttpOnly; Secure; SameSite=Lax`;

export function sessionCookies(tokens: ConstituentTokens, base: string): string[] {
  const now = Date.now();
  return [
    cookie(ACCESS_COOKIE, tokens.accessToken, base, (tokens.accessTokenExpiresAt.getTime() - now) / 1000),
    cookie(REFRESH_COOKIE, tokens.refreshToken, base, (tokens.refreshTokenExpiresAt.getTime() - now) / 1000),
  ];
}

export const clearedCookies = (base: string): string[] => [cookie(ACCESS_COOKIE, '', base, 0), cookie(REFRESH_COOKIE, '', base, 0)];

/** A context for the constituent-auth steps: nobody is signed in, the visitor's address counts for the limits. */
export function visitorContext(services: Services, req: IncomingMessage, principal: Principal = ANONYMOUS): RequestContext {
  return { requestId: randomUUID(), principal, clientIp: clientAddress(req, services.config.TRUST_PROXY), services, logger: services.logger };
}

/** The constituent signed in by the access cookie, in any team, or null (no cookie, or not valid now). */
export async function cookiePrincipal(services: Services, req: IncomingMessage): Promise<Principal | null> {
  const token = readCookie(req, ACCESS_COOKIE);
  // only a constituent's token is looked at: a cookie never carries a team credential
  if (!token?.startsWith(CONSTITUENT_ACCESS_TOKEN_PREFIX)) return null;
  try {
    const principal = await services.authenticator.authenticate({ authorization: `Bearer ${token}`, teamSelector: null, clientIp: clientAddress(req, services.config.TRUST_PROXY) });
    return principal.kind === 'CONSTITUENT' && principal.constituent ? principal : null;
  } catch {
    return null;
  }
}

export const refreshCookie = (req: IncomingMessage): string | null => {
  const token = readCookie(req, REFRESH_COOKIE);
  return token?.startsWith(CONSTITUENT_REFRESH_TOKEN_PREFIX) ? token : null;
};

/** `next` when it is a page address of the site, else the site's home page. */
function safeNext(next: string | null | undefined, base: string): string {
  if (typeof next === 'string' && next.length <= 1000 && next.startsWith(`${base}/`) && /^(?:\/[a-z0-9-]{1,100})*\/?$/.test(next)) return next;
  return `${base}/`;
}

export interface SignInPage {
  status: number;
  siteName: string;
  base: string;
  next: string;
  step: 'email' | 'code' | 'denied';
  message?: string | null;
  error?: string | null;
  verificationSimplyId?: string;
  headers?: Record<string, string | string[]>;
}

/** The sign-in, code and no-access pages: plain forms, nothing that runs. */
export function sendSignInPage(req: IncomingMessage, res: ServerResponse, p: SignInPage): void {
  const action = escapeHtml(`${p.base}${SIGN_IN_SEGMENT}`);
  const hidden = (name: string, value: string) => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`;
  const message = p.message ? `<p class="message">${escapeHtml(p.message)}</p>` : '';
  const error = p.error ? `<p class="error" role="alert">${escapeHtml(p.error)}</p>` : '';
  let body: string;
  if (p.step === 'email') {
    body = `<h1>Sign in</h1>${message}${error}<form method="post" action="${action}">${hidden('step', 'email')}${hidden('next', p.next)}
<label for="email">Your email address</label><input id="email" name="email" type="email" autocomplete="email" required maxlength="320">
<button type="submit">Send me a code</button></form>`;
  } else if (p.step === 'code') {
    body = `<h1>Enter your code</h1><p>If we know this address, we have sent a 6-digit code to it. It works once, within 15 minutes.</p>${error}
<form method="post" action="${action}">${hidden('step', 'code')}${hidden('next', p.next)}${hidden('verificationSimplyId', p.verificationSimplyId ?? '')}
<label for="code">Code</label><input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" maxlength="6" required>
<button type="submit">Sign in</button></form>
<p><a href="${escapeHtml(`${p.base}${SIGN_IN_SEGMENT}?next=${encodeURIComponent(p.next)}`)}">Use another address or get a new code</a></p>`;
  } else {
    body = `<h1>No access</h1>${message}<p>You are signed in, but these pages are not open to your account.</p>
<form method="post" action="${action}">${hidden('step', 'signout')}<button type="submit">Sign out</button></form>`;
  }
  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(p.siteName)}: sign in</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:4rem auto;padding:0 1rem;line-height:1.5}label,input,button{display:block;font:inherit;margin:.5rem 0}input{width:100%;padding:.5rem;box-sizing:border-box}button{padding:.5rem 1rem}.error{color:#a00}</style></head>
<body><p>${escapeHtml(p.siteName)}</p>${body}</body>
</html>
`;
  res.writeHead(p.status, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': Buffer.byteLength(html),
    'cache-control': 'private, no-store',
    'content-security-policy': POLICY,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'same-origin',
    ...p.headers,
  });
  res.end(req.method === 'HEAD' ? undefined : html);
}

export function redirectTo(res: ServerResponse, location: string, cookies: string[]): void {
  res.writeHead(303, { location, 'cache-control': 'no-store', 'set-cookie': cookies, 'content-length': 0 });
  res.end();
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams | null> {
  const type = String(req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') return null;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > BODY_LIMIT) return null;
    chunks.push(chunk as Buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/** A form posted from another origin is refused: sign-in forms are posted by the site's own pages. */
function crossOrigin(req: IncomingMessage): boolean {
  const origin = req.headers.origin;
  if (!origin || origin === 'null') return origin === 'null';
  try {
    return new URL(origin).host.toLowerCase() !== String(req.headers.host ?? '').toLowerCase();
  } catch {
    return true;
  }
}

function plain(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', ...headers });
  res.end(`${text}\n`);
}

/** The site a sign-in request is for and its base path, or null when the request is not one. */
async function signInTarget(services: Services, req: IncomingMessage, url: URL): Promise<{ site: ServedSite | null; base: string } | null> {
  const host = hostOf(req.headers.host);
  if (services.servedPages?.siteOfDomain(host) !== undefined && host !== platformHost(services)) {
    return url.pathname === SIGN_IN_SEGMENT ? { site: await siteByDomain(services, host), base: '' } : null;
  }
  const match = /^\/sites\/([a-z0-9-]{1,63})\/_signin$/.exec(url.pathname);
  return match ? { site: await siteBySlug(services, match[1]!), base: `/sites/${match[1]}` } : null;
}

/** Answers a sign-in request of a served site; false when the request is not one (the serving handler goes on). */
export async function serveSignIn(services: Services, req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> {
  const target = await signInTarget(services, req, url);
  if (!target) return false;
  const { site, base } = target;
  if (!site || !site.isPublished) {
    plain(res, 404, 'Not found');
    return true;
  }
  const page = (over: Omit<SignInPage, 'siteName' | 'base'>) => sendSignInPage(req, res, { siteName: site.name, base, ...over });
  if (req.method === 'GET' || req.method === 'HEAD') {
    page({ status: 200, step: 'email', next: safeNext(url.searchParams.get('next'), base) });
    return true;
  }
  if (req.method !== 'POST') {
    plain(res, 405, 'Method not allowed', { allow: 'GET, HEAD, POST' });
    return true;
  }
  if (crossOrigin(req)) {
    plain(res, 403, 'Forbidden');
    return true;
  }
  const form = await readForm(req);
  if (!form) {
    plain(res, 400, 'Send the sign-in form (application/x-www-form-urlencoded, at most 8 KiB)');
    return true;
  }
  const next = safeNext(form.get('next'), base);
  const step = form.get('step');
  try {
    if (step === 'email') {
      const team = await services.prisma.team.findUnique({ where: { id: site.teamId }, select: { simplyId: true } });
      const issued = await initiateConstituentSignIn(visitorContext(services, req), { teamSimplyId: team?.simplyId ?? '', contactValue: (form.get('email') ?? '').trim(), method: 'CODE' });
      page({ status: 200, step: 'code', next, verificationSimplyId: issued.verificationSimplyId });
    } else if (step === 'code') {
      const verificationSimplyId = form.get('verificationSimplyId') ?? '';
      try {
        const tokens = await verifyConstituentSignIn(visitorContext(services, req), { verificationSimplyId, code: (form.get('code') ?? '').trim(), platform: 'web', deviceName: site.name.slice(0, 100) });
        redirectTo(res, next, sessionCookies(tokens, base));
      } catch (error) {
        if (error instanceof ApiError && (error.code === 'INVALID_VERIFICATION_CODE' || error.code === 'VALIDATION_ERROR')) {
          page({ status: 400, step: 'code', next, verificationSimplyId, error: 'That code is not right. Check it and try again.' });
        } else throw error;
      }
    } else if (step === 'signout') {
      const principal = await cookiePrincipal(services, req);
      if (principal) await logoutConstituent(visitorContext(services, req, principal));
      redirectTo(res, `${base}/`, clearedCookies(base));
    } else {
      plain(res, 400, 'Unknown sign-in step');
    }
  } catch (error) {
    if (!(error instanceof ApiError) || error.status >= 500) throw error;
    const why =
      error.status === 429
        ? 'Too many attempts from your address. Wait a few minutes, then try again.'
        : error.status === 401
          ? 'That code has expired or was used up. Ask for a new one.'
          : 'Enter a valid email address.';
    page({ status: error.status, step: 'email', next, error: why, headers: error.headers });
  }
  return true;
}
