// Structured logs (pino). Secrets never reach a log line: credential headers and bodies' secret
// fields are redacted wherever they appear.
import pino, { type Logger } from 'pino';

export function createLogger(level: string, name = 'svc'): Logger {
  return pino({
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
  });
}
