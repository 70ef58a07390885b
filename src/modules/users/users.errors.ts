// Errors of the users area with their documented codes.
import { ApiError } from '../../app/errors.ts';

/** A device (installation) that is not registered to the current user. */
export class DeviceNotFoundError extends ApiError {
  constructor(what: string) {
    super(404, 'DEVICE_NOT_FOUND', `No device ${what} is registered to the current user`);
  }
}
