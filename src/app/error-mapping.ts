// The one place that decides what a failure looks like to a caller: documented errors keep
// their code and status; GraphQL's own request errors (parse, validation, variable coercion)
// are the caller's fault (400 VALIDATION_ERROR); the database being unreachable is a 503 the
// caller may retry (SERVICE_UNAVAILABLE, Retry-After); anything else is logged and masked.
import { GraphQLError } from 'graphql';
import { isDatabaseUnavailable } from '../db/connection-errors.ts';
import { translatePrismaError } from './transaction.ts';
import { ApiError, ServiceUnavailableError, type ErrorDetail } from './errors.ts';

export interface PublicError {
  status: number;
  code: string;
  message: string;
  details?: ErrorDetail[];
  headers?: Record<string, string>;
  /** true when the error was unexpected and must be logged */
  unexpected: boolean;
}

function fromApiError(error: ApiError): PublicError {
  return { status: error.status, code: error.code, message: error.message, details: error.details, headers: error.headers, unexpected: false };
}

/** GraphQL's own messages quote the offending value in full: a 10 KB value is not echoed back whole */
const MESSAGE_LIMIT = 500;
function clipped(message: string): string {
  return message.length <= MESSAGE_LIMIT ? message : `${message.slice(0, MESSAGE_LIMIT)}… (${message.length - MESSAGE_LIMIT} more characters)`;
}

export function toPublicError(error: unknown): PublicError {
  // Prisma writes outside runTransaction (a single update or delete) get the same translation
  const original = translatePrismaError(error instanceof GraphQLError && error.originalError ? error.originalError : error);
  if (original instanceof ApiError) return fromApiError(original);
  if (isDatabaseUnavailable(original)) return fromApiError(new ServiceUnavailableError());
  if (error instanceof GraphQLError && !error.originalError) {
    return { status: 400, code: 'VALIDATION_ERROR', message: clipped(error.message), unexpected: false };
  }
  if (error instanceof GraphQLError && error.originalError instanceof GraphQLError && !error.originalError.originalError) {
    // a scalar's parse error surfaced through a resolver path
    return { status: 400, code: 'VALIDATION_ERROR', message: clipped(error.originalError.message), unexpected: false };
  }
  return { status: 500, code: 'INTERNAL_ERROR', message: 'Unexpected failure', unexpected: true };
}

/**
 * Failures that GraphQL over HTTP also shows in the response itself, not only in `errors[]`: a 503
 * is the status of the whole response and carries Retry-After (graphql-yoga applies
 * `extensions.http` to the response and leaves it out of the body). Other codes keep 200.
 */
function httpFacts(code: unknown): { status: number; headers: Record<string, string> } | null {
  if (code !== 'SERVICE_UNAVAILABLE') return null;
  const { status, headers } = new ServiceUnavailableError();
  return { status, headers: headers! };
}

/**
 * The GraphQL face of a failure: documented errors carry `code`, `status` and `details` in
 * `extensions` (the same fields the REST envelope has); anything unexpected becomes INTERNAL_ERROR.
 * `null` means the error is unexpected and the caller logs and masks it.
 */
export function toGraphQLError(error: GraphQLError): GraphQLError | null {
  const publicError = toPublicError(error);
  if (publicError.unexpected) return null;
  if (error.extensions?.code) {
    // e.g. a failure found while building the context, already given its code and status there
    const http = httpFacts(error.extensions.code);
    if (!http) return error;
    const given = error.extensions.http as { status?: number; headers?: Record<string, string> } | undefined;
    return withExtensions(error, { ...error.extensions, http: { ...http, ...given, headers: { ...http.headers, ...given?.headers } } });
  }
  const extensions: Record<string, unknown> = { ...error.extensions, code: publicError.code, status: publicError.status };
  if (publicError.details) extensions.details = publicError.details;
  const http = httpFacts(publicError.code);
  if (!http) return withExtensions(error, extensions, clipped(error.message));
  // the driver's message may name hosts and ports: the caller gets the documented one
  return withExtensions(error, { ...extensions, http }, publicError.message);
}

function withExtensions(error: GraphQLError, extensions: Record<string, unknown>, message = error.message): GraphQLError {
  return new GraphQLError(message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    originalError: error.originalError,
    extensions,
  });
}
