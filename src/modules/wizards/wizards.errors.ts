// Errors of the data-wizards area. Its answers use the generic codes (docs/api/data-wizards.md);
// these classes name the resource once so every face words "not found" the same way.
import { ApiError, type ErrorDetail, NotFoundError } from '../../app/errors.ts';

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

/**
 * Applying an outcome preset whose fingerprint no longer matches: the wizard's outcome automations
 * changed since the preview, or the configuration is not the one reviewed. Nothing was changed.
 */
export class OutcomePresetStaleError extends ApiError {
  constructor() {
    super(409, 'OUTCOME_PRESET_STALE', "The wizard's outcomes changed since the preview, or the configuration is not the one reviewed: preview again and apply with the new fingerprint; nothing was changed", {
      details: [{ field: 'fingerprint', message: 'does not match the configuration and the outcomes as they are now' }],
    });
  }
}

/** Applying an outcome preset the preview reports blockers for; `details` lists them. Nothing was changed. */
export class OutcomePresetBlockedError extends ApiError {
  constructor(blockers: readonly ErrorDetail[]) {
    super(409, 'OUTCOME_PRESET_BLOCKED', `The outcome preset has ${blockers.length} blocker(s) (listed in details); nothing was changed`, { details: [...blockers] });
  }
}

/** The same idempotency key sent again with another fingerprint: a key stands for one reviewed application. */
export class IdempotencyKeyReusedError extends ApiError {
  constructor() {
    super(409, 'IDEMPOTENCY_KEY_REUSED', 'This idempotency key was used for another review of these outcomes; send a new key with this one', {
      details: [{ field: 'idempotencyKey', message: 'was used with another fingerprint' }],
    });
  }
}

export class WizardInstanceNotFoundError extends NotFoundError {
  constructor(simplyId: string) {
    super('Data wizard instance', simplyId);
  }
}

export class WizardExternalLinkNotFoundError extends NotFoundError {
  constructor(simplyId: string) {
    super('Data wizard external-access link', simplyId);
  }
}

/**
 * Creating an external-access link for a wizard that cannot run as configured: the studio
 * readiness blockers are in `details` (code, message, field). Nothing was created.
 */
export class WizardNotReadyError extends ApiError {
  constructor(blockers: readonly ErrorDetail[]) {
    super(409, 'WIZARD_NOT_READY', `The wizard has ${blockers.length} readiness blocker(s) (listed in details; GET …/studio-readiness): fix them before handing out a link`, { details: [...blockers] });
  }
}
