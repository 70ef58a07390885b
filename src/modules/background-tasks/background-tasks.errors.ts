// Errors of the background-task area (docs/api/background-tasks.md "Errors").
import { ApiError } from '../../app/errors.ts';

/** A state move the task's status does not allow (archive while running, cancel when finished). */
export class TaskStateConflictError extends ApiError {
  constructor(message: string) {
    super(409, 'INVALID_STATUS_TRANSITION', message);
  }
}

/** The result is not there to download: not finished, no file, or not an export. */
export class TaskResultUnavailableError extends ApiError {
  constructor(message: string) {
    super(409, 'TASK_RESULT_UNAVAILABLE', message);
  }
}

/** A task type the platform has no worker for, or that cannot be started through the API. */
export class TaskTypeNotSupportedError extends ApiError {
  constructor(type: string, why: string) {
    super(400, 'TASK_TYPE_NOT_SUPPORTED', `Background tasks of type ${type} ${why}`, { details: [{ field: 'enumBackgroundTaskTypeId', message: why }] });
  }
}

/** The export's scope changed since it was created (a permission, a field, the view): the result is not handed out. */
export class ExportScopeChangedError extends ApiError {
  constructor(message = 'The export no longer matches what you may read (a permission, field or view changed since it was created); start a new export') {
    super(403, 'EXPORT_SCOPE_CHANGED', message);
  }
}

/** No PDF renderer (Chromium) is installed or configured on this server. */
export class RendererNotConfiguredError extends ApiError {
  constructor(message: string) {
    super(503, 'RENDERER_NOT_CONFIGURED', message);
  }
}
