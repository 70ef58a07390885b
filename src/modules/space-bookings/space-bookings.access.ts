// Who may do what on source connections: SVC_SPACES_VIEW or SVC_SPACES_MANAGE to read, MANAGE to
// provision and register webhooks (Document 3 §5). The credential kind is the tier's (tiers.ts).
import { hasFeature } from '../../app/auth/principal.ts';
import type { RequestContext } from '../../app/context.ts';
import { PermissionDeniedError } from '../../app/errors.ts';

export function canManageSpaces(ctx: RequestContext): boolean {
  return hasFeature(ctx.principal, 'SVC_SPACES_MANAGE', 'VIEW');
}

export function requireSpacesView(ctx: RequestContext): void {
  if (!canManageSpaces(ctx) && !hasFeature(ctx.principal, 'SVC_SPACES_VIEW', 'VIEW')) {
    throw new PermissionDeniedError('Space bookings need the feature permission SVC_SPACES_VIEW or SVC_SPACES_MANAGE');
  }
}

export function requireSpacesManage(ctx: RequestContext): void {
  if (!canManageSpaces(ctx)) throw new PermissionDeniedError('This needs the feature permission SVC_SPACES_MANAGE');
}
