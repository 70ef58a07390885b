// The errors of constituent authentication beyond the shared ones (docs/api/constituent-auth.md "Errors").
import { ApiError, UnauthenticatedError } from '../../app/errors.ts';

/** A wrong code (or link token) for a verification that is still open: the attempt is counted. */
export class InvalidVerificationCodeError extends ApiError {
  constructor(field: 'code' | 'token') {
    super(400, 'INVALID_VERIFICATION_CODE', field === 'code' ? 'The code is wrong' : 'The link token is wrong', {
      details: [{ field, message: 'not accepted' }],
    });
  }
}

/** Unknown, expired, used, or invalidated after too many wrong codes: only a new initiate helps. */
export class VerificationUnusableError extends UnauthenticatedError {
  constructor() {
    super('The verification is unknown, expired, already used or invalidated; start again with /v1/constituent-auth/initiate');
  }
}
