// Errors of website imports with their codes (docs/api/websites.md "Import").
import { ApiError } from '../../app/errors.ts';

/** The source is not a public address (private, loopback, link-local, reserved) or not http(s). */
export class ImportTargetRefusedError extends ApiError {
  constructor(reason: string) {
    super(400, 'WEBSITE_IMPORT_TARGET_REFUSED', `The site cannot be imported from there: ${reason}`, { details: [{ field: 'sourceUrl', message: reason }] });
  }
}

/** The source could not be read as a web page: unreachable, too slow, an error status, not HTML, too large, or closed by robots.txt. */
export class ImportSourceUnavailableError extends ApiError {
  constructor(reason: string, kind: string) {
    super(422, 'WEBSITE_IMPORT_SOURCE_UNAVAILABLE', `The site could not be read: ${reason}`, { details: [{ field: 'sourceUrl', message: `${kind}: ${reason}` }] });
  }
}

/** A review of an import that has not finished yet. */
export class ImportNotFinishedError extends ApiError {
  constructor(status: string) {
    super(409, 'WEBSITE_IMPORT_NOT_FINISHED', `The import is ${status}: review it once it has finished`);
  }
}
