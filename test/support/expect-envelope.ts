// Assertions on the REST envelope (`{ data, meta: { requestId } }` / `{ error, meta }`) and on
// GraphQL results, shared by the integration tests.
import { expect } from 'vitest';
import type { GraphQLResponse, TestResponse } from './server.ts';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export interface ErrorBody {
  code: string;
  message: string;
  requestId: string;
  details?: { field?: string; message: string }[];
}

/**
 * A success envelope with `status`: `meta.requestId` is a UUID equal to the X-Request-Id header,
 * and there is no `error`. Returns `data`.
 */
export function expectOk(res: TestResponse, status = 200) {
  expect(res.status, res.text).toBe(status);
  expect(res.body.meta.requestId).toMatch(UUID);
  expect(res.headers.get('x-request-id')).toBe(res.body.meta.requestId);
  expect(res.body).not.toHaveProperty('error');
  return res.body.data;
}

/**
 * An error envelope with `status` and `code`: a message, `error.requestId` a UUID that is also
 * `meta.requestId` (and nothing else in `meta`) and the X-Request-Id header, and no `data`.
 * `label` prefixes the failure messages (for checks run in a loop).
 */
export function expectError(res: TestResponse, status: number, code: string, label?: string): ErrorBody {
  const context = label ? `${label} ${res.text}` : res.text;
  expect(res.status, context).toBe(status);
  expect(res.body.error.code, context).toBe(code);
  expect(res.body.error.message).toEqual(expect.any(String));
  expect(res.body.error.requestId).toMatch(UUID);
  expect(res.body.meta).toEqual({ requestId: res.body.error.requestId });
  expect(res.headers.get('x-request-id')).toBe(res.body.error.requestId);
  expect(res.body).not.toHaveProperty('data');
  return res.body.error as ErrorBody;
}

/** A GraphQL result without errors (HTTP 200). Returns `data`. */
export function gqlData<T = any>(res: GraphQLResponse<T>): T {
  expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
  expect(res.status).toBe(200);
  return res.data as T;
}

/** A GraphQL result whose first error has extensions `code` and `status`, sent with `httpStatus`. */
export function expectGqlError(res: GraphQLResponse<unknown>, code: string, status: number, httpStatus = 200): void {
  expect(res.status, JSON.stringify(res.errors)).toBe(httpStatus);
  expect(res.errors?.[0]?.extensions?.code, JSON.stringify(res.errors)).toBe(code);
  expect(res.errors?.[0]?.extensions?.status).toBe(status);
}
