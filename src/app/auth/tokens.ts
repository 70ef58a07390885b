// Secret token shapes and their storage form. Tokens carry 256 random bits, so a plain
// SHA-256 is a safe at-rest form (nothing to brute-force) and keeps lookups one indexed read.
import { hash, timingSafeEqual } from 'node:crypto';
import { randomSecret } from '../ids.ts';

export const API_KEY_PREFIX = 'svc_live_';
export const SESSION_TOKEN_PREFIX = 'svc_sess_';
export const REFRESH_TOKEN_PREFIX = 'svc_refresh_';
/** constituent authentication (docs/api/constituent-auth.md): access token, refresh token, magic-link token */
export const CONSTITUENT_ACCESS_TOKEN_PREFIX = 'svc_cat_';
export const CONSTITUENT_REFRESH_TOKEN_PREFIX = 'svc_crt_';
export const CONSTITUENT_LINK_TOKEN_PREFIX = 'svc_cml_';
/** OAuth (docs/api/oauth.md): the authorization server's access and refresh tokens */
export const OAUTH_ACCESS_TOKEN_PREFIX = 'svc_oat_';
export const OAUTH_REFRESH_TOKEN_PREFIX = 'svc_ort_';
/** chat widgets (docs/api/conversations.md "Chat widget"): a visitor's short-lived token */
export const WIDGET_VISITOR_TOKEN_PREFIX = 'svc_wvt_';

export function newApiKey(): string {
  return API_KEY_PREFIX + randomSecret();
}

export function newSessionToken(): string {
  return SESSION_TOKEN_PREFIX + randomSecret();
}

export function newRefreshToken(): string {
  return REFRESH_TOKEN_PREFIX + randomSecret();
}

export function hashToken(token: string): string {
  return hash('sha256', token, 'hex');
}

/** A few characters after the prefix, so a person can tell keys apart without seeing them. */
export function tokenHint(token: string, prefix: string): string {
  return `${prefix}${token.slice(prefix.length, prefix.length + 4)}…`;
}

export function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
