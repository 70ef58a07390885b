// Users (Document 2 §2.6, §4.5). Users are global; a team sees them through memberships.
import type { Principal } from '../../app/auth/principal.ts';
import type { RequestContext } from '../../app/context.ts';
import { hashPassword } from '../../app/auth/passwords.ts';
import { InvalidTeamSelectionError, NotFoundError, PermissionDeniedError, ValidationError } from '../../app/errors.ts';
import { membershipId, userId as userIdKind } from '../../app/ids.ts';
import { byCreation, type Paging } from '../../app/paging.ts';
import { requireTeam } from '../../app/require-team.ts';
import { parseInput } from '../../app/validate.ts';
import { publishCredentialInvalidation } from '../../app/auth/credential-invalidation.ts';
import type { PrismaSelection } from '../../db/prisma.ts';
import { runTransaction } from '../../app/transaction.ts';
import { createUserInput, updateMeInput } from './users.input.ts';

/**
 * Current-user routes need a user credential. Document 2 §5: an API key here is a 400
 * VALIDATION_ERROR (not IDP_REQUIRED); a team the user does not belong to is 403.
 */
function assertUserCredential(p: Principal): bigint {
  if (p.kind === 'API_KEY' || p.kind === 'SESSION_TOKEN') {
    throw new ValidationError('Current-user routes need a user credential; API keys and session tokens have no user');
  }
  // an OAuth user token reaches here only from a first-party application with identity:read (tier.identity)
  if ((p.kind !== 'USER' && p.kind !== 'OAUTH') || p.userId === null) throw new PermissionDeniedError('This credential has no user');
  // a team that was asked for but cannot be used is an error even where the team is optional
  if (p.teamError instanceof PermissionDeniedError || p.teamError instanceof InvalidTeamSelectionError) throw p.teamError;
  return p.userId;
}

/** The signed-in user (or the user of a first-party app's OAuth token), with the caller's selection. */
export function findCurrentUser(ctx: RequestContext, query: PrismaSelection) {
  const userId = assertUserCredential(ctx.principal);
  return loadUser(ctx, userId, query);
}

/** A user by internal id (one this request just wrote or signed in), with the caller's selection. */
export function loadUser(ctx: RequestContext, id: bigint, query: PrismaSelection) {
  return ctx.services.prisma.user.findUniqueOrThrow({ ...query, where: { id } });
}

/** The selected team's role of the caller (null without a team or a role). */
export function findOwnRole(ctx: RequestContext, query: PrismaSelection) {
  const p = ctx.principal;
  if (!p.team || !p.teamRoleSimplyId) return null;
  return ctx.services.prisma.teamRole.findUnique({ ...query, where: { teamId_simplyId: { teamId: p.team.id, simplyId: p.teamRoleSimplyId } } });
}

/** A page of the team's users (memberships), oldest first: the team's creator leads. */
export function findTeamUsers(ctx: RequestContext, query: PrismaSelection, paging: Paging) {
  const team = requireTeam(ctx);
  return ctx.services.prisma.teamMembership.findMany({ ...query, where: { teamId: team.id }, ...byCreation(paging, 'asc') });
}

export function countTeamUsers(ctx: RequestContext): Promise<number> {
  return ctx.services.prisma.teamMembership.count({ where: { teamId: requireTeam(ctx).id } });
}

/** One user of the caller's team; a user of other teams only is not found. */
export async function findTeamUser(ctx: RequestContext, userSimplyId: string, query: PrismaSelection) {
  const team = requireTeam(ctx);
  userIdKind.assert(userSimplyId, 'userSimplyId');
  const membership = await ctx.services.prisma.teamMembership.findFirst({ ...query, where: { teamId: team.id, user: { simplyId: userSimplyId } } });
  if (!membership) throw new NotFoundError('User', userSimplyId);
  return membership;
}

export async function updateMe(ctx: RequestContext, raw: unknown): Promise<bigint> {
  const userId = assertUserCredential(ctx.principal);
  const { teamOpened, ...profile } = parseInput(updateMeInput, raw, 'Invalid profile update');
  const team = teamOpened ? requireTeam(ctx) : null;
  await runTransaction(ctx.services.prisma, async (tx) => {
    if (Object.keys(profile).length) await tx.user.update({ where: { id: userId }, data: profile });
    // a system administrator looking at a team they do not belong to has no membership to stamp
    if (team) await tx.teamMembership.updateMany({ where: { teamId: team.id, userId, isActive: true }, data: { lastOpened: new Date() } });
  });
  return userId;
}

/** System administrators only: creates a user with team associations, all or nothing. */
export async function createUser(ctx: RequestContext, raw: unknown): Promise<bigint> {
  const input = parseInput(createUserInput, raw, 'Invalid user');
  const passwordHash = input.password ? await hashPassword(input.password) : null;
  const userId = await runTransaction(ctx.services.prisma, async (tx) => {
    const user = await tx.user.create({
      data: {
        simplyId: userIdKind.create(),
        email: input.email,
        firstName: input.firstName,
        lastName: input.lastName,
        passwordHash,
        isSystemAdmin: input.isSystemAdmin,
      },
    });
    for (const link of input.teams) {
      const team = await tx.team.findUnique({ where: { simplyId: link.teamSimplyId } });
      if (!team) throw new NotFoundError('Team', link.teamSimplyId);
      const role = link.teamRoleSimplyId
        ? await tx.teamRole.findUnique({ where: { teamId_simplyId: { teamId: team.id, simplyId: link.teamRoleSimplyId } } })
        : null;
      if (link.teamRoleSimplyId && !role) throw new NotFoundError('Team role', link.teamRoleSimplyId);
      await tx.teamMembership.create({
        data: {
          simplyId: membershipId.create(),
          teamId: team.id,
          userId: user.id,
          isTeamAdmin: link.isTeamAdmin,
          teamRoleId: role?.id ?? null,
        },
      });
    }
    return user.id;
  });
  await publishCredentialInvalidation(ctx.services.notifier, ctx.services.authenticator, { userId });
  return userId;
}
