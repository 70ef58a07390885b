// Errors of the data-wizards area. Its answers use the generic codes (docs/api/data-wizards.md);
// these classes name the resource once so every face words "not found" the same way.
import { NotFoundError } from '../../app/errors.ts';

export class WizardNotFoundError extends NotFoundError {
  constructor(simplyId: string) {
    super('Data wizard', simplyId);
  }
}

export class WizardStepNotFoundError extends NotFoundError {
  constructor(simplyId: string) {
    super('Data wizard step', simplyId);
  }
}

export class WizardTaskNotFoundError extends NotFoundError {
  constructor(simplyId: string) {
    super('Data wizard step task', simplyId);
  }
}
