// The shapes most routes share, so a table states what differs (path, operation name, field,
// selection, input) instead of repeating the GraphQL text and the plumbing. The resource id is the
// path's last `{param}`, passed to the field as the argument of the same name; a `{param}` before it
// (a parent: the collection of a field) is passed the same way; the operation name is the route's
// operationId. Anything else is a plain `route({...})`.
import type { z } from 'zod';
import { operation, PAGINATION, type Part } from '../src/app/graphql/fragments.ts';
import { respond, route, type Responder, type RestRoute } from './route.ts';
import { pageQuery } from './schemas.ts';

interface Shape {
  path: string;
  /** a few words (the reference's operation name) */
  summary: string;
  /** the details */
  description?: string;
  /** the GraphQL operation name (and OpenAPI operationId) */
  name: string;
  /** the top-level field the operation selects; default: the name with a lower-case first letter */
  field?: string;
  /** the field's argument for the path's id; default: the path parameter's name */
  arg?: string;
}

function fieldOf(s: Shape): string {
  return s.field ?? s.name[0]!.toLowerCase() + s.name.slice(1);
}

/** Extra field arguments read from the query string: name → GraphQL type (`String`, `Boolean`…) and its schema. */
type Filters = Record<string, { type: string; schema: z.ZodType }>;

/** The path's ids: declared as `$id` (the last) and `$<param>` (its parents), passed as arguments, and their values. */
function pathIds(s: Shape) {
  const names = [...s.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  const id = names.at(-1);
  const parents = names.slice(0, -1);
  return {
    id,
    vars: [...parents.map((p) => [p, 'String!']), ...(id ? [['id', 'String!']] : [])] as [string, string][],
    pass: [...parents.map((p) => `${p}: $${p}`), ...(id ? [`${s.arg ?? id}: $id`] : [])],
    values: (params: Record<string, string>) => ({ ...Object.fromEntries(parents.map((p) => [p, params[p]])), ...(id ? { id: params[id] } : {}) }),
  };
}

/** `$a: T, $b: U` and `a: $a, b: $b` for the given arguments. */
function args(list: [string, string][]): { declare: string; pass: string } {
  return { declare: list.map(([n, t]) => `$${n}: ${t}`).join(', '), pass: list.map(([n]) => `${n}: $${n}`).join(', ') };
}

/** Builds `<kind> <name>(<vars>) { <field>(<args>)<selection> }` with fragments appended. */
function document(kind: 'query' | 'mutation', s: Shape, vars: [string, string][], fieldArgs: string, select?: Part): string {
  const declared = vars.length ? `(${args(vars).declare})` : '';
  const head = `${kind} ${s.name}${declared} { ${fieldOf(s)}${fieldArgs ? `(${fieldArgs})` : ''}`;
  return select === undefined ? operation([`${head} }`]) : operation([`${head} { `, ' } }'], select);
}

/** GET one resource by the path's id. */
export function getOne(s: Shape & { select: Part }): RestRoute {
  const ids = pathIds(s);
  return route({
    method: 'GET',
    path: s.path,
    summary: s.summary,
    description: s.description,
    operation: document('query', s, ids.vars, ids.pass.join(', '), s.select),
    variables: ({ params }) => ids.values(params),
  });
}

/**
 * GET a `{ nodes, pagination }` page (limit, offset, and the filters), of a resource under the path's
 * id if the path has one: data is the nodes, meta.pagination the paging.
 */
export function listPage(s: Shape & { select: Part; filters?: Filters }): RestRoute {
  const ids = pathIds(s);
  const filters = Object.entries(s.filters ?? {});
  const paging: [string, string][] = [['limit', 'Int'], ['offset', 'Int'], ...filters.map(([n, f]) => [n, f.type] as [string, string])];
  const list = [...ids.vars, ...paging];
  const passed = [...ids.pass, args(paging).pass].join(', ');
  const query = pageQuery.extend(Object.fromEntries(filters.map(([n, f]) => [n, f.schema])));
  return route({
    method: 'GET',
    path: s.path,
    summary: s.summary,
    description: s.description,
    operation: operation([`query ${s.name}(${args(list).declare}) { ${fieldOf(s)}(${passed}) { nodes { `, ` } pagination { `, ' } } }'], s.select, PAGINATION),
    query,
    variables: ({ params, query: q }) => ({ ...ids.values(params), ...(q as object) }),
    respond: respond.page,
  });
}

/** POST a new resource: the body is the field's `input`; 201. */
export function createOne(s: Shape & { inputType: string; body: z.ZodType; example?: unknown; select: Part; respond?: Responder }): RestRoute {
  return route({
    method: 'POST',
    path: s.path,
    summary: s.summary,
    description: s.description,
    operation: document('mutation', s, [['input', `${s.inputType}!`]], 'input: $input', s.select),
    body: s.body,
    example: s.example,
    variables: ({ body }) => ({ input: body }),
    respond: s.respond,
    status: 201,
  });
}

/**
 * PUT or PATCH the resource of the path's id, or POST to it (an action with input; a child created
 * under it, with `status: 201`): the body is the field's `input`.
 */
export function updateOne(s: Shape & { method: 'PUT' | 'PATCH' | 'POST'; inputType: string; body: z.ZodType; example?: unknown; select: Part; respond?: Responder; status?: number }): RestRoute {
  const ids = pathIds(s);
  return route({
    method: s.method,
    path: s.path,
    summary: s.summary,
    description: s.description,
    operation: document('mutation', s, [...ids.vars, ['input', `${s.inputType}!`]], [...ids.pass, 'input: $input'].join(', '), s.select),
    body: s.body,
    example: s.example,
    variables: ({ params, body }) => ({ ...ids.values(params), input: body }),
    respond: s.respond,
    status: s.status,
  });
}

/**
 * A mutation of the path's id that takes nothing else (delete, revoke, archive, …); without a
 * selection its field answers a boolean and the response is `{ id, deleted: true }` unless `respond` says otherwise.
 */
export function actOn(s: Shape & { method: 'POST' | 'DELETE'; select?: Part; respond?: Responder; status?: number; body?: z.ZodType }): RestRoute {
  const ids = pathIds(s);
  return route({
    method: s.method,
    path: s.path,
    summary: s.summary,
    description: s.description,
    operation: document('mutation', s, ids.vars, ids.pass.join(', '), s.select),
    // a body, where the route accepts one, is not an input of the operation
    body: s.body,
    variables: ({ params }) => ids.values(params),
    respond: s.respond ?? (s.select === undefined ? respond.deleted(ids.id!) : undefined),
    status: s.status,
  });
}
