// The CLI reads the engine's stderr as JSON lines in the Rust tracing format: it keeps
// `fields.message` of every line, remembers the last `level: "ERROR"` one (shown if the process
// dies), and for one-shot `cli` commands looks for `target: "schema_engine::logger"` with
// `fields.error_code`. Anything that is not such a line breaks its parser, so nothing else may be
// written to stderr.

export type LogLevel = 'ERROR' | 'WARN' | 'INFO' | 'DEBUG';

export const ERROR_TARGET = 'schema_engine::logger';

export function logLine(level: LogLevel, message: string, fields: Record<string, unknown> = {}, target = 'schema_engine_cli'): string {
  return JSON.stringify({ timestamp: new Date().toISOString(), level, fields: { message, ...fields }, target });
}

export function writeLog(level: LogLevel, message: string, fields?: Record<string, unknown>, target?: string): void {
  process.stderr.write(`${logLine(level, message, fields, target)}\n`);
}

/** Forwards a line the wasm engine logged (already JSON in this format). */
export function writeEngineLogLine(rawJson: string): void {
  process.stderr.write(`${rawJson.trimEnd()}\n`);
}
