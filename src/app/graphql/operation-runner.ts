// Runs operations of the platform's own GraphQL schema in-process with a caller's request context,
// for a face of the API other than GraphQL and REST (the MCP tools): the same tiers, scopes, data
// permissions and team scoping, and never a statement built from the caller's input. Each
// operation text is compiled once.
import { parse, type GraphQLSchema } from 'graphql';
import type { RequestContext } from '../context.ts';
import { toPublicError } from '../error-mapping.ts';
import { compileOperation, type CompiledOperation } from './compiled-execution.ts';

/** A refusal or failure of the operation, as the API would answer it (code, status, message). */
export class OperationRefused extends Error {
  readonly code: string;
  readonly status: number;
  constructor(code: string, status: number, message: string) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

export type RunOperation = (text: string, variables: Record<string, unknown>, context: RequestContext) => Promise<unknown>;

/** Runs an operation selecting one top-level field; answers that field's value or throws OperationRefused. */
export function operationRunner(schema: GraphQLSchema): RunOperation {
  const compiled = new Map<string, CompiledOperation>();
  return async (text, variables, context) => {
    let operation = compiled.get(text);
    if (!operation) {
      const made = compileOperation(schema, parse(text, { noLocation: true }));
      if (typeof made !== 'function') throw new Error(`operation does not compile: ${made.map((e) => e.message).join('; ')}`);
      compiled.set(text, made);
      operation = made;
    }
    const result = await operation(null, context, variables);
    const error = result.errors?.[0];
    if (error) {
      const publicError = toPublicError(error.originalError ?? error);
      if (publicError.unexpected) context.logger.error({ err: error.originalError ?? error, requestId: context.requestId }, 'in-process operation failed');
      throw new OperationRefused(publicError.code, publicError.status, publicError.message);
    }
    return Object.values(result.data ?? {})[0];
  };
}
