// The one place that decides what a failure looks like to a caller: documented errors keep
// their code and status; GraphQL's own request errors (parse, validation, variable coercion)
// are the caller's fault (400 VALIDATION_ERROR); anything else is logged and masked.
import { GraphQLError } from 'graphql';
import { ApiError, type ErrorDetail } from './errors.ts';

export interface PublicError {
  status: number;
  code: string;
  message: string;
  details?: ErrorDetail[];
  headers?: Record<string, string>;
  /** true when the error was unexpected and must be logged */
  unexpected: boolean;
}

export function toPublicError(error: unknown): PublicError {
  const original = error instanceof GraphQLError && error.originalError ? error.originalError : error;
  if (original instanceof ApiError) {
    return { status: original.status, code: original.code, message: original.message, details: original.details, headers: original.headers, unexpected: false };
  }
  if (error instanceof GraphQLError && !error.originalError) {
    return { status: 400, code: 'VALIDATION_ERROR', message: error.message, unexpected: false };
  }
  if (error instanceof GraphQLError && error.originalError instanceof GraphQLError && !error.originalError.originalError) {
    // a scalar's parse error surfaced through a resolver path
    return { status: 400, code: 'VALIDATION_ERROR', message: error.originalError.message, unexpected: false };
  }
  return { status: 500, code: 'INTERNAL_ERROR', message: 'Unexpected failure', unexpected: true };
}

/**
 * The GraphQL face of a failure: documented errors carry `code`, `status` and `details` in
 * `extensions` (the same fields the REST envelope has); anything unexpected becomes INTERNAL_ERROR.
 * `null` means the error is unexpected and the caller logs and masks it.
 */
export function toGraphQLError(error: GraphQLError): GraphQLError | null {
  const publicError = toPublicError(error);
  if (publicError.unexpected) return null;
  if (error.extensions?.code) return error;
  const extensions: Record<string, unknown> = { ...error.extensions, code: publicError.code, status: publicError.status };
  if (publicError.details) extensions.details = publicError.details;
  return new GraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    originalError: error.originalError,
    extensions,
  });
}
