// The errors of the notifications area beyond the shared ones (docs/api/notifications.md "Errors").
// A device that is not the caller's is DeviceNotFoundError of the users area, where devices live.
import { ApiError } from '../../app/errors.ts';

/** Preferences belong to one installation: the call must name it one way, not both, not neither. */
export class InvalidDeviceError extends ApiError {
  constructor(given: 'both' | 'neither') {
    super(400, 'INVALID_DEVICE', given === 'both'
      ? 'Give either installationId or deviceSimplyId, not both'
      : 'Give installationId or deviceSimplyId to say which device the preferences belong to', {
      details: [{ field: given === 'both' ? 'deviceSimplyId' : 'installationId', message: 'exactly one of installationId and deviceSimplyId is required' }],
    });
  }
}
