// Public access tokens of a view (privileged; docs/api/data-views.md "Public access tokens"): an
// EMBED token opens the view's read-only page, an ICS_FEED token its calendar feed. A view has at
// most one token of each type: creating one while another exists rotates it (the old URL stops
// working in the same commit). The secret is shown once, in the create answer; only its SHA-256 is
// stored (hashToken, as API keys), with a hint for people to tell tokens apart. Deleting revokes
// at once: every public request looks the token up, nothing caches it.
//
// Tokens are not part of the view's configuration, so they are not schema changes (no version).
import type { RequestContext } from '../../app/context.ts';
import { hashToken, tokenHint } from '../../app/auth/tokens.ts';
import { NotFoundError, ValidationError } from '../../app/errors.ts';
import { randomSecret } from '../../app/ids.ts';
import { parseInput } from '../../app/validate.ts';
import { type AdminView, loadAdminView } from './views.admin.service.ts';
import { ViewNotShareableError } from './views.errors.ts';
import { embedUrl, feedUrl } from './views.public-links.ts';
import { PUBLIC_TOKEN_PREFIXES, publicTokenInput, TOKEN_PURPOSES, type TokenType, tokenTypeInput } from './views.public-tokens.input.ts';
import { upsertPublicToken } from './views.public-tokens.sql.ts';
import { serves, shareReadiness } from './views.readiness.ts';

export interface TokenCreator {
  /** API_KEY or USER (privileged routes take no other credential) */
  kind: string;
  /** the API key's or the user's simplyId */
  id: string | null;
}

/** What GET answers: the token's metadata, never its secret. */
export interface PublicTokenMeta {
  dataViewSimplyId: string;
  tokenType: TokenType;
  purpose: string;
  exists: boolean;
  /** the prefix and a few characters of the secret */
  tokenHint: string | null;
  /** the URL with the secret replaced by its hint: recognisable, not usable */
  maskedUrl: string | null;
  allowedOrigins: string[];
  createdAt: Date | null;
  createdBy: TokenCreator | null;
  lastUsedAt: Date | null;
  /** the URL answers now: the view is published (and, for ICS_FEED, a CALENDAR view) */
  isServing: boolean;
}

/** What POST answers: the metadata, the secret and the ready URL (shown this once). */
export interface IssuedPublicToken extends PublicTokenMeta {
  token: string;
  url: string;
  /** a token of this type existed and was replaced */
  rotated: boolean;
}

const urlOf = (ctx: RequestContext, tokenType: TokenType, token: string) => (tokenType === 'EMBED' ? embedUrl(ctx.services, token) : feedUrl(ctx.services, token));

function parseType(raw: string): TokenType {
  const parsed = tokenTypeInput.safeParse(raw);
  if (!parsed.success) throw new ValidationError('tokenType must be EMBED or ICS_FEED', [{ field: 'tokenType', message: 'must be EMBED or ICS_FEED' }]);
  return parsed.data;
}

function meta(ctx: RequestContext, view: AdminView, tokenType: TokenType, row: { tokenHint: string; allowedOrigins: string[]; createdAt: Date; createdByKind: string; createdById: string | null; lastUsedAt: Date | null } | null): PublicTokenMeta {
  return {
    dataViewSimplyId: view.row.simplyId,
    tokenType,
    purpose: TOKEN_PURPOSES[tokenType],
    exists: row !== null,
    tokenHint: row?.tokenHint ?? null,
    maskedUrl: row ? urlOf(ctx, tokenType, row.tokenHint) : null,
    allowedOrigins: row?.allowedOrigins ?? [],
    createdAt: row?.createdAt ?? null,
    createdBy: row ? { kind: row.createdByKind, id: row.createdById } : null,
    lastUsedAt: row?.lastUsedAt ?? null,
    isServing: row !== null && serves(tokenType, { isPublished: view.row.isPublished, type: view.type }),
  };
}

/** POST …/public-access-tokens/{tokenType}: creates the view's token of the type, or rotates it. */
export async function createPublicToken(ctx: RequestContext, simplyId: string, rawType: string, raw: unknown): Promise<IssuedPublicToken> {
  const view = await loadAdminView(ctx, simplyId);
  const tokenType = parseType(rawType);
  const input = parseInput(publicTokenInput, raw ?? undefined, 'Invalid public access token request') ?? {};
  const allowedOrigins = [...new Set(input.allowedOrigins ?? [])];
  if (tokenType === 'ICS_FEED' && allowedOrigins.length > 0) {
    throw new ValidationError('allowedOrigins applies to EMBED tokens only', [{ field: 'allowedOrigins', message: 'applies to EMBED tokens only: a calendar feed is not framed' }]);
  }
  const readiness = shareReadiness({ type: view.type, isPublished: view.row.isPublished, collection: view.collection, fieldsById: view.fieldsById, config: view.config });
  const target = readiness.shareTargets.find((t) => t.tokenType === tokenType)!;
  if (!target.isAvailable) throw new ViewNotShareableError(tokenType, target.blockers);
  const token = PUBLIC_TOKEN_PREFIXES[tokenType] + randomSecret();
  const p = ctx.principal;
  const row = {
    tokenHint: tokenHint(token, PUBLIC_TOKEN_PREFIXES[tokenType]),
    allowedOrigins,
    createdByKind: p.kind,
    createdById: p.credentialId,
  };
  let stored: { createdAt: Date; rotated: boolean };
  try {
    stored = await upsertPublicToken(ctx.services.pool, { teamId: view.row.teamId, viewId: view.row.id, tokenType, tokenHash: hashToken(token), ...row });
  } catch (error) {
    // the view was deleted since it was read
    if ((error as { code?: string }).code === '23503') throw new NotFoundError('Data view', simplyId);
    throw error;
  }
  return {
    ...meta(ctx, view, tokenType, { ...row, createdAt: stored.createdAt, lastUsedAt: null }),
    token,
    url: urlOf(ctx, tokenType, token),
    rotated: stored.rotated,
  };
}

/** GET …/public-access-tokens/{tokenType}: the metadata (`exists: false` when there is none). */
export async function getPublicToken(ctx: RequestContext, simplyId: string, rawType: string): Promise<PublicTokenMeta> {
  const view = await loadAdminView(ctx, simplyId);
  const tokenType = parseType(rawType);
  const row = await ctx.services.prisma.dataViewPublicToken.findUnique({ where: { teamId_viewId_tokenType: { teamId: view.row.teamId, viewId: view.row.id, tokenType } } });
  return meta(ctx, view, tokenType, row);
}

/** DELETE …/public-access-tokens/{tokenType}: revokes at once; 404 when the view has no such token. */
export async function deletePublicToken(ctx: RequestContext, simplyId: string, rawType: string): Promise<boolean> {
  const view = await loadAdminView(ctx, simplyId);
  const tokenType = parseType(rawType);
  const { count } = await ctx.services.prisma.dataViewPublicToken.deleteMany({ where: { teamId: view.row.teamId, viewId: view.row.id, tokenType } });
  if (count === 0) throw new NotFoundError(`Public access token ${tokenType} of data view`, simplyId);
  return true;
}
