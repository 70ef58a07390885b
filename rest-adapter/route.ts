// A REST route is data: its path, the zod schemas of its path, query and body (validated by the
// engine before anything runs), the GraphQL operation that serves it, how the validated input
// becomes variables, and how the operation's result becomes `{ data, meta }`. No business logic.
import type { z } from 'zod';
import type { AppModule } from '../src/app/module.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type JsonSchema = Record<string, unknown>;

/** What `variables` and `respond` see: the validated path, query and body. */
export interface RouteInput<P = Record<string, string>, Q = Record<string, unknown>, B = unknown> {
  params: P;
  query: Q;
  body: B;
  /** the request's headers, for the few routes whose documented credential is not Authorization (a booking link's public token) */
  headers?: Readonly<Record<string, string | string[] | undefined>>;
}

export interface RestResult {
  data: unknown;
  meta?: Record<string, unknown>;
  /** a status that depends on the result (e.g. 202 while work goes on); default: the route's */
  status?: number;
  /** a body that is not the JSON envelope (an image, a CSV file): sent as it is, with its type */
  raw?: RawBody;
}

/** What a route answers instead of the envelope: an image or a download. */
export interface RawBody {
  contentType: string;
  body: Buffer | string;
  headers?: Record<string, string>;
}

/**
 * Turns the operation's single top-level field into the envelope, and says what that does to the
 * field's JSON Schema (derived from the GraphQL selection) so OpenAPI describes the real response.
 */
export interface Responder<T = any, I extends RouteInput<any, any, any> = RouteInput<any, any, any>> {
  map(value: T, input: I): RestResult;
  schema(field: JsonSchema): { data: JsonSchema; meta?: JsonSchema };
}

export interface RestRoute<P = any, Q = any, B = any> {
  method: HttpMethod;
  /** OpenAPI-style template: /v1/team-roles/{teamRoleSimplyId} */
  path: string;
  /** the operation's name in the reference (its sidebar): a few words, at most 40 characters, no trailing period or colon */
  summary: string;
  /** the details: what the route answers, who may call it, its parameters and refusals */
  description?: string;
  /** a named GraphQL operation selecting one top-level field, validated against the schema at start-up */
  operation: string;
  /** path parameters (strings); default: every `{name}` of the path as a string */
  params?: z.ZodType<P>;
  /** query parameters: an object schema over the query string (first value of each name) */
  query?: z.ZodType<Q>;
  /** the JSON body; a route without one refuses a body. A schema that accepts undefined makes the body optional */
  body?: z.ZodType<B>;
  /**
   * the body is not JSON but a file of one of these media types (a CSV upload), handed to `body`
   * as text; more than `maxBytes` is a 400 naming the body
   */
  rawBody?: { mediaTypes: readonly string[]; maxBytes: number };
  /** a realistic request body for the reference (OpenAPI `example`); a test runs it through `body` */
  example?: unknown;
  variables?: (input: RouteInput<P, Q, B>) => Record<string, unknown>;
  /** default: `{ data: field }` */
  respond?: Responder<any, RouteInput<P, Q, B>>;
  /** success status; default 200 */
  status?: number;
  /** a compatibility alias kept for old clients: every answer (errors too) announces its successor */
  deprecation?: Deprecation;
  /** a served route the documents do not list: why it exists (set by `defineRoutes`) */
  extension?: RouteExtension;
}

/**
 * Why a route the documents do not list is served. The route checklist fails on a served route
 * that is neither documented nor explained, and OpenAPI marks these operations (`x-extension`).
 */
export interface RouteExtension {
  reason: string;
  /** callable without a credential */
  public?: boolean;
}

export interface Deprecation {
  /** the successor's path template; the route's `{params}` are filled in (`Link: <…>; rel="successor-version"`) */
  successor: string;
  /** when the route stops answering (`Sunset`, an HTTP date); none: no date is set yet */
  sunset?: Date;
}

/** The headers a deprecated route sends: `Deprecation: true`, the successor `Link`, and `Sunset` when dated. */
export function deprecationHeaders(deprecation: Deprecation, params: Record<string, string>): Record<string, string> {
  const successor = deprecation.successor.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(params[name] ?? ''));
  return {
    Deprecation: 'true',
    Link: `<${successor}>; rel="successor-version"`,
    ...(deprecation.sunset ? { Sunset: deprecation.sunset.toUTCString() } : {}),
  };
}

/** Keeps each route's own input types while collecting them in one table. */
export function route<P = Record<string, string>, Q = Record<string, unknown>, B = unknown>(r: RestRoute<P, Q, B>): RestRoute<P, Q, B> {
  return r;
}

export function defineRoutes(routes: readonly RestRoute[], extensions: Readonly<Record<string, RouteExtension>> = {}): readonly RestRoute[] {
  const keys = new Set(routes.map((r) => `${r.method} ${r.path}`));
  const unknown = Object.keys(extensions).filter((key) => !keys.has(key));
  if (unknown.length > 0) throw new Error(`route extensions name no route of this table: ${unknown.join(', ')}`);
  return routes.map((r) => {
    const extension = extensions[`${r.method} ${r.path}`];
    return extension ? { ...r, extension } : r;
  });
}

const PAGINATION_SCHEMA: JsonSchema = {
  type: 'object',
  properties: { total: { type: 'integer' }, limit: { type: 'integer' }, offset: { type: 'integer' }, hasMore: { type: 'boolean' } },
  required: ['total', 'limit', 'offset', 'hasMore'],
};

function property(schema: JsonSchema, name: string): JsonSchema {
  return ((schema.properties as Record<string, JsonSchema> | undefined)?.[name] ?? {}) as JsonSchema;
}

export const respond = {
  /** data: the field as it is */
  field: { map: (value) => ({ data: value }), schema: (field) => ({ data: field }) } as Responder,
  /** `{ nodes, pagination }` → data: nodes, meta.pagination */
  page: {
    map: (page: { nodes: unknown[]; pagination: unknown }) => ({ data: page.nodes, meta: { pagination: page.pagination } }),
    schema: (field) => ({
      data: property(field, 'nodes'),
      meta: { type: 'object', properties: { pagination: PAGINATION_SCHEMA }, required: ['pagination'] },
    }),
  } as Responder,
  /** routes whose operation answers a boolean (delete, revoke): data `{ id: <path param>, <flag>: true }` */
  deleted: (param: string, flag = 'deleted'): Responder => ({
    map: (_value, input) => ({ data: { id: (input.params as Record<string, string>)[param], [flag]: true } }),
    schema: () => ({
      data: { type: 'object', properties: { id: { type: 'string' }, [flag]: { type: 'boolean', const: true } }, required: ['id', flag] },
    }),
  }),
  /** the field without its `warnings` as data; meta.warnings when there are any */
  warningsToMeta: {
    map: ({ warnings, ...data }: { warnings: string[] }) => ({ data, ...(warnings.length ? { meta: { warnings } } : {}) }),
    schema: (field) => {
      const { warnings, ...properties } = (field.properties ?? {}) as Record<string, JsonSchema>;
      const required = Array.isArray(field.required) ? (field.required as string[]).filter((r) => r !== 'warnings') : undefined;
      return {
        data: { ...field, properties, ...(required ? { required } : {}) },
        meta: { type: 'object', properties: { warnings: warnings ?? { type: 'array', items: { type: 'string' } } } },
      };
    },
  } as Responder,
  /** one property of the field as data (`{ record, warnings }` → record), the rest described by `meta` */
  custom: <T, I extends RouteInput<any, any, any> = RouteInput<any, any, any>>(
    map: (value: T, input: I) => RestResult,
    schema: (field: JsonSchema) => { data: JsonSchema; meta?: JsonSchema },
  ): Responder<T, I> => ({ map, schema }),
  property,
};

/** A module and its REST table: one entry of the module list (src/main/modules.ts). */
export interface RegisteredModule extends AppModule {
  routes: readonly RestRoute[];
}
