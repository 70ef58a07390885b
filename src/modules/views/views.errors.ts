// Errors of view administration carrying their documented codes (docs/api/data-views.md "Errors").
import { ApiError } from '../../app/errors.ts';
import type { ReadinessIssue } from './views.readiness.ts';

/** Publishing a view whose configuration has blockers; `details` lists them as share-readiness does. */
export class ViewNotReadyError extends ApiError {
  constructor(blockers: readonly ReadinessIssue[]) {
    super(409, 'VIEW_NOT_READY', `The view cannot be published yet: ${blockers[0]?.message ?? 'it has configuration blockers'}${blockers.length > 1 ? ` (and ${blockers.length - 1} more)` : ''}`, {
      details: blockers.map((b) => ({ code: b.code, message: b.message, ...(b.field ? { field: b.field } : {}) })),
    });
  }
}

/**
 * A public access token for a share target the view does not offer now (not published, has
 * blockers, or a calendar feed of a view that is not a CALENDAR view); `details` lists the share
 * target's blockers as share-readiness does.
 */
export class ViewNotShareableError extends ApiError {
  constructor(tokenType: string, blockers: readonly ReadinessIssue[]) {
    super(409, 'VIEW_NOT_SHAREABLE', `The view cannot be shared as ${tokenType} yet: ${blockers[0]?.message ?? 'its share target is not available'}${blockers.length > 1 ? ` (and ${blockers.length - 1} more)` : ''}`, {
      details: blockers.map((b) => ({ code: b.code, message: b.message, ...(b.field ? { field: b.field } : {}) })),
    });
  }
}
