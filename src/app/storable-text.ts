// Text PostgreSQL cannot hold: NUL (U+0000; `text` and `jsonb` both refuse it) and unpaired UTF-16
// surrogates (not Unicode text at all; `jsonb` refuses their escapes). Every client value — REST
// path, query and body, GraphQL variables and string literals — passes this one check before any
// service sees it, so such text is a 400 naming the field, never a database error (a 500) and
// never half-stored. The walk is iterative: it is safe on values of any depth.
import { ValidationError, type ErrorDetail } from './errors.ts';

const NUL = 'contains a NUL character (U+0000), which cannot be stored';
const SURROGATE = 'contains an unpaired UTF-16 surrogate, which is not valid Unicode text';

function problemOf(text: string): string | undefined {
  if (text.includes('\u0000')) return NUL;
  if (!text.isWellFormed()) return SURROGATE;
  return undefined;
}

/** The first unstorable string in `value` (a string, or one inside it, keys included), as a detail naming its path. */
export function findUnstorableText(value: unknown, field = ''): ErrorDetail | undefined {
  const stack: [unknown, string][] = [[value, field]];
  while (stack.length > 0) {
    const [current, path] = stack.pop()!;
    if (typeof current === 'string') {
      const problem = problemOf(current);
      if (problem) return { field: path || undefined, message: problem };
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) stack.push([current[i], path ? `${path}.${i}` : String(i)]);
    } else if (current !== null && typeof current === 'object') {
      const entries = Object.entries(current);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, inner] = entries[i]!;
        const keyProblem = problemOf(key);
        if (keyProblem) return { field: path || undefined, message: `has a key that ${keyProblem}` };
        stack.push([inner, path ? `${path}.${key}` : key]);
      }
    }
  }
  return undefined;
}

/** Throws 400 VALIDATION_ERROR naming the field when `value` holds text that cannot be stored. */
export function assertStorableText(value: unknown, field = ''): void {
  const detail = findUnstorableText(value, field);
  if (detail) throw new ValidationError(detail.field ? `${detail.field} ${detail.message}` : `The input ${detail.message}`, [detail]);
}
