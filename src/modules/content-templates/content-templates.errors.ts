// The errors of the content-templates area beyond the shared ones (docs/api/content-templates.md "Errors").
import { ConflictError, ValidationError } from '../../app/errors.ts';

/** An archived template is kept as it was archived: changing or reassigning it is refused. */
export class TemplateArchivedError extends ConflictError {
  constructor(simplyId: string) {
    super(`Content template ${simplyId} is archived and can no longer be changed`);
  }
}

/** Each document template keeps exactly one collection; other templates have none to remove or set. */
export class TemplateLinkRefusedError extends ValidationError {
  constructor(message: string) {
    super(message, [{ field: 'contentTemplateSimplyId', message }]);
  }
}
