// Preview tokens (POST /v1/websites/{id}/preview-sessions): stateless like the activation tokens
// (site-publishing.service.ts), an HMAC-SHA-256 over (team, site, expiry) under a key derived from
// the instance's secrets key, so every instance accepts them and nothing is stored. Whoever holds
// the URL sees the site's drafts until it expires (PREVIEW_TTL_SECONDS); it is not tied to a
// person, so it can be opened on a phone or handed to a colleague for a look.
import { createHmac } from 'node:crypto';
import type { Services } from '../../app/context.ts';
import { constantTimeEqual } from '../../app/auth/tokens.ts';
import { derivedSecretsKey } from '../../app/secrets-key.ts';

export const PREVIEW_TTL_SECONDS = 30 * 60;
const KEY_INFO = 'svc website preview v1';
const TOKEN = /^wprv_([A-Za-z0-9_-]{1,400})\.([A-Za-z0-9_-]{43})$/;

export interface PreviewClaims {
  teamId: bigint;
  websiteSimplyId: string;
  expiresAt: Date;
}

const sign = (services: Services, body: string) => createHmac('sha256', derivedSecretsKey(services.config.secretsKeyFile, KEY_INFO)).update(body).digest('base64url');

export function issuePreviewToken(services: Services, teamId: bigint, websiteSimplyId: string, now = Date.now()): { token: string; expiresAt: Date } {
  const expires = Math.floor(now / 1000) + PREVIEW_TTL_SECONDS;
  const body = Buffer.from(JSON.stringify({ t: String(teamId), w: websiteSimplyId, e: expires })).toString('base64url');
  return { token: `wprv_${body}.${sign(services, body)}`, expiresAt: new Date(expires * 1000) };
}

/** The claims of a valid, unexpired token, or null. */
export function readPreviewToken(services: Services, token: string, now = Date.now()): PreviewClaims | null {
  const match = TOKEN.exec(token);
  if (!match || !constantTimeEqual(match[2]!, sign(services, match[1]!))) return null;
  try {
    const claims = JSON.parse(Buffer.from(match[1]!, 'base64url').toString('utf8')) as { t: string; w: string; e: number };
    if (typeof claims.e !== 'number' || claims.e * 1000 <= now || !/^\d+$/.test(claims.t) || typeof claims.w !== 'string') return null;
    return { teamId: BigInt(claims.t), websiteSimplyId: claims.w, expiresAt: new Date(claims.e * 1000) };
  } catch {
    return null;
  }
}
