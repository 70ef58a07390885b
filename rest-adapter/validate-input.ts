// Checks a request against its route's zod schemas before anything runs. Every failure is the
// documented 400 VALIDATION_ERROR with one detail per problem; the message names the first one.
import type { z } from 'zod';
import { ValidationError } from '../src/app/errors.ts';
import { assertStorableText } from '../src/app/storable-text.ts';
import { issueDetails } from '../src/app/validate.ts';
import type { RestRoute, RouteInput } from './route.ts';

function parsePart<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const details = issueDetails(result.error);
  const first = details[0]!;
  throw new ValidationError(first.field ? `${first.field} ${first.message}` : first.message, details);
}

/** the team selection (the X-Team-Id header's twin): read with the credential, never a route's input */
const CREDENTIAL_PARAMETERS = new Set(['teamSimplyId']);

/** The first value of each query parameter (repeated names are not part of this API). */
function queryObject(searchParams: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of searchParams) if (!(key in out) && !CREDENTIAL_PARAMETERS.has(key)) out[key] = value;
  return out;
}

export function validateInput(route: RestRoute, params: Record<string, string>, url: URL, body: unknown): RouteInput<any, any, any> {
  // a URL's searchParams is built on first use: a request without a query string need not build one
  const query = url.search === '' ? {} : queryObject(url.searchParams);
  // names the field as the schemas do: the parameter, or the body's path
  for (const part of [params, query, body]) assertStorableText(part);
  if (!route.body && body !== undefined) throw new ValidationError('This route takes no request body');
  if (route.body && body === undefined && !route.body.safeParse(undefined).success) throw new ValidationError('This route needs a JSON body');
  return {
    params: route.params ? parsePart(route.params, params) : params,
    query: route.query ? parsePart(route.query, query) : {},
    body: route.body ? parsePart(route.body, body) : undefined,
  };
}
