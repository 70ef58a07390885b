// Paths are routed as sent. The URL parser resolves "." and ".." segments (and treats "\" as "/"),
// so `DELETE /v1/automations/{id}/actions/..` would reach `DELETE /v1/automations/{id}`: a request
// whose path has such a segment, raw or percent-encoded, is refused before it is parsed.
import { ValidationError } from '../errors.ts';

// One pass over the path part (up to "?" or "#"): a segment boundary, one or two dots (each "." or
// "%2e"), and the segment's end. Every request goes through it.
const DOT_SEGMENT = /^[^?#]*?(?:^|[/\\])(?:\.|%2e){1,2}(?:[/\\?#]|$)/i;

/** The path part of a request target has a "." or ".." segment (also as %2e, or between backslashes). */
export function hasDotSegment(target: string): boolean {
  return DOT_SEGMENT.test(target);
}

export function dotSegmentError(): ValidationError {
  return new ValidationError('The path may not contain "." or ".." segments', [{ field: 'path', message: 'has a "." or ".." segment' }]);
}
