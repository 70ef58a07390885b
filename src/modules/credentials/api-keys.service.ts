// API keys (Document 1 §2.1, §4.1). The full key exists only in the create/rotate response;
// the database keeps its SHA-256. Changing or revoking a key invalidates cached credentials
// of its team in every instance before the response is sent.
import { DATA_FULL_ACCESS, parseFeatureString } from '../../app/auth/feature-permissions.ts';
import { hasFeature, type Principal } from '../../app/auth/principal.ts';
import { API_KEY_PREFIX, hashToken, newApiKey, tokenHint } from '../../app/auth/tokens.ts';
import type { RequestContext } from '../../app/context.ts';
import { requireTeam } from '../../app/require-team.ts';
import { teamWrite } from '../../app/team-write.ts';
import { NotFoundError, PermissionDeniedError, ValidationError } from '../../app/errors.ts';
import { byCreation, type Paging } from '../../app/paging.ts';
import { parseInput } from '../../app/validate.ts';
import type { PrismaSelection } from '../../db/prisma.ts';
import { type Tx } from '../../app/transaction.ts';
import { findRoleId } from '../team-roles/index.ts';
import { createApiKeyInput, toDate, updateApiKeyInput } from './api-keys.input.ts';
import { apiKeyId } from './credentials.ids.ts';

export interface IssuedKey {
  id: bigint;
  fullApiKey: string;
}

function canAssignRoles(p: Principal): boolean {
  return p.isTeamAdmin || p.isSystemAdmin || hasFeature(p, 'TEAM_ADMIN_USER_ROLES', 'EDIT');
}

/**
 * No escalation through keys: besides team and system admins, a caller can only grant feature
 * permissions it holds itself, at most at its own level.
 */
function assertGrantable(p: Principal, features: string[]): void {
  if (p.isTeamAdmin || p.isSystemAdmin) return;
  const missing = features.filter((f) => {
    const { name, level } = parseFeatureString(f);
    return name !== DATA_FULL_ACCESS && !hasFeature(p, name, level);
  });
  if (missing.length > 0) {
    throw new PermissionDeniedError(`The caller cannot grant feature permissions it lacks: ${missing.join(', ')}`);
  }
}

/** DATA_FULL_ACCESS comes from the key's team role; listing it is only a check that the role grants it. */
async function resolveRoleAndFeatures(
  tx: Tx,
  teamId: bigint,
  roleSimplyId: string | null,
  features: string[],
): Promise<{ teamRoleId: bigint | null; features: string[] }> {
  const teamRoleId = roleSimplyId ? await findRoleId(tx, teamId, roleSimplyId) : null;
  const wantsFull = features.some((f) => parseFeatureString(f).name === DATA_FULL_ACCESS);
  if (wantsFull) {
    const role = teamRoleId ? await tx.teamRole.findUnique({ where: { id: teamRoleId }, select: { dataFullAccess: true } }) : null;
    if (!role?.dataFullAccess) {
      throw new ValidationError('DATA_FULL_ACCESS needs a team role that grants full data access', [
        { field: 'featurePermissions', message: 'DATA_FULL_ACCESS without a full-access teamRoleSimplyId' },
      ]);
    }
  }
  const unique = [...new Set(features.filter((f) => parseFeatureString(f).name !== DATA_FULL_ACCESS))];
  return { teamRoleId, features: unique };
}

/** A page of the team's active keys, newest first. `query` is the Prisma selection the caller needs. */
export function findApiKeys(ctx: RequestContext, query: PrismaSelection, paging: Paging) {
  const team = requireTeam(ctx);
  return ctx.services.prisma.apiKey.findMany({ ...query, where: { teamId: team.id, revokedAt: null }, ...byCreation(paging, 'desc') });
}

export function countApiKeys(ctx: RequestContext): Promise<number> {
  return ctx.services.prisma.apiKey.count({ where: { teamId: requireTeam(ctx).id, revokedAt: null } });
}

/** One active key of the caller's team; a revoked key or another team's is not found. */
export async function findApiKey(ctx: RequestContext, simplyId: string, query: PrismaSelection) {
  const team = requireTeam(ctx);
  apiKeyId.assert(simplyId, 'apiKeySimplyId');
  const key = await ctx.services.prisma.apiKey.findUnique({ ...query, where: { teamId_simplyId: { teamId: team.id, simplyId }, revokedAt: null } });
  if (!key) throw new NotFoundError('API key', simplyId);
  return key;
}

/** A key just written by this request, with the caller's selection. */
export function loadApiKey(ctx: RequestContext, id: bigint, query: PrismaSelection) {
  return ctx.services.prisma.apiKey.findUniqueOrThrow({ ...query, where: { id } });
}

export async function createApiKey(ctx: RequestContext, raw: unknown): Promise<IssuedKey> {
  const team = requireTeam(ctx);
  const input = parseInput(createApiKeyInput, raw, 'Invalid API key');
  if (input.teamRoleSimplyId && !canAssignRoles(ctx.principal)) {
    throw new PermissionDeniedError('Setting teamRoleSimplyId needs Team Admin or edit access to TEAM_ADMIN_USER_ROLES');
  }
  assertGrantable(ctx.principal, input.featurePermissions);
  const fullApiKey = newApiKey();
  const created = await teamWrite(
    ctx,
    { team, event: { type: 'API_KEY_CREATED', resourceType: 'ApiKey', resourceId: (r) => (r as { simplyId: string }).simplyId } },
    async (tx) => {
      const resolved = await resolveRoleAndFeatures(tx, team.id, input.teamRoleSimplyId ?? null, input.featurePermissions);
      return tx.apiKey.create({
        data: {
          teamId: team.id,
          simplyId: apiKeyId.create(),
          name: input.name,
          keyHash: hashToken(fullApiKey),
          keyHint: tokenHint(fullApiKey, API_KEY_PREFIX),
          teamRoleId: resolved.teamRoleId,
          featurePermissions: resolved.features,
          allowedIpAddresses: input.allowedIpAddresses,
          expiresAt: toDate(input.expiresAt) ?? null,
          createdByUserId: ctx.principal.userId,
        },
        select: { id: true, simplyId: true },
      });
    },
  );
  return { id: created.id, fullApiKey };
}

async function findActiveKey(tx: Tx, teamId: bigint, simplyId: string) {
  apiKeyId.assert(simplyId, 'apiKeySimplyId');
  const key = await tx.apiKey.findUnique({ where: { teamId_simplyId: { teamId, simplyId } } });
  if (!key || key.revokedAt) throw new NotFoundError('API key', simplyId);
  return key;
}

export async function updateApiKey(ctx: RequestContext, simplyId: string, raw: unknown): Promise<bigint> {
  const team = requireTeam(ctx);
  const input = parseInput(updateApiKeyInput, raw, 'Invalid API key');
  if (input.teamRoleSimplyId !== undefined && !canAssignRoles(ctx.principal)) {
    throw new PermissionDeniedError('Changing teamRoleSimplyId needs Team Admin or edit access to TEAM_ADMIN_USER_ROLES');
  }
  if (input.featurePermissions) assertGrantable(ctx.principal, input.featurePermissions);
  return teamWrite(ctx, { team, event: { type: 'API_KEY_UPDATED', resourceType: 'ApiKey', resourceId: () => simplyId } }, async (tx) => {
    const key = await findActiveKey(tx, team.id, simplyId);
    const roleSimplyId =
      input.teamRoleSimplyId === undefined
        ? key.teamRoleId
          ? (await tx.teamRole.findUniqueOrThrow({ where: { id: key.teamRoleId }, select: { simplyId: true } })).simplyId
          : null
        : input.teamRoleSimplyId;
    const resolved = await resolveRoleAndFeatures(tx, team.id, roleSimplyId, input.featurePermissions ?? key.featurePermissions);
    await tx.apiKey.update({
      where: { id: key.id },
      data: {
        name: input.name,
        teamRoleId: resolved.teamRoleId,
        featurePermissions: resolved.features,
        allowedIpAddresses: input.allowedIpAddresses,
        expiresAt: toDate(input.expiresAt),
      },
    });
    return key.id;
  });
}

/** A new secret for the same key id; the old secret and every session token it minted stop working at once. */
export async function rotateApiKey(ctx: RequestContext, simplyId: string): Promise<IssuedKey> {
  const team = requireTeam(ctx);
  const fullApiKey = newApiKey();
  const id = await teamWrite(ctx, { team, event: { type: 'API_KEY_ROTATED', resourceType: 'ApiKey', resourceId: () => simplyId } }, async (tx) => {
    const key = await findActiveKey(tx, team.id, simplyId);
    // rotating hands the caller the key's new secret: only a caller that could create this key may rotate it
    if (key.teamRoleId !== null && !canAssignRoles(ctx.principal)) {
      throw new PermissionDeniedError('Rotating a key with a team role needs Team Admin or edit access to TEAM_ADMIN_USER_ROLES');
    }
    assertGrantable(ctx.principal, key.featurePermissions);
    await tx.apiKey.update({
      where: { id: key.id },
      data: { keyHash: hashToken(fullApiKey), keyHint: tokenHint(fullApiKey, API_KEY_PREFIX), lastRotatedAt: new Date() },
    });
    await tx.sessionToken.updateMany({ where: { teamId: team.id, apiKeyId: key.id, revokedAt: null }, data: { revokedAt: new Date() } });
    return key.id;
  });
  return { id, fullApiKey };
}

export async function revokeApiKey(ctx: RequestContext, simplyId: string): Promise<boolean> {
  const team = requireTeam(ctx);
  return teamWrite(ctx, { team, event: { type: 'API_KEY_REVOKED', resourceType: 'ApiKey', resourceId: () => simplyId } }, async (tx) => {
    const key = await findActiveKey(tx, team.id, simplyId);
    const now = new Date();
    // conditional on still being active: of concurrent revocations one wins, the others find it gone (404)
    const { count } = await tx.apiKey.updateMany({ where: { id: key.id, revokedAt: null }, data: { revokedAt: now } });
    if (count === 0) throw new NotFoundError('API key', simplyId);
    await tx.sessionToken.updateMany({ where: { teamId: team.id, apiKeyId: key.id, revokedAt: null }, data: { revokedAt: now } });
    return true;
  });
}
