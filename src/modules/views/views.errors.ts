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
