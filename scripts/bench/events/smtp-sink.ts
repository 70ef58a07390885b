// The SMTP server the platform hands mail to in the mail scenario (npm smtp-server, loopback, no
// AUTH and no STARTTLS: SMTP_URL=smtp://127.0.0.1:<port>). It accepts every message and records
// its Message-ID and when its DATA had arrived.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { wallClockMs } from './stats.ts';

export interface SmtpArrival {
  messageId: string;
  receivedAt: number;
}

export interface SmtpSink {
  url: string;
  arrivals: SmtpArrival[];
  distinct(): number;
  close(): Promise<void>;
}

const MESSAGE_ID = /^message-id:[ \t]*(\S+)/im;

export async function startSmtpSink(): Promise<SmtpSink> {
  const arrivals: SmtpArrival[] = [];
  const seen = new Set<string>();
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    logger: false,
    onData(stream, _session, callback) {
      let head = '';
      stream.on('data', (chunk: Buffer) => {
        // the headers are enough, and they come first
        if (head.length < 16_384) head += chunk.toString('utf8');
      });
      stream.on('end', () => {
        const messageId = MESSAGE_ID.exec(head.slice(0, head.indexOf('\r\n\r\n') >= 0 ? head.indexOf('\r\n\r\n') : undefined))?.[1] ?? '';
        arrivals.push({ messageId, receivedAt: wallClockMs() });
        seen.add(messageId);
        callback(null, 'queued');
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    arrivals,
    distinct: () => seen.size,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
