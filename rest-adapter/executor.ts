// Runs a route's GraphQL operation in-process with the caller's context. Documents are parsed,
// validated and their fragments inlined once, at start-up: a route whose operation does not fit
// the schema fails fast.
import { execute, parse, validate, type DocumentNode, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import type { RequestContext } from '../src/app/context.ts';
import { inlineFragments } from './inline-fragments.ts';
import type { RestRoute } from './route.ts';

export interface PreparedOperation {
  document: DocumentNode;
  /** the single top-level field the route reads its result from */
  field: string;
}

export class OperationExecutor {
  private readonly prepared = new Map<RestRoute, PreparedOperation>();
  private readonly schema: GraphQLSchema;

  constructor(schema: GraphQLSchema, routes: readonly RestRoute[]) {
    this.schema = schema;
    for (const route of routes) this.prepared.set(route, prepare(schema, route));
  }

  async run(route: RestRoute, variables: Record<string, unknown>, context: RequestContext) {
    const op = this.prepared.get(route)!;
    const result = await execute({ schema: this.schema, document: op.document, variableValues: variables, contextValue: context });
    return { result, field: op.field };
  }
}

export function prepare(schema: GraphQLSchema, route: RestRoute): PreparedOperation {
  const document = parse(route.operation);
  const errors = validate(schema, document);
  if (errors.length > 0) {
    throw new Error(`REST route ${route.method} ${route.path}: ${errors.map((e) => e.message).join('; ')}`);
  }
  const operation = document.definitions.find((d): d is OperationDefinitionNode => d.kind === 'OperationDefinition');
  const selection = operation?.selectionSet.selections[0];
  if (!operation?.name || !selection || selection.kind !== 'Field' || operation.selectionSet.selections.length !== 1) {
    throw new Error(`REST route ${route.method} ${route.path}: the operation must be named and select exactly one field`);
  }
  return { document: inlineFragments(schema, document), field: selection.alias?.value ?? selection.name.value };
}
