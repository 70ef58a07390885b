// The failure codes an execution log entry can carry (docs/api/automations.md). They are not HTTP
// errors: an action that throws one fails for that record, and the runner writes its code and
// message into the execution's errorDetails. ApiErrors thrown by the data core keep their own code.
import { NotFoundError } from '../../app/errors.ts';

/** A failure with a code for the execution log. */
export class ActionError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}

/** The action's saved settings no longer fit the team schema (a field or collection went away). */
export class InvalidConfigError extends ActionError {
  constructor(message: string) {
    super('INVALID_CONFIG', message);
  }
}

/** A record action ran without a record (e.g. a SCHEDULE automation without a collection). */
export class NoRecordError extends ActionError {
  constructor(what: string) {
    super('NO_RECORD', `${what} needs a record, and this run has none`);
  }
}

/** SEND_EMAIL or SEND_USER_NOTIFICATION found nobody to send to. */
export class NoRecipientError extends ActionError {
  constructor(message: string) {
    super('NO_RECIPIENT', message);
  }
}

/** The record's address is on the team's suppression list and no fixed address remains. */
export class RecipientSuppressedError extends ActionError {
  constructor(address: string) {
    super('RECIPIENT_SUPPRESSED', `${address} is on the team's suppression list (unsubscribed, bounced, complained or added by hand): no mail was sent`);
  }
}

export class NotAMemberError extends ActionError {
  constructor(who: string) {
    super('NOT_A_MEMBER', `${who} is not an active member of the team`);
  }
}

/** CHARGE_PAYMENT read no amount from the record. */
export class NoAmountError extends ActionError {
  constructor(fieldSimplyId: string) {
    super('NO_AMOUNT', `The record has no amount in ${fieldSimplyId}`);
  }
}

export class InvalidPaymentError extends ActionError {
  constructor(message: string) {
    super('INVALID_PAYMENT', message);
  }
}

export class PaymentDeclinedError extends ActionError {
  constructor(paymentSimplyId: string, reason: string | null | undefined) {
    super('PAYMENT_DECLINED', `Payment ${paymentSimplyId} was declined: ${reason ?? 'no reason given'}`);
  }
}

/** RUN_WIZARD_STEP: the wizard run started and did not complete. */
export class WizardFailedError extends ActionError {
  constructor(dataWizardSimplyId: string, message: string) {
    super('WIZARD_FAILED', `Wizard ${dataWizardSimplyId} did not complete: ${message}`);
  }
}

/** The filter conditions no longer compile against the collection: the whole run fails. */
export class InvalidConditionsError extends ActionError {
  constructor(message: string) {
    super('INVALID_CONDITIONS', message);
  }
}

export class AutomationNotFoundError extends NotFoundError {
  constructor(simplyId: string) {
    super('Automation', simplyId);
  }
}
