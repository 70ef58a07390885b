// Who sees which tasks (rule 1): team admins and system administrators every task of the team;
// others their own tasks of the user-scoped types when they have any data access, and tasks of
// team-visible types whose feature permission they hold. One Prisma condition, used by the list,
// the detail (an invisible task is "not found") and every route about one task.
import { hasFeature, type Principal } from '../../app/auth/principal.ts';
import type { Prisma } from '../../generated/prisma/client.ts';
import { TEAM_VISIBLE_FEATURE, USER_SCOPED_TYPES } from './task-types.ts';

export interface TaskVisibility {
  all: boolean;
  ownUserScoped: boolean;
  teamTypes: string[];
}

function hasAnyDataAccess(p: Principal): boolean {
  return p.data !== null && (p.data.full !== null || p.data.collections.size > 0);
}

export function visibilityOf(p: Principal): TaskVisibility {
  if (p.isTeamAdmin || p.isSystemAdmin) return { all: true, ownUserScoped: true, teamTypes: [] };
  const teamTypes = Object.entries(TEAM_VISIBLE_FEATURE)
    .filter(([, feature]) => hasFeature(p, feature, 'VIEW'))
    .map(([type]) => type);
  return { all: false, ownUserScoped: p.userId !== null && hasAnyDataAccess(p), teamTypes };
}

export function canViewTasks(v: TaskVisibility): boolean {
  return v.all || v.ownUserScoped || v.teamTypes.length > 0;
}

/** The condition a task row must meet to be visible (with the team's id). */
export function visibleWhere(p: Principal, teamId: bigint): Prisma.BackgroundTaskWhereInput {
  const v = visibilityOf(p);
  if (v.all) return { teamId };
  const any: Prisma.BackgroundTaskWhereInput[] = [];
  if (v.ownUserScoped) any.push({ userId: p.userId!, taskType: { in: [...USER_SCOPED_TYPES] } });
  if (v.teamTypes.length > 0) any.push({ taskType: { in: v.teamTypes } });
  // nothing visible: a condition no row meets
  return { teamId, OR: any.length > 0 ? any : [{ id: -1n }] };
}
