// Internal tokens (GET /v1/data-views/{id}/internal-token): what a first-party surface puts in a
// frame to show a view to the member looking at it, without a public token. Stateless and
// short-lived: the claims (team, view, caller, the view's revision, which of its display fields the
// caller may read, expiry) are signed with HMAC-SHA-256 under a key derived from the instance's
// secrets key (derivedSecretsKey, as the other signed links of the platform), so every instance
// sharing SECRETS_KEY_FILE accepts the others' tokens and nothing is stored.
//
// Bound to the view as it was: a change of the view (its updatedAt) voids the token, so the field
// list the caller was allowed at issue never meets a field added later. Bound to the caller: only
// the display fields its team role could read are shown. A caller whose access is taken away keeps
// what it was shown until the token expires (INTERNAL_TOKEN_TTL_SECONDS).
import { createHmac } from 'node:crypto';
import type { RequestContext, Services } from '../../app/context.ts';
import { constantTimeEqual } from '../../app/auth/tokens.ts';
import { derivedSecretsKey } from '../../app/secrets-key.ts';
import { accessTo, requireRecordCredential } from '../../kernel/index.ts';
import { requireSchemaRead } from '../team-schema/index.ts';
import { readStoredConfig } from './views.config.ts';
import { dataViewId } from './views.ids.ts';
import { INTERNAL_TOKEN_PREFIX } from './views.public-tokens.input.ts';
import { embedUrl } from './views.public-links.ts';
import { findReadableView } from './views.service.ts';

export const INTERNAL_TOKEN_TTL_SECONDS = 300;
const KEY_INFO = 'svc view internal tokens v1';
/** claims plus signature stay far below any URL limit: 200 display links are a 25-byte mask */
const MAX_TOKEN_LENGTH = 600;

export interface InternalTokenItem {
  dataViewSimplyId: string;
  url: string;
  expiresAt: Date;
  expiresInSeconds: number;
}

/** What a valid internal token says. */
export interface InternalTokenClaims {
  teamSimplyId: string;
  viewSimplyId: string;
  /** the view's updatedAt (ms) at issue: another value means the view changed since */
  revision: number;
  /** whether the caller could read the field of the display link at this position */
  showsLink(index: number): boolean;
}

interface SignedClaims {
  /** team simplyId */
  t: string;
  /** view simplyId */
  v: string;
  /** caller: credential kind and id */
  c: string;
  /** the view's revision */
  r: number;
  /** base64url bit mask over the display links (bit i of byte i >> 3: link i readable) */
  f: string;
  /** expiry, epoch seconds */
  e: number;
}

function signature(services: Services, body: string): string {
  return createHmac('sha256', derivedSecretsKey(services.config.secretsKeyFile, KEY_INFO)).update(body).digest('base64url');
}

function mask(flags: readonly boolean[]): string {
  const bytes = Buffer.alloc(Math.ceil(flags.length / 8));
  flags.forEach((on, i) => {
    if (on) bytes[i >> 3]! |= 1 << (i & 7);
  });
  return bytes.toString('base64url');
}

/** GET …/internal-token: needs what reading the view and its records needs (docs/api/data-views.md "Internal tokens"). */
export async function issueInternalToken(ctx: RequestContext, simplyId: string): Promise<InternalTokenItem> {
  dataViewId.assert(simplyId, 'dataViewSimplyId');
  const p = ctx.principal;
  requireSchemaRead(p);
  // the page shows records: a scoped token needs records:read, and the caller a team role
  requireRecordCredential(p, 'READ');
  const { row, schema, collection, team } = await findReadableView(ctx, simplyId);
  const readable = new Set(accessTo(p, schema, collection).readable.map((f) => f.dataFieldSimplyId));
  const links = readStoredConfig(row.simplyId, row.config).displayFieldLinks;
  const expiresAt = new Date((Math.floor(Date.now() / 1000) + INTERNAL_TOKEN_TTL_SECONDS) * 1000);
  const claims: SignedClaims = {
    t: team.simplyId,
    v: row.simplyId,
    c: `${p.kind}:${p.credentialId ?? ''}`,
    r: row.updatedAt.getTime(),
    f: mask(links.map((l) => readable.has(l.dataFieldSimplyId))),
    e: expiresAt.getTime() / 1000,
  };
  const body = `${INTERNAL_TOKEN_PREFIX}${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
  const token = `${body}.${signature(ctx.services, body)}`;
  return { dataViewSimplyId: row.simplyId, url: embedUrl(ctx.services, token), expiresAt, expiresInSeconds: INTERNAL_TOKEN_TTL_SECONDS };
}

/** The claims of a token this platform signed and that has not expired; null for anything else. */
export function readInternalToken(services: Services, token: string): InternalTokenClaims | null {
  if (!token.startsWith(INTERNAL_TOKEN_PREFIX) || token.length > MAX_TOKEN_LENGTH) return null;
  const dot = token.lastIndexOf('.');
  if (dot < 0) return null;
  const body = token.slice(0, dot);
  if (!constantTimeEqual(token.slice(dot + 1), signature(services, body))) return null;
  let claims: SignedClaims;
  try {
    claims = JSON.parse(Buffer.from(body.slice(INTERNAL_TOKEN_PREFIX.length), 'base64url').toString('utf8')) as SignedClaims;
  } catch {
    return null;
  }
  if (typeof claims?.e !== 'number' || claims.e * 1000 <= Date.now()) return null;
  if (typeof claims.t !== 'string' || !dataViewId.is(claims.v) || typeof claims.r !== 'number' || typeof claims.f !== 'string') return null;
  const bits = Buffer.from(claims.f, 'base64url');
  return {
    teamSimplyId: claims.t,
    viewSimplyId: claims.v,
    revision: claims.r,
    showsLink: (index) => ((bits[index >> 3] ?? 0) & (1 << (index & 7))) !== 0,
  };
}
