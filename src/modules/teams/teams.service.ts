// The team-wide administrative event stream (published by src/app/team-write.ts on every
// credential or role change, from whichever instance made it).
import type { RequestContext } from '../../app/context.ts';
import { requireTeam } from '../../app/require-team.ts';

/** The caller's team's events, as they happen. */
export function subscribeTeamEvents(ctx: RequestContext) {
  return ctx.services.events.pubsub.subscribe('teamEvents', requireTeam(ctx).simplyId);
}
