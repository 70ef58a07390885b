// Whether a failure means "PostgreSQL is not reachable right now" (an outage, a restart, a
// network cut, a full pool that could not hand out a connection in time) rather than a fault of
// the request or the code. Such failures are answered 503 SERVICE_UNAVAILABLE with Retry-After.
//
// They reach us in several shapes, often wrapped:
// - Node socket errors from pg (`code` ECONNREFUSED, ECONNRESET, …);
// - pg's own errors, which carry only a message ("Connection terminated unexpectedly", the pool's
//   "timeout exceeded when trying to connect", "… is not queryable");
// - PostgreSQL errors with a SQLSTATE of class 08 (connection exception), 57P01-57P03 (the server
//   is shutting down or starting up) or 53300 (too many connections);
// - Prisma errors: @prisma/adapter-pg turns the above into a DriverAdapterError whose `cause.kind`
//   is DatabaseNotReachable, ConnectionClosed, SocketTimeout or TooManyConnections, which Prisma
//   reports as P1001, P1008, P1017 or P2037 (the original error under meta.driverAdapterError); a
//   SQLSTATE it has no kind for becomes P2039/P2010 with `cause.originalCode`; an error it cannot
//   convert (pg's message-only errors) is passed on as it is;
// - GraphQL errors whose `originalError` is one of these, and `cause` chains.

const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
const PRISMA_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2037']);
const ADAPTER_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections']);
const SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);
const PG_MESSAGES = [
  /^Connection terminated/, // unexpectedly | due to connection timeout
  /^timeout exceeded when trying to connect$/,
  /is not queryable$/, // the client had a connection error, or was closed
  /^Query read timeout$/,
];

function isUnavailableSqlState(code: unknown): boolean {
  return typeof code === 'string' && (code.startsWith('08') || SQLSTATES.has(code));
}

function isUnavailableHere(error: Record<string, unknown>): boolean {
  const code = error.code;
  if (typeof code === 'string' && (SOCKET_CODES.has(code) || PRISMA_CODES.has(code))) return true;
  // a PostgreSQL error (pg's DatabaseError carries `severity`) or an adapter error's cause
  if (typeof error.severity === 'string' && isUnavailableSqlState(code)) return true;
  if (typeof error.kind === 'string') {
    if (ADAPTER_KINDS.has(error.kind)) return true;
    if (isUnavailableSqlState(error.originalCode) || (error.kind === 'postgres' && isUnavailableSqlState(code))) return true;
  }
  const message = error.message;
  return typeof message === 'string' && PG_MESSAGES.some((pattern) => pattern.test(message));
}

/** True when `error`, or an error it wraps, says the database cannot be reached. */
export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  const pending: unknown[] = [error];
  while (pending.length > 0) {
    const current = pending.pop();
    if (current === null || typeof current !== 'object' || seen.has(current) || seen.size > 20) continue;
    seen.add(current);
    const e = current as Record<string, unknown>;
    if (isUnavailableHere(e)) return true;
    const meta = e.meta as Record<string, unknown> | undefined;
    pending.push(e.originalError, e.cause, meta?.driverAdapterError);
    if (Array.isArray(e.errors)) pending.push(...e.errors);
  }
  return false;
}
