// Typed errors carrying the documented error codes. They know nothing of GraphQL or HTTP
// framing: each edge (REST envelope, GraphQL `extensions`, graphql-ws) maps them once, in
// error-mapping.ts. Anything that is not an ApiError is masked as INTERNAL_ERROR.

export interface ErrorDetail {
  field?: string;
  message: string;
  [key: string]: unknown;
}

export class ApiError extends Error {
  readonly code: string;
  readonly status: number;
  readonly details: ErrorDetail[] | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(
    status: number,
    code: string,
    message: string,
    options: { details?: ErrorDetail[]; headers?: Record<string, string> } = {},
  ) {
    // A refusal (4xx) is an answer, not a fault: its call stack is never shown or logged, and
    // capturing and formatting one costs more than the rest of a refused request's error path.
    const limit = Error.stackTraceLimit;
    if (status < 500) Error.stackTraceLimit = 0;
    try {
      super(message);
    } finally {
      Error.stackTraceLimit = limit;
    }
    this.name = 'ApiError';
    this.code = code;
    this.status = status;
    this.details = options.details;
    this.headers = options.headers;
  }
}

export class ValidationError extends ApiError {
  constructor(message: string, details?: ErrorDetail[]) {
    super(400, 'VALIDATION_ERROR', message, { details });
  }
}

export class InvalidOauthScopesError extends ApiError {
  constructor(unknown: string[]) {
    super(400, 'INVALID_OAUTH_SCOPES', `Unknown OAuth scope(s): ${unknown.join(', ')}`, {
      details: unknown.map((scope) => ({ field: 'oauthScopes', message: `unknown scope ${scope}` })),
    });
  }
}

export class UnauthenticatedError extends ApiError {
  constructor(message = 'Authentication required: send a valid credential as "Authorization: Bearer <token>"') {
    super(401, 'UNAUTHENTICATED', message);
  }
}

export class PermissionDeniedError extends ApiError {
  constructor(message = 'The credential lacks the permission this operation needs') {
    super(403, 'PERMISSION_DENIED', message);
  }
}

export class IdpRequiredError extends ApiError {
  constructor(message = 'This operation needs a signed-in user; API keys and session tokens cannot use it') {
    super(403, 'IDP_REQUIRED', message);
  }
}

/** An OAuth token of a client the operation does not accept (e.g. not a first-party application). */
export class OAuthClientForbiddenError extends ApiError {
  constructor(message = 'This operation does not accept tokens of this OAuth client') {
    super(403, 'OAUTH_CLIENT_FORBIDDEN', message);
  }
}

/** An OAuth token without the scope the operation needs for OAuth callers (e.g. identity:read). */
export class OAuthScopeRequiredError extends ApiError {
  constructor(scope: string) {
    super(403, 'OAUTH_SCOPE_REQUIRED', `This operation needs an OAuth token with the ${scope} scope`);
  }
}

/**
 * A constituent's token on anything but the constituent-facing routes (records, collections, users,
 * administration…), or sent together with a team selection: it is the only principal of its request.
 */
export class ConstituentTokenNotAllowedError extends ApiError {
  constructor(message = 'A constituent token cannot call team routes; it works on the constituent-facing routes only (docs/api/constituent-auth.md)') {
    super(403, 'CONSTITUENT_TOKEN_NOT_ALLOWED', message);
  }
}

/** A team credential (API key, session token, user token) on a route that acts as a signed-in constituent. */
export class ConstituentTokenRequiredError extends ApiError {
  constructor() {
    super(403, 'CONSTITUENT_TOKEN_REQUIRED', "This route acts as a signed-in constituent: send the constituent's access token, not a team credential");
  }
}

/** A chat widget visitor's token on anything but the widget's own visitor operations (docs/api/conversations.md "Chat widget"). */
export class WidgetVisitorTokenNotAllowedError extends ApiError {
  constructor(message = "A widget visitor token reaches only its visitor's own widget conversations (the widgetVisitor… operations); it cannot call team routes") {
    super(403, 'WIDGET_VISITOR_TOKEN_NOT_ALLOWED', message);
  }
}

/** Another credential on an operation that acts as a chat widget's visitor. */
export class WidgetVisitorTokenRequiredError extends ApiError {
  constructor() {
    super(403, 'WIDGET_VISITOR_TOKEN_REQUIRED', "This operation acts as a chat widget's visitor: send the visitor token (svc_wvt_…), not a team credential");
  }
}

export class NotFoundError extends ApiError {
  constructor(resource: string, id?: string) {
    super(404, 'NOT_FOUND', id ? `${resource} ${id} was not found` : `${resource} was not found`);
  }
}

export class ConflictError extends ApiError {
  constructor(message: string) {
    super(409, 'CONFLICT', message);
  }
}

export class RateLimitError extends ApiError {
  constructor(retryAfterSeconds: number) {
    super(429, 'RATE_LIMIT_EXCEEDED', `Rate limit exceeded; retry after ${retryAfterSeconds} s`, {
      headers: { 'Retry-After': String(retryAfterSeconds) },
    });
  }
}

/** Seconds a client is asked to wait (Retry-After) before trying again after a 503. */
export const SERVICE_UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/** The instance cannot serve the request now (the database is unreachable, or it is shutting
 *  down); the same request may succeed later, here or on another instance. */
export class ServiceUnavailableError extends ApiError {
  constructor(message = 'The service is temporarily unavailable: the database cannot be reached') {
    super(503, 'SERVICE_UNAVAILABLE', message, {
      headers: { 'Retry-After': String(SERVICE_UNAVAILABLE_RETRY_AFTER_SECONDS) },
    });
  }
}

export class InternalError extends ApiError {
  constructor() {
    super(500, 'INTERNAL_ERROR', 'Unexpected failure');
  }
}

/** A team was selected but the selector is not a team simplyId. */
export class InvalidTeamSelectionError extends ValidationError {
  constructor() {
    super('X-Team-Id / teamSimplyId must be a team simplyId (tm-XXXX-XXXX-XXXX)', [
      { field: 'X-Team-Id', message: 'malformed identifier' },
    ]);
  }
}

/** The documented error for a team context problem on a user credential. */
export function teamContextRequired(): ValidationError {
  return new ValidationError('Select a team with the X-Team-Id header or the teamSimplyId query parameter', [
    { field: 'X-Team-Id', message: 'required for user credentials' },
  ]);
}
