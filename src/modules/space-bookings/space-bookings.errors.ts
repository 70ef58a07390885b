// Errors of space bookings carrying their documented codes (docs/api/space-bookings.md "Errors").
import { ApiError, type ErrorDetail } from '../../app/errors.ts';
import type { Diagnostic } from './booking-rules.ts';

const CONFLICTS = new Set(['BOOKING_SPACE_UNAVAILABLE', 'BOOKING_SLOT_CONTENTION']);

export class BookingRequestInvalidError extends ApiError {
  constructor(message: string, details: ErrorDetail[]) {
    super(400, 'SVC_SPACES_BOOKING_REQUEST_INVALID', message, { details });
  }
}

export class MappingNotConfiguredError extends ApiError {
  constructor(sourceConnectionSimplyId: string) {
    super(400, 'SVC_SPACES_MAPPING_NOT_CONFIGURED', `Source connection ${sourceConnectionSimplyId} has no mapping yet: PUT its mapping first`);
  }
}

export class BookingUnauthorizedError extends ApiError {
  constructor(message: string) {
    super(403, 'SVC_SPACES_BOOKING_UNAUTHORIZED', message);
  }
}

export class LinkVerificationRequiredError extends ApiError {
  constructor(message = 'This booking link needs a verified constituent session') {
    super(403, 'BOOKING_LINK_VERIFICATION_REQUIRED', message);
  }
}

export class BookingLinkNotFoundError extends ApiError {
  constructor(bookingLinkSimplyId: string) {
    super(404, 'BOOKING_LINK_NOT_FOUND', `No booking link ${bookingLinkSimplyId} is reachable with this token`);
  }
}

export class PaymentNotSupportedError extends ApiError {
  constructor(policy: string) {
    super(409, 'BOOKING_PAYMENT_NOT_SUPPORTED', `This link's payment policy is ${policy}: bookings that need payment cannot be made through it yet`);
  }
}

/**
 * A booking the rules refuse at write time: the first diagnostic's code, every diagnostic in
 * details. The space being taken (by an earlier booking or one that won a race) is a conflict, 409;
 * a time the policy never allows is the request's fault, 400.
 */
export class BookingRefusedError extends ApiError {
  constructor(diagnostics: Diagnostic[]) {
    const first = diagnostics.find((d) => CONFLICTS.has(d.code)) ?? diagnostics[0]!;
    super(CONFLICTS.has(first.code) ? 409 : 400, first.code, first.message, { details: diagnostics.map((d) => ({ ...(d.path ? { field: d.path } : {}), code: d.code, message: d.message })) });
  }
}
