// TRANSITIONAL: the route shape before zod schemas; `defineRoutes` converts such a table into
// the current one (route.ts). Removed once every table is converted.
import { z } from 'zod';
import { ValidationError } from '../src/app/errors.ts';
import type { RestRoute as Route } from './route.ts';

type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RestRequest {
  params: Record<string, string>;
  query: URLSearchParams;
  body: unknown;
}

export interface RestResult {
  data: unknown;
  meta?: Record<string, unknown>;
}

interface RestRoute {
  method: HttpMethod;
  /** OpenAPI-style template: /v1/team-roles/{teamRoleSimplyId} */
  path: string;
  summary: string;
  /** a named GraphQL operation, validated against the schema at start-up */
  operation: string;
  /** whether the route takes a JSON body ('optional': an empty body is fine) */
  body?: 'required' | 'optional' | 'none';
  variables?: (req: RestRequest) => Record<string, unknown>;
  /** maps the operation's data (its single top-level field) to the envelope; default: `{ data: field }` */
  respond?: (field: any, req: RestRequest) => RestResult;
  /** success status; default 200 */
  status?: number;
}

export function defineRoutes(routes: readonly RestRoute[]): readonly Route[] {
  return routes.map((r) => ({
    method: r.method,
    path: r.path,
    summary: r.summary,
    operation: r.operation,
    body: r.body === 'required' ? z.unknown().refine((v) => v !== undefined) : r.body === 'optional' ? z.unknown() : undefined,
    variables: r.variables as never,
    respond: r.respond ? { map: r.respond as never, schema: (field) => ({ data: field }) } : undefined,
    status: r.status,
  }));
}

/** Query parameter as an integer, or undefined when absent. Not an integer: 400. */
export function intParam(req: RestRequest, name: string): number | undefined {
  const raw = req.query.get(name);
  if (raw === null || raw === '') return undefined;
  if (!/^-?\d+$/.test(raw)) throw new ValidationError(`${name} must be an integer`, [{ field: name, message: 'must be an integer' }]);
  return Number(raw);
}

export function pageVariables(req: RestRequest): { limit?: number; offset?: number } {
  return { limit: intParam(req, 'limit'), offset: intParam(req, 'offset') };
}

/** `{ nodes, pagination }` → data: nodes, meta.pagination */
export function respondPage(page: { nodes: unknown[]; pagination: unknown }): RestResult {
  return { data: page.nodes, meta: { pagination: page.pagination } };
}

/** The JSON body as an object (routes that need fields from it). */
export function bodyObject(req: RestRequest): Record<string, unknown> {
  const body = req.body ?? {};
  if (typeof body !== 'object' || Array.isArray(body)) {
    throw new ValidationError('The request body must be a JSON object');
  }
  return body as Record<string, unknown>;
}

/** Comma list query parameter (`expand=teams,rolePermissions`), unknown values ignored by the caller. */
export function listParam(req: RestRequest, name: string): Set<string> {
  return new Set((req.query.get(name) ?? '').split(',').map((s) => s.trim()).filter(Boolean));
}
