// Compiled execution (graphql-jit) for the REST executor and Yoga. A document is compiled once;
// requests then run generated code instead of graphql-js's interpreter walking the document,
// collecting fields and coercing variables each time.
// graphql-jit words variable errors its own way ("Field value.name of required type …"); those are
// what clients read in `message`, so when it refuses the variables, graphql-js coerces them again
// and its errors are the ones returned: both faces keep graphql-js's wording (and the 400 status
// Yoga's own executor gives them).
// Built-in scalars and enums are written as the resolvers return them (disableLeafSerialization):
// for each such value graphql-jit otherwise calls a serializer through a helper whose arguments
// (the value's path and locations, for an error that never comes) are built first, two arrays per
// value, a tenth of what a page of records allocated. The values are already of their type: every
// resolver is typed by the schema builder, and raw SQL counts are read with Number().
import {
  getOperationAST,
  getVariableValues,
  GraphQLError,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  type GraphQLSchema,
} from 'graphql';
import { compileQuery, isCompiledQuery } from 'graphql-jit';
import type { Plugin } from 'graphql-yoga';

export type CompiledOperation = (root: unknown, context: unknown, variables: Record<string, unknown> | null | undefined) => Promise<ExecutionResult>;

/** Compiles `document`'s operation; the GraphQL errors when it cannot be compiled. */
export function compileOperation(schema: GraphQLSchema, document: DocumentNode, operationName?: string | null): CompiledOperation | readonly GraphQLError[] {
  const compiled = compileQuery(schema, document, operationName ?? undefined, { disablingCapturingStackErrors: true, disableLeafSerialization: true });
  if (!isCompiledQuery(compiled)) return compiled.errors ?? [new GraphQLError('The operation cannot be compiled')];
  const operation = getOperationAST(document, operationName);
  return async (root, context, variables) => {
    const result = await compiled.query(root, context, variables);
    if (result.data === undefined && result.errors?.length && operation) {
      const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables ?? {}, { maxErrors: 50 });
      // a request error, as Yoga's own executor marks it: the HTTP answer is 400
      if (coerced.errors) return { errors: coerced.errors.map(asRequestError) };
    }
    return result;
  };
}

function asRequestError(error: GraphQLError): GraphQLError {
  return new GraphQLError(error.message, {
    nodes: error.nodes,
    originalError: error.originalError,
    extensions: { ...error.extensions, http: { status: 400 } },
  });
}

/**
 * Yoga: queries and mutations run compiled, each document compiled on first use (Yoga's parser
 * cache hands out the same DocumentNode for the same text, so the compiled form lives as long as
 * that). Subscriptions keep graphql-js's executor: they run once per socket, not per event.
 */
export function useCompiledExecution(): Plugin {
  const compiledByDocument = new WeakMap<DocumentNode, CompiledOperation | readonly GraphQLError[]>();
  const executeCompiled = async (args: ExecutionArgs): Promise<ExecutionResult> => {
    let compiled = compiledByDocument.get(args.document);
    if (!compiled) compiledByDocument.set(args.document, (compiled = compileOperation(args.schema, args.document, args.operationName)));
    if (typeof compiled !== 'function') return { errors: compiled };
    return compiled(args.rootValue, args.contextValue, args.variableValues);
  };
  return {
    onExecute({ args, setExecuteFn }) {
      if (getOperationAST(args.document, args.operationName)?.operation !== 'subscription') setExecuteFn(executeCompiled as never);
    },
  };
}
