// Session tokens (Document 1 §2.2, §5 rule 2): short-lived, minted by an API key, narrowing only.
import { formatFeatureString, parseFeatureString, type FeatureLevel } from '../../app/auth/feature-permissions.ts';
import { DEFAULT_SESSION_SCOPES, isOauthScope, type OauthScope } from '../../app/auth/oauth-scopes.ts';
import { hasFeature, type Principal } from '../../app/auth/principal.ts';
import { hashToken, newSessionToken } from '../../app/auth/tokens.ts';
import type { RequestContext } from '../../app/context.ts';
import { requireTeam } from '../../app/require-team.ts';
import { InvalidOauthScopesError, NotFoundError, PermissionDeniedError, ValidationError } from '../../app/errors.ts';
import { SESSION_ID_PATTERN, newSessionId } from './credentials.ids.ts';
import { parseInput } from '../../app/validate.ts';
import { publishCredentialInvalidation } from '../../app/auth/credential-invalidation.ts';
import type { PrismaSelection } from '../../db/prisma.ts';
import { runTransaction } from '../../app/transaction.ts';
import { creatorFeatures, creatorScopes } from './creator-scopes.ts';
import { createSessionTokenInput } from './session-tokens.input.ts';

function narrowFeatures(creator: Principal, requested: string[] | undefined): string[] {
  const available = creatorFeatures(creator);
  if (requested === undefined) return [...available].map(([name, level]) => formatFeatureString(name, level));
  const result = new Map<string, FeatureLevel>();
  for (const value of requested) {
    const { name, level } = parseFeatureString(value);
    const held = available.get(name);
    if (!held) continue; // narrowing only: what the creator lacks is dropped
    const granted: FeatureLevel = held === 'EDIT' ? level : 'VIEW';
    if (result.get(name) !== 'EDIT') result.set(name, granted);
  }
  return [...result].map(([name, level]) => formatFeatureString(name, level));
}

function narrowScopes(creator: Principal, requested: string[] | undefined): OauthScope[] {
  if (requested) {
    const unknown = requested.filter((s) => !isOauthScope(s));
    if (unknown.length > 0) throw new InvalidOauthScopesError(unknown);
  }
  const available = creatorScopes(creator);
  const wanted = (requested as OauthScope[] | undefined) ?? DEFAULT_SESSION_SCOPES;
  return [...new Set(wanted)].filter((s) => available.has(s));
}

export async function createSessionToken(ctx: RequestContext, raw: unknown) {
  const team = requireTeam(ctx);
  const creator = ctx.principal;
  if (creator.kind !== 'API_KEY' || creator.apiKeyId === null) {
    throw new PermissionDeniedError('Session tokens are minted with an API key');
  }
  const input = parseInput(createSessionTokenInput, raw, 'Invalid session token request');
  const oauthScopes = narrowScopes(creator, input.oauthScopes);
  const featurePermissions = narrowFeatures(creator, input.featurePermissions);
  const token = newSessionToken();
  const requestedMinutes = input.expiresInMinutes;
  let expiresAt = new Date(Date.now() + requestedMinutes * 60_000);
  // a token never outlives the key that minted it
  if (creator.expiresAt && creator.expiresAt < expiresAt) expiresAt = creator.expiresAt;
  const row = await ctx.services.prisma.sessionToken.create({
    data: {
      simplyId: newSessionId(),
      teamId: team.id,
      apiKeyId: creator.apiKeyId,
      tokenHash: hashToken(token),
      featurePermissions,
      oauthScopes,
      metadata: (input.metadata ?? undefined) as object | undefined,
      expiresAt,
    },
  });
  return { row, token };
}

function assertSessionId(id: string): void {
  if (!SESSION_ID_PATTERN.test(id)) {
    throw new ValidationError('sessionTokenId must be the sess_ identifier, not the token', [
      { field: 'sessionTokenId', message: 'malformed identifier' },
    ]);
  }
}

/** Who may inspect or revoke: the token itself, the key that minted it, or team credential admins. */
async function findVisibleToken(ctx: RequestContext, simplyId: string, level: 'VIEW' | 'EDIT') {
  const team = requireTeam(ctx);
  assertSessionId(simplyId);
  const row = await ctx.services.prisma.sessionToken.findUnique({ where: { simplyId } });
  if (!row || row.teamId !== team.id) throw new NotFoundError('Session token', simplyId);
  const p = ctx.principal;
  const allowed =
    (p.kind === 'SESSION_TOKEN' && p.credentialId === simplyId) ||
    (p.kind === 'API_KEY' && p.apiKeyId === row.apiKeyId) ||
    (p.kind !== 'SESSION_TOKEN' && hasFeature(p, 'TEAM_ADMIN_API_KEYS', level));
  if (!allowed) throw new PermissionDeniedError('Only the minting API key or a credential administrator may do this');
  return row;
}

/** Inspection, with the caller's selection (never the token value: only its hash is stored). */
export async function findSessionToken(ctx: RequestContext, simplyId: string, query: PrismaSelection) {
  const row = await findVisibleToken(ctx, simplyId, 'VIEW');
  return ctx.services.prisma.sessionToken.findUniqueOrThrow({ ...query, where: { id: row.id } });
}

export async function revokeSessionToken(ctx: RequestContext, simplyId: string): Promise<boolean> {
  const row = await findVisibleToken(ctx, simplyId, 'EDIT');
  await runTransaction(ctx.services.prisma, (tx) =>
    tx.sessionToken.updateMany({ where: { id: row.id, revokedAt: null }, data: { revokedAt: new Date() } }),
  );
  await publishCredentialInvalidation(ctx.services.notifier, ctx.services.authenticator, { teamId: row.teamId });
  return true;
}
