// zod at the service boundary: every failure becomes 400 VALIDATION_ERROR naming the fields.
import type { z } from 'zod';
import { ValidationError, type ErrorDetail } from './errors.ts';

/** One detail per zod issue; an unknown key is named as the field itself (zod reports it at its parent). */
export function issueDetails(error: z.ZodError): ErrorDetail[] {
  return error.issues.flatMap((issue) => {
    const path = issue.path.map(String);
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ field: [...path, key].join('.'), message: 'is not a known field' }));
    }
    return [{ field: path.join('.') || undefined, message: issue.message }];
  });
}

export function parseInput<S extends z.ZodType>(schema: S, value: unknown, message = 'Invalid input'): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new ValidationError(message, issueDetails(result.error));
}
