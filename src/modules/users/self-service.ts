// Who the current-user self-service routes serve. The `signedInUser` tier has refused API keys and
// session tokens (IDP_REQUIRED) before a resolver runs.
import type { RequestContext } from '../../app/context.ts';
import { InvalidTeamSelectionError, PermissionDeniedError } from '../../app/errors.ts';
import { currentUserId } from './user-devices.ts';

/** The signed-in user; a team that was asked for but cannot be used is refused here too, as on /users/me. */
export function selfServiceUserId(ctx: RequestContext): bigint {
  const { teamError } = ctx.principal;
  if (teamError instanceof PermissionDeniedError || teamError instanceof InvalidTeamSelectionError) throw teamError;
  return currentUserId(ctx);
}
