// The error of push-token deactivation (docs/api/notifications.md "Errors").
import { ApiError } from '../../app/errors.ts';

/** Deactivating a token the current user never registered (or that another person now holds). */
export class TokenNotFoundError extends ApiError {
  constructor() {
    super(404, 'TOKEN_NOT_FOUND', 'No push token like this is registered to the current user');
  }
}
