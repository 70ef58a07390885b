// A route's request in OpenAPI terms, from the same zod schemas the engine validates with: path
// parameters from the template (typed by `params` when the route has one), one query parameter per
// property of `query`, and the JSON body (with the route's example, when it has one). The input
// side of each schema is described (what a caller sends: query numbers are strings), and what JSON
// Schema cannot say becomes "any".
import { z } from 'zod';
import type { JsonSchema, RestRoute } from './route.ts';

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  description?: string;
  schema: JsonSchema;
}

/** Named schemas hoisted out of zod's `$defs` (a `$ref` inside an OpenAPI document resolves against the document). */
export type SharedSchemas = Record<string, JsonSchema>;

export function inputSchema(schema: z.ZodType, owner: string, shared: SharedSchemas): JsonSchema {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  delete json.$schema;
  const defs = json.$defs as Record<string, JsonSchema> | undefined;
  if (!defs) return json;
  delete json.$defs;
  const names = new Map(Object.keys(defs).map((name) => [`#/$defs/${name}`, `#/components/schemas/${owner}_${name}`]));
  const rewrite = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rewrite);
    if (!value || typeof value !== 'object') return value;
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' ? (names.get(v) ?? v) : rewrite(v)]));
  };
  for (const [name, def] of Object.entries(defs)) shared[`${owner}_${name}`] = rewrite(def) as JsonSchema;
  return rewrite(json) as JsonSchema;
}

export function requestParameters(route: RestRoute, owner: string, shared: SharedSchemas): Parameter[] {
  const pathSchema = route.params ? inputSchema(route.params, owner, shared) : {};
  const pathProperties = (pathSchema.properties ?? {}) as Record<string, JsonSchema>;
  const path = [...route.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => parameter(name!, 'path', true, pathProperties[name!] ?? { type: 'string' }));
  if (!route.query) return path;
  const querySchema = inputSchema(route.query, owner, shared);
  const required = new Set((querySchema.required ?? []) as string[]);
  const query = Object.entries((querySchema.properties ?? {}) as Record<string, JsonSchema>).map(([name, schema]) =>
    parameter(name, 'query', required.has(name), schema),
  );
  return [...path, ...query];
}

export function requestBody(route: RestRoute, owner: string, shared: SharedSchemas): Record<string, unknown> | undefined {
  if (!route.body) return undefined;
  return {
    required: !route.body.safeParse(undefined).success,
    content: {
      [route.rawBody?.mediaTypes[0] ?? 'application/json']: { schema: inputSchema(route.body, owner, shared), ...(route.example === undefined ? {} : { example: route.example }) },
    },
  };
}

function parameter(name: string, where: Parameter['in'], required: boolean, schema: JsonSchema): Parameter {
  const { description, ...rest } = schema;
  const result: Parameter = { name, in: where, required, schema: rest };
  if (typeof description === 'string') result.description = description;
  return result;
}
