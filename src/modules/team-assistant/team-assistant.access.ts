// Who may use the assistant and how far (Document 2 §5): the scope-auth tier admits signed-in
// members and allowlisted first-party OAuth clients; here the assistant's own feature permissions.
// View level asks, searches and rates; edit level also drafts changes. The same check runs again
// inside every run step, with the member's role as it is then.
import type { RequestContext } from '../../app/context.ts';
import { levelSatisfies, type FeatureLevel } from '../../app/auth/feature-permissions.ts';
import type { Principal } from '../../app/auth/principal.ts';
import { requireTeam } from '../../app/require-team.ts';
import { AssistantPermissionDeniedError, AssistantSettingsDeniedError, AssistantUnavailableError } from './team-assistant.errors.ts';

/** The caller's assistant level: the higher of TEAM_AGENT_USE and TEAM_ADMIN_AGENT_USE (admins: EDIT). */
export function assistantLevel(p: Principal): FeatureLevel | null {
  if (p.isTeamAdmin || p.isSystemAdmin) return 'EDIT';
  const levels = [p.features.get('TEAM_AGENT_USE'), p.features.get('TEAM_ADMIN_AGENT_USE')];
  if (levels.includes('EDIT')) return 'EDIT';
  return levels.includes('VIEW') ? 'VIEW' : null;
}

export interface AssistantCaller {
  teamId: bigint;
  teamSimplyId: string;
  userId: bigint;
  level: FeatureLevel;
}

/** The caller, when the platform has a model and the caller the assistant permission at `level`. */
export function requireAssistant(ctx: RequestContext, level: FeatureLevel = 'VIEW'): AssistantCaller {
  const team = requireTeam(ctx);
  if (!ctx.services.ai) throw new AssistantUnavailableError();
  const granted = assistantLevel(ctx.principal);
  if (!granted || !levelSatisfies(granted, level) || ctx.principal.userId === null) throw new AssistantPermissionDeniedError(level);
  return { teamId: team.id, teamSimplyId: team.simplyId, userId: ctx.principal.userId, level: granted };
}

/** Settings: Team Admins, or edit-level TEAM_ADMIN_AGENT_USE (no model needed to prepare them). */
export function requireSettingsAccess(ctx: RequestContext): bigint {
  const team = requireTeam(ctx);
  const p = ctx.principal;
  if (!(p.isTeamAdmin || p.isSystemAdmin || p.features.get('TEAM_ADMIN_AGENT_USE') === 'EDIT')) throw new AssistantSettingsDeniedError();
  return team.id;
}
