// The errors of multi-factor sign-in beyond the shared ones (docs/api/authentication.md "Second factor (TOTP)").
import { ApiError } from '../../app/errors.ts';

/** A code that is wrong, outside its time window, already used, or a recovery code that is unknown or used. */
export class InvalidMfaCodeError extends ApiError {
  constructor(field: 'code' | 'recoveryCode' = 'code') {
    super(400, 'INVALID_MFA_CODE', field === 'code' ? 'The code is wrong, expired or already used' : 'The recovery code is wrong or already used', {
      details: [{ field, message: 'not accepted' }],
    });
  }
}
