// The team's view of multi-factor sign-in: which active members have it (compliance), and a team
// admin's reset of a member who lost their authenticator and recovery codes.
import type { RequestContext } from '../../app/context.ts';
import { NotFoundError, PermissionDeniedError } from '../../app/errors.ts';
import { membershipId } from '../../app/ids.ts';
import { byCreation, pagination, parsePaging, type PageInput, type PaginationShape } from '../../app/paging.ts';
import { requireTeam } from '../../app/require-team.ts';
import { MFA_ENABLED } from './mfa-check.ts';

export interface MfaComplianceMember {
  userSimplyId: string;
  teamUserLinkSimplyId: string;
  email: string;
  firstName: string;
  lastName: string;
  isTeamAdmin: boolean;
  mfaEnabled: boolean;
  mfaEnabledAt: Date | null;
}

export interface MfaCompliance {
  totals: { activeMembers: number; mfaEnabled: number; mfaNotEnabled: number };
  nodes: MfaComplianceMember[];
  pagination: PaginationShape;
}

export interface MfaReset {
  teamUserLinkSimplyId: string;
  userSimplyId: string;
  /** false when the member had no second factor (nothing to remove) */
  mfaRemoved: boolean;
}

const ENABLED = { mfa: { is: { status: MFA_ENABLED } } };

/** Active members (active membership, active user), oldest membership first; `mfaEnabled` filters. */
export async function mfaCompliance(ctx: RequestContext, args: PageInput & { mfaEnabled?: boolean | null }): Promise<MfaCompliance> {
  const team = requireTeam(ctx);
  const paging = parsePaging(args);
  const { prisma } = ctx.services;
  const active = { teamId: team.id, isActive: true, user: { isActive: true } };
  const filter = args.mfaEnabled === true ? { user: { isActive: true, ...ENABLED } } : args.mfaEnabled === false ? { user: { isActive: true, NOT: ENABLED } } : {};
  const where = { ...active, ...filter };
  const [rows, listed, activeMembers, mfaEnabled] = await Promise.all([
    prisma.teamMembership.findMany({
      where,
      select: {
        simplyId: true,
        isTeamAdmin: true,
        user: { select: { simplyId: true, email: true, firstName: true, lastName: true, mfa: { select: { status: true, enabledAt: true } } } },
      },
      ...byCreation(paging, 'asc'),
    }),
    prisma.teamMembership.count({ where }),
    prisma.teamMembership.count({ where: active }),
    prisma.teamMembership.count({ where: { ...active, user: { isActive: true, ...ENABLED } } }),
  ]);
  return {
    totals: { activeMembers, mfaEnabled, mfaNotEnabled: activeMembers - mfaEnabled },
    nodes: rows.map((m) => {
      const enabled = m.user.mfa?.status === MFA_ENABLED;
      return {
        userSimplyId: m.user.simplyId,
        teamUserLinkSimplyId: m.simplyId,
        email: m.user.email,
        firstName: m.user.firstName,
        lastName: m.user.lastName,
        isTeamAdmin: m.isTeamAdmin,
        mfaEnabled: enabled,
        mfaEnabledAt: enabled ? (m.user.mfa?.enabledAt ?? null) : null,
      };
    }),
    pagination: pagination(listed, paging),
  };
}

/**
 * Removes a member's second factor (enabled or pending) and recovery codes; they sign in with their
 * password alone until they set it up again. A system administrator's only by a system administrator.
 */
export async function resetMemberMfa(ctx: RequestContext, teamUserLinkSimplyId: string): Promise<MfaReset> {
  const team = requireTeam(ctx);
  membershipId.assert(teamUserLinkSimplyId, 'teamUserLinkSimplyId');
  const { prisma } = ctx.services;
  const membership = await prisma.teamMembership.findUnique({
    where: { teamId_simplyId: { teamId: team.id, simplyId: teamUserLinkSimplyId } },
    select: { userId: true, user: { select: { simplyId: true, isSystemAdmin: true } } },
  });
  if (!membership) throw new NotFoundError('Team user link', teamUserLinkSimplyId);
  if (membership.user.isSystemAdmin && !ctx.principal.isSystemAdmin) {
    throw new PermissionDeniedError("Only a system administrator may reset a system administrator's multi-factor sign-in");
  }
  const removed = await prisma.userMfa.deleteMany({ where: { userId: membership.userId } });
  ctx.logger.info(
    { event: 'mfa.reset', teamSimplyId: team.simplyId, teamUserLinkSimplyId, userSimplyId: membership.user.simplyId, by: ctx.principal.userSimplyId, removed: removed.count > 0 },
    "a team admin reset a member's multi-factor sign-in",
  );
  return { teamUserLinkSimplyId, userSimplyId: membership.user.simplyId, mfaRemoved: removed.count > 0 };
}
