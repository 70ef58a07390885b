// Team roles: privileged administration (TEAM_ADMIN_USER_ROLES). A role grants data
// permissions per collection, DATA_FULL_ACCESS, and feature permissions to the members and
// API keys that use it; every change invalidates cached credentials of the team.
import type { RequestContext } from '../../app/context.ts';
import { requireTeam } from '../../app/require-team.ts';
import { teamWrite } from '../../app/team-write.ts';
import { ConflictError, NotFoundError } from '../../app/errors.ts';
import { byCreation, type Paging } from '../../app/paging.ts';
import type { PrismaSelection } from '../../db/prisma.ts';
import { teamRoleId } from './team-roles.ids.ts';
import { parseInput } from '../../app/validate.ts';
import { normalizeRole, teamRoleInput } from './team-roles.input.ts';
import { type Tx } from '../../app/transaction.ts';

export async function findRoleId(tx: Tx, teamId: bigint, simplyId: string): Promise<bigint> {
  teamRoleId.assert(simplyId, 'teamRoleSimplyId');
  const role = await tx.teamRole.findUnique({ where: { teamId_simplyId: { teamId, simplyId } }, select: { id: true } });
  if (!role) throw new NotFoundError('Team role', simplyId);
  return role.id;
}

/** The role's id, its row locked until the transaction ends: writers of one role take turns (FOR NO KEY
 *  UPDATE still lets members and keys be assigned to it meanwhile). */
async function lockRole(tx: Tx, teamId: bigint, simplyId: string): Promise<bigint> {
  teamRoleId.assert(simplyId, 'teamRoleSimplyId');
  const rows = await tx.$queryRaw<{ id: bigint }[]>`SELECT id FROM "TeamRole" WHERE "teamId" = ${teamId} AND "simplyId" = ${simplyId} FOR NO KEY UPDATE`;
  if (!rows[0]) throw new NotFoundError('Team role', simplyId);
  return rows[0].id;
}

/** A page of the team's roles, newest first. `query` is the Prisma selection the caller needs. */
export function findTeamRoles(ctx: RequestContext, query: PrismaSelection, paging: Paging) {
  const team = requireTeam(ctx);
  return ctx.services.prisma.teamRole.findMany({ ...query, where: { teamId: team.id }, ...byCreation(paging, 'desc') });
}

export function countTeamRoles(ctx: RequestContext): Promise<number> {
  return ctx.services.prisma.teamRole.count({ where: { teamId: requireTeam(ctx).id } });
}

/** One role of the caller's team; another team's role is not found. */
export async function findTeamRole(ctx: RequestContext, simplyId: string, query: PrismaSelection) {
  const team = requireTeam(ctx);
  teamRoleId.assert(simplyId, 'teamRoleSimplyId');
  const role = await ctx.services.prisma.teamRole.findUnique({ ...query, where: { teamId_simplyId: { teamId: team.id, simplyId } } });
  if (!role) throw new NotFoundError('Team role', simplyId);
  return role;
}

/** A role just written by this request, with the caller's selection. */
export function loadTeamRole(ctx: RequestContext, id: bigint, query: PrismaSelection) {
  return ctx.services.prisma.teamRole.findUniqueOrThrow({ ...query, where: { id } });
}

export async function createTeamRole(ctx: RequestContext, raw: unknown): Promise<{ id: bigint }> {
  const team = requireTeam(ctx);
  const input = normalizeRole(parseInput(teamRoleInput, raw, 'Invalid team role'));
  return teamWrite(ctx, { team, event: { type: 'TEAM_ROLE_CREATED', resourceType: 'TeamRole', resourceId: (r) => (r as { simplyId: string }).simplyId } }, (tx) =>
    tx.teamRole.create({
      data: {
        teamId: team.id,
        simplyId: teamRoleId.create(),
        name: input.name,
        dataFullAccess: input.dataFullAccess,
        featurePermissions: input.featurePermissions,
        dataPermissions: { create: input.dataPermissions },
        fieldPermissions: { create: input.fieldPermissions },
      },
      select: { id: true, simplyId: true },
    }),
  );
}

export async function replaceTeamRole(ctx: RequestContext, simplyId: string, raw: unknown): Promise<{ id: bigint }> {
  const team = requireTeam(ctx);
  teamRoleId.assert(simplyId, 'teamRoleSimplyId');
  const input = normalizeRole(parseInput(teamRoleInput, raw, 'Invalid team role'));
  return teamWrite(ctx, { team, event: { type: 'TEAM_ROLE_UPDATED', resourceType: 'TeamRole', resourceId: () => simplyId } }, async (tx) => {
    const id = await lockRole(tx, team.id, simplyId);
    await tx.teamRoleDataPermission.deleteMany({ where: { teamId: team.id, teamRoleId: id } });
    await tx.teamRoleFieldPermission.deleteMany({ where: { teamId: team.id, teamRoleId: id } });
    return tx.teamRole.update({
      where: { id },
      data: {
        name: input.name,
        dataFullAccess: input.dataFullAccess,
        featurePermissions: input.featurePermissions,
        dataPermissions: { create: input.dataPermissions },
        fieldPermissions: { create: input.fieldPermissions },
      },
      select: { id: true },
    });
  });
}

/** A role still assigned to members or API keys cannot be deleted (409): reassign them first. */
export async function deleteTeamRole(ctx: RequestContext, simplyId: string): Promise<boolean> {
  const team = requireTeam(ctx);
  teamRoleId.assert(simplyId, 'teamRoleSimplyId');
  return teamWrite(ctx, { team, event: { type: 'TEAM_ROLE_DELETED', resourceType: 'TeamRole', resourceId: () => simplyId } }, async (tx) => {
    const id = await lockRole(tx, team.id, simplyId);
    const [members, keys] = await Promise.all([
      tx.teamMembership.count({ where: { teamId: team.id, teamRoleId: id } }),
      tx.apiKey.count({ where: { teamId: team.id, teamRoleId: id, revokedAt: null } }),
    ]);
    if (members > 0 || keys > 0) {
      throw new ConflictError(`The team role is still assigned to ${members} member(s) and ${keys} API key(s)`);
    }
    // revoked keys may still point at it; they can never be used again, so detach them
    await tx.apiKey.updateMany({ where: { teamId: team.id, teamRoleId: id }, data: { teamRoleId: null } });
    await tx.teamRole.delete({ where: { id } });
    return true;
  });
}
