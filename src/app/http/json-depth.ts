// How deeply a client's JSON may nest. JSON.parse takes any depth, but everything after it that
// walks the value recursively (JSON.stringify for a size check or a JSON column, validation,
// GraphQL input coercion) overflows the stack on a few thousand levels: a 1 MiB body can nest half
// a million. Bodies and GraphQL variables deeper than MAX_JSON_DEPTH are refused at the edge, and
// the check itself walks with its own stack, so it cannot overflow.
import { ValidationError } from '../errors.ts';

export const MAX_JSON_DEPTH = 64;

/** Whether `value` (parsed JSON) has containers nested more than `max` levels deep. */
export function nestsDeeperThan(value: unknown, max: number = MAX_JSON_DEPTH): boolean {
  const pending: [unknown, number][] = [[value, 1]];
  while (pending.length > 0) {
    const [current, depth] = pending.pop()!;
    if (current === null || typeof current !== 'object') continue;
    if (depth > max) return true;
    for (const child of Array.isArray(current) ? current : Object.values(current)) {
      if (child !== null && typeof child === 'object') pending.push([child, depth + 1]);
    }
  }
  return false;
}

export function tooDeepError(what: string, field?: string): ValidationError {
  return new ValidationError(`${what} nests deeper than ${MAX_JSON_DEPTH} levels`, [{ ...(field ? { field } : {}), message: `nests deeper than ${MAX_JSON_DEPTH} levels` }]);
}
