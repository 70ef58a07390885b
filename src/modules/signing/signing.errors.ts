// The errors of the signing area beyond the shared ones (docs/api/signing-requests.md "Errors").
import { NotFoundError, ValidationError } from '../../app/errors.ts';

/**
 * A signing link that is unknown, replaced by a resend, past its expiry, or disabled because the
 * request ended (voided, declined, expired, completed): all answer alike, so a link reveals nothing
 * about a request it no longer opens.
 */
export class SigningLinkNotFoundError extends NotFoundError {
  constructor() {
    super('Signing link');
  }
}

/** Resend, void or signing on a request that has reached a terminal state. */
export class SigningRequestClosedError extends ValidationError {
  constructor(simplyId: string, status: string) {
    super(`Signing request ${simplyId} is ${status}: nothing can be sent or signed any more`, [{ field: 'signingRequestSimplyId', message: `request is ${status}` }]);
  }
}
