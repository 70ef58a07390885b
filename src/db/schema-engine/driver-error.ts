// Maps a pg error to the adapter error shape the engine understands, so a failed migration reports
// "Database error code: 42601 ..." rather than an opaque JavaScript error id.
import { DriverAdapterError } from '@prisma/driver-adapter-utils';

interface PgDatabaseError {
  code: string;
  severity?: string;
  message: string;
  detail?: string;
  column?: string;
  hint?: string;
}

interface NodeSocketError {
  code: string;
  syscall: string;
  address?: string;
  port?: number;
}

export function toDriverAdapterError(error: unknown): unknown {
  if (isDatabaseError(error)) {
    return new DriverAdapterError({
      kind: 'postgres',
      code: error.code,
      severity: error.severity ?? 'ERROR',
      message: error.message,
      detail: error.detail,
      column: error.column,
      hint: error.hint,
    });
  }
  if (isSocketError(error) && (error.code === 'ECONNREFUSED' || error.code === 'ENOTFOUND')) {
    return new DriverAdapterError({ kind: 'DatabaseNotReachable', host: error.address, port: error.port });
  }
  // Anything else reaches the engine as a GenericJs error carrying the original in its registry.
  return error;
}

function isDatabaseError(error: unknown): error is PgDatabaseError {
  const e = error as Partial<PgDatabaseError> | null;
  return typeof e?.code === 'string' && typeof e.message === 'string' && /^[0-9A-Z]{5}$/.test(e.code);
}

function isSocketError(error: unknown): error is NodeSocketError {
  const e = error as Partial<NodeSocketError> | null;
  return typeof e?.code === 'string' && typeof e.syscall === 'string';
}
