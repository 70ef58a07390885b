// The input form of optional text the team writes (subjects, preheaders, bodies): within a length,
// storable (text-guards.ts), and stored as null when it is only spaces, so "none" has one form.
import { z } from 'zod';
import { textProblem } from './text-guards.ts';

/** `lineOf`: one line (a subject, a header), named in the length message; otherwise a body. */
export function optionalText(max: number, { lineOf }: { lineOf?: string } = {}) {
  return z
    .string({ message: 'must be text' })
    .max(max, lineOf ? `must be at most ${max} characters (${lineOf})` : `must be at most ${max} characters`)
    .refine(
      (v) => textProblem(v, { singleLine: lineOf !== undefined }) === null,
      lineOf !== undefined ? 'must be one line (no line breaks or control characters)' : 'must not contain control characters other than tabs and line breaks, or invalid Unicode',
    )
    .transform((v) => (v.trim() === '' ? null : v))
    .nullable();
}
