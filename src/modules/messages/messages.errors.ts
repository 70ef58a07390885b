// The errors of the messages area beyond the shared ones (docs/api/messages.md "Errors").
import { ConflictError } from '../../app/errors.ts';

/** An archived template is kept as it was archived: changing it is refused. */
export class TemplateArchivedError extends ConflictError {
  constructor(simplyId: string) {
    super(`Message template ${simplyId} is archived and can no longer be changed`);
  }
}
