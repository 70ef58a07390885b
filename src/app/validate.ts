// zod at the service boundary: every failure becomes 400 VALIDATION_ERROR naming the fields.
import type { z } from 'zod';
import { ValidationError } from './errors.ts';

export function parseInput<S extends z.ZodType>(schema: S, value: unknown, message = 'Invalid input'): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new ValidationError(
    message,
    result.error.issues.map((issue) => ({
      field: issue.path.map(String).join('.') || undefined,
      message: issue.message,
    })),
  );
}
