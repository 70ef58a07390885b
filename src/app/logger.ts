// Structured logs (pino): one JSON object per line on stdout, or readable lines for development
// (LOG_FORMAT=pretty). Secrets never reach a log line: credential headers and bodies' secret
// fields are redacted wherever they appear.
import { createRequire } from 'node:module';
import pino, { type DestinationStream, type Logger } from 'pino';

export type LogFormat = 'json' | 'pretty';

export function createLogger(level: string, name = 'svc', format: LogFormat = 'json'): Logger {
  const options = {
    name,
    level,
    redact: {
      paths: [
        'req.headers.authorization',
        'headers.authorization',
        '*.authorization',
        '*.password',
        '*.fullApiKey',
        '*.token',
        '*.refreshToken',
        '*.accessToken',
        '*.secret',
      ],
      censor: '[redacted]',
    },
  };
  return format === 'pretty' ? pino(options, prettyStream()) : pino(options);
}

/**
 * pino-pretty, required only when asked for: a JSON-logging process never loads it. Synchronous,
 * like pino's own stdout destination, so the last line before an exit is not lost.
 */
function prettyStream(): DestinationStream {
  const pretty = createRequire(import.meta.url)('pino-pretty') as (options: object) => DestinationStream;
  return pretty({ sync: true, colorize: process.stdout.isTTY === true, singleLine: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' });
}

/** Lines another program writes (the embedded PostgreSQL), one debug entry each, marked with their source. */
export function logLinesOf(logger: Logger, source: string): (text: string) => void {
  return (text) => {
    for (const line of text.split('\n')) if (line.trim()) logger.debug({ source }, line.trimEnd());
  };
}
