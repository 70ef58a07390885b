// Paths are routed as sent. The URL parser resolves "." and ".." segments (and treats "\" as "/"),
// so `DELETE /v1/automations/{id}/actions/..` would reach `DELETE /v1/automations/{id}`: a request
// whose path has such a segment, raw or percent-encoded, is refused before it is parsed.
import { ValidationError } from '../errors.ts';

/** The path part of a request target has a "." or ".." segment (also as %2e, or between backslashes). */
export function hasDotSegment(target: string): boolean {
  const end = target.search(/[?#]/);
  const path = end === -1 ? target : target.slice(0, end);
  return path.split(/[/\\]/).some((segment) => {
    const plain = segment.replace(/%2e/gi, '.');
    return plain === '.' || plain === '..';
  });
}

export function dotSegmentError(): ValidationError {
  return new ValidationError('The path may not contain "." or ".." segments', [{ field: 'path', message: 'has a "." or ".." segment' }]);
}
