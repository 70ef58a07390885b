import type { TeamRef } from './auth/principal.ts';
import { teamContextRequired } from './errors.ts';
import type { RequestContext } from './context.ts';

/** The caller's team. Fields that call this are guarded by the `team` scope, so it is a safety net. */
export function requireTeam(ctx: RequestContext): TeamRef {
  const p = ctx.principal;
  if (p.team) return p.team;
  throw p.teamError ?? teamContextRequired();
}
