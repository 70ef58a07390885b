// Runs a route's GraphQL operation in-process with the caller's context. Documents are parsed,
// validated and their fragments inlined at start-up, so a route whose operation does not fit the
// schema fails fast; each is compiled (graphql-jit) on its first call, so a request pays for
// resolvers only, not for walking the document, collecting fields and coercing variables through
// graphql-js's interpreter. Compiling lazily keeps the generated code of routes an instance never
// serves out of its memory (a few MiB for the whole table).
// `authorize` runs the top-level field's auth scopes on their own, so that the REST handler can
// refuse a caller lacking the tier before it looks at the request's input.
import { RequestCache, type AuthFailure } from '@pothos/plugin-scope-auth';
import { parse, validate, type DocumentNode, type ExecutionResult, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import { pickAuthError } from '../src/app/auth/auth-scopes.ts';
import { builder } from '../src/app/builder.ts';
import type { RequestContext } from '../src/app/context.ts';
import { compileOperation, type CompiledOperation } from '../src/app/graphql/compiled-execution.ts';
import { traceOperation } from '../src/app/telemetry/tracing.ts';
import { inlineFragments } from './inline-fragments.ts';
import type { RestRoute } from './route.ts';

export interface PreparedOperation {
  document: DocumentNode;
  /** compiled on first use (compile) */
  compiled?: CompiledOperation;
  operationName: string;
  /** the single top-level field the route reads its result from */
  field: string;
  /** that field's auth scopes (its Pothos `authScopes`), when they do not depend on the field's arguments */
  authScopes?: object;
}

// Prepared once per schema and route, not per instance: an operation's document, and its compiled
// form, depend on nothing else. Preparing the whole table is half of an instance's start-up, paid
// again by every instance a process starts (the test suite starts hundreds).
const preparedBySchema = new WeakMap<GraphQLSchema, Map<RestRoute, PreparedOperation>>();

export class OperationExecutor {
  private readonly prepared: Map<RestRoute, PreparedOperation>;
  private readonly schema: GraphQLSchema;

  constructor(schema: GraphQLSchema, routes: readonly RestRoute[]) {
    this.schema = schema;
    let prepared = preparedBySchema.get(schema);
    if (!prepared) preparedBySchema.set(schema, (prepared = new Map()));
    for (const route of routes) if (!prepared.has(route)) prepared.set(route, prepare(schema, route));
    this.prepared = prepared;
  }

  async run(route: RestRoute, variables: Record<string, unknown>, context: RequestContext): Promise<{ result: ExecutionResult; field: string }> {
    const op = this.prepared.get(route)!;
    op.compiled ??= compile(this.schema, op);
    // a variable given as undefined would reach the resolver as null (graphql-js coerces it so);
    // a route leaving an optional input out means absent, which an argument may tell from null
    const given: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(variables)) if (value !== undefined) given[name] = value;
    const result = await traceOperation(context.services, op.document, op.compiled, context, given);
    return { result, field: op.field };
  }

  /**
   * Throws the error the operation would answer for the caller's credential (401, 403) when its
   * top-level field's auth scopes refuse it; returns when they grant it. The scopes are evaluated
   * by the scope-auth plugin with the request's context, so the operation, run later with the same
   * context, reaches the same answer.
   */
  async authorize(route: RestRoute, context: RequestContext): Promise<void> {
    const scopes = this.prepared.get(route)!.authScopes;
    if (!scopes) return;
    const failure = (await RequestCache.fromContext(context, builder).evaluateScopeMap(scopes as never, undefined as never)) as AuthFailure | null;
    if (failure) throw pickAuthError(failure);
  }
}

export function prepare(schema: GraphQLSchema, route: RestRoute): PreparedOperation {
  const fail = (why: string) => new Error(`REST route ${route.method} ${route.path}: ${why}`);
  // no locations: nothing reports them for an in-process operation, and they keep every token alive
  const parsed = parse(route.operation, { noLocation: true });
  const errors = validate(schema, parsed);
  if (errors.length > 0) throw fail(errors.map((e) => e.message).join('; '));
  const operation = parsed.definitions.find((d): d is OperationDefinitionNode => d.kind === 'OperationDefinition');
  const selection = operation?.selectionSet.selections[0];
  if (!operation?.name || !selection || selection.kind !== 'Field' || operation.selectionSet.selections.length !== 1) {
    throw fail('the operation must be named and select exactly one field');
  }
  const document = inlineFragments(schema, parsed);
  const root = operation.operation === 'mutation' ? schema.getMutationType() : operation.operation === 'subscription' ? schema.getSubscriptionType() : schema.getQueryType();
  const authScopes = (root?.getFields()[selection.name.value]?.extensions as { pothosOptions?: { authScopes?: unknown } } | undefined)?.pothosOptions?.authScopes;
  // scopes given as a function read the field's arguments: those are checked when the operation runs
  return {
    document,
    operationName: operation.name.value,
    field: selection.alias?.value ?? selection.name.value,
    ...(authScopes && typeof authScopes === 'object' ? { authScopes } : {}),
  };
}

/** The operation's compiled form; throws when it cannot be compiled (the route table's test compiles every route). */
export function compile(schema: GraphQLSchema, op: PreparedOperation): CompiledOperation {
  const compiled = compileOperation(schema, op.document, op.operationName);
  if (typeof compiled !== 'function') throw new Error(`REST operation ${op.operationName} does not compile: ${compiled.map((e) => e.message).join('; ')}`);
  return compiled;
}
