// The errors of the outgoing-messages area beyond the shared ones (docs/api/outgoing-messages.md "Errors").
import { ApiError, type ErrorDetail } from '../../app/errors.ts';

/** Content and recipients change only while the message is a DRAFT. */
export class MessageNotEditableError extends ApiError {
  constructor(simplyId: string, status: string) {
    super(409, 'MESSAGE_NOT_EDITABLE', `Outgoing message ${simplyId} is ${status}; only a DRAFT can be changed (move it back to DRAFT first where that is allowed)`, {
      details: [{ field: 'status', message: `is ${status}`, status }],
    });
  }
}

/** A status move the transition table does not have (or that only the system makes). */
export class InvalidStatusTransitionError extends ApiError {
  constructor(from: string, to: string, allowed: readonly string[], why?: string) {
    const list = allowed.length ? allowed.join(', ') : 'none';
    super(409, 'INVALID_STATUS_TRANSITION', `A message cannot move from ${from} to ${to}${why ? ` (${why})` : ''}; from ${from} it can move to: ${list}`, {
      details: [{ field: 'status', message: `cannot move from ${from} to ${to}`, from, to, allowed: [...allowed] }],
    });
  }
}

/** The team requires approval: a draft is submitted (AWAITING_APPROVAL) and approved first. */
export class ApprovalRequiredError extends ApiError {
  constructor(to: string) {
    super(409, 'APPROVAL_REQUIRED', `The team requires approval before a message is scheduled or sent: move it to AWAITING_APPROVAL, then have it APPROVED, then to ${to}`, {
      details: [{ field: 'status', message: 'the team requires approval first', from: 'DRAFT', to, allowed: ['AWAITING_APPROVAL'] }],
    });
  }
}

/** Four eyes: whoever created a message cannot approve it. */
export class SelfApprovalError extends ApiError {
  constructor() {
    super(403, 'SELF_APPROVAL_FORBIDDEN', 'A message cannot be approved by the credential that created it; another team member must approve it');
  }
}

/** SMS, WHATSAPP and FACEBOOK need a provider; none is configured. */
export class DeliveryMethodUnavailableError extends ApiError {
  constructor(deliveryMethod: string) {
    super(409, 'DELIVERY_METHOD_UNAVAILABLE', `No ${deliveryMethod} provider is configured: ${deliveryMethod} messages can be composed but not sent yet`, {
      details: [{ field: 'deliveryMethod', message: `no ${deliveryMethod} provider is configured` }],
    });
  }
}

/** Readiness blockers stop scheduling and sending; the details list them. */
export class NotReadyToSendError extends ApiError {
  constructor(blockers: readonly { code: string; message: string; field?: string }[]) {
    const details: ErrorDetail[] = blockers.map((b) => ({ ...(b.field ? { field: b.field } : {}), code: b.code, message: b.message }));
    super(409, 'NOT_READY_TO_SEND', `The message is not ready to send: ${blockers.map((b) => b.code).join(', ')} (GET .../send-readiness lists what to fix)`, { details });
  }
}
