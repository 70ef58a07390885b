import type { TeamRef } from '../auth/principal.ts';
import { teamContextRequired } from '../platform/errors.ts';
import type { GraphQLContext } from './context.ts';

/** The caller's team. Fields that call this are guarded by the `team` scope, so it is a safety net. */
export function requireTeam(ctx: GraphQLContext): TeamRef {
  const p = ctx.principal;
  if (p.team) return p.team;
  throw p.teamError ?? teamContextRequired();
}
