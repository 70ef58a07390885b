// zod building blocks shared by the REST tables: query-string numbers and lists, paging, and
// the path parameter of a resource. Query values arrive as strings.
import { z } from 'zod';

const INT32 = 2 ** 31;

/** An integer query parameter; empty counts as absent. Ranges are the service's to check (one message
 *  for both faces); here only that it is a GraphQL Int (32 bits), so the error names the parameter. */
export const queryInt = () =>
  z.preprocess(
    (v) => (v === '' ? undefined : v),
    z
      .string()
      .regex(/^-?\d+$/, 'must be an integer')
      .transform(Number)
      .refine((n) => n >= -INT32 && n < INT32, 'is out of range (a 32-bit integer)')
      .optional(),
  );

/** `true` / `false` query parameter; empty counts as absent. */
export const queryBool = () =>
  z.preprocess(
    (v) => (v === '' ? undefined : v),
    z
      .enum(['true', 'false'], { message: 'must be true or false' })
      .optional()
      .transform((v) => (v === undefined ? undefined : v === 'true')),
  );

/** `a,b,c` → ['a', 'b', 'c'] (empty items dropped). */
export const queryList = () =>
  z
    .string()
    .optional()
    .transform((v) => (v ?? '').split(',').map((s) => s.trim()).filter(Boolean));

/** `limit` and `offset` of offset-paged lists (limit 1-100, default 25; offset ≥ 0). */
export const pageQuery = z.object({
  limit: queryInt().describe('1-100, default 25'),
  offset: queryInt().describe('0 or more, default 0'),
});

/** A JSON object body whose fields the operation's input type and service validate. */
export const jsonObject = () => z.record(z.string(), z.unknown());

/** The error of a body that is not a JSON object (zod's `error` option of a body schema). */
export const NOT_AN_OBJECT = { error: 'The request body must be a JSON object' };
