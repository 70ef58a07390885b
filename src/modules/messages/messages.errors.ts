// The errors of the messages area beyond the shared ones (docs/api/messages.md "Errors").
import { ConflictError } from '../../app/errors.ts';

/** An archived template is kept as it was archived: changing it is refused. */
export class TemplateArchivedError extends ConflictError {
  constructor(simplyId: string) {
    super(`Message template ${simplyId} is archived and can no longer be changed`);
  }
}

/** A team proves each of its mail domains once. */
export class MailDomainExistsError extends ConflictError {
  constructor(domain: string) {
    super(`The team already has the mail domain ${domain}`);
  }
}

/** Deleting a domain would leave its senders with an address nobody proved the team controls. */
export class MailDomainInUseError extends ConflictError {
  constructor(simplyId: string, senders: number) {
    super(`Mail domain ${simplyId} is used by ${senders} active sender${senders === 1 ? '' : 's'}; delete (archive) them first`);
  }
}

/** A verified sender has nothing left to confirm. */
export class SenderAlreadyVerifiedError extends ConflictError {
  constructor(simplyId: string) {
    super(`Message sender ${simplyId} is already verified: there is nothing to confirm`);
  }
}
