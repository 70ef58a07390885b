// Who sees which tasks (rule 1): team admins and system administrators every task of the team;
// others their own tasks of the user-scoped types when they have any data access, and tasks of
// team-visible types whose feature permission they hold. One SQL condition, used by the list, the
// detail (an invisible task is "not found"), every route about one task and the subscription.
import { hasFeature, type Principal } from '../../app/auth/principal.ts';
import type { SqlParams } from '../../db/sql-params.ts';
import { TEAM_VISIBLE_FEATURE, USER_SCOPED_TYPES } from './task-type-names.ts';

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

/**
 * The condition a row must meet to be visible to `p` in the team (`team`: its parameter): a task
 * `t`, or a count row of BackgroundTaskCount (same columns).
 */
export function visibleSql(p: Principal, team: string, sql: SqlParams, alias = 't'): string {
  const v = visibilityOf(p);
  if (v.all) return `${alias}."teamId" = ${team}`;
  const any: string[] = [];
  if (v.ownUserScoped) any.push(`(${alias}."userId" = ${sql.param(p.userId)} AND ${alias}."taskType" = ANY(${sql.param([...USER_SCOPED_TYPES])}::text[]))`);
  if (v.teamTypes.length > 0) any.push(`${alias}."taskType" = ANY(${sql.param(v.teamTypes)}::text[])`);
  return `${alias}."teamId" = ${team} AND ${any.length > 0 ? `(${any.join(' OR ')})` : 'false'}`;
}
