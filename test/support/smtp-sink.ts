// A real SMTP server (npm smtp-server) on 127.0.0.1 that keeps what it receives. AUTH is required
// (over plain TCP: loopback only); STARTTLS is off so the client does not upgrade to a certificate
// it cannot verify. Recipients steer failures: `reject…@` is refused at RCPT with 550, a message
// to `flaky…@` is refused once at DATA with 451 and accepted on its next attempt.
import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerAddress, type SMTPServerSession } from 'smtp-server';

export interface ReceivedMail {
  user: string | undefined;
  mailFrom: string;
  rcptTo: string[];
  raw: string;
  /** unfolded header lines by lower-case name (the first of each) */
  headers: Map<string, string>;
}

export interface SmtpSink {
  url: string;
  received: ReceivedMail[];
  /** every RCPT TO the server refused, with when */
  refusedRcpt: { address: string; at: number }[];
  /** every DATA the server refused, with when */
  refusedData: { messageId: string; at: number }[];
  /** SMTP connections opened so far */
  connections(): number;
  close(): Promise<void>;
}

class SmtpReply extends Error {
  responseCode: number;
  constructor(code: number, message: string) {
    super(message);
    this.responseCode = code;
  }
}

export function parseHeaders(raw: string): Map<string, string> {
  const head = raw.slice(0, raw.indexOf('\r\n\r\n')).replace(/\r\n[ \t]+/g, ' ');
  const headers = new Map<string, string>();
  for (const line of head.split('\r\n')) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).toLowerCase();
    if (!headers.has(name)) headers.set(name, line.slice(colon + 1).trim());
  }
  return headers;
}

export async function startSmtpSink(credentials = { user: 'mailer', pass: 'mail-secret' }): Promise<SmtpSink> {
  const received: ReceivedMail[] = [];
  const refusedRcpt: SmtpSink['refusedRcpt'] = [];
  const refusedData: SmtpSink['refusedData'] = [];
  const flakySeen = new Set<string>();
  let connections = 0;
  const server = new SMTPServer({
    onConnect(_session, callback) {
      connections++;
      callback();
    },
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authOptional: false,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === credentials.user && auth.password === credentials.pass) callback(null, { user: auth.username });
      else callback(new SmtpReply(535, 'Authentication failed'));
    },
    onRcptTo(address: SMTPServerAddress, _session: SMTPServerSession, callback) {
      if (address.address.startsWith('reject')) {
        refusedRcpt.push({ address: address.address, at: Date.now() });
        callback(new SmtpReply(550, `5.1.1 <${address.address}>: mailbox unavailable`));
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const headers = parseHeaders(raw);
        const rcptTo = session.envelope.rcptTo.map((r) => r.address);
        const messageId = headers.get('message-id') ?? '';
        if (rcptTo.some((a) => a.startsWith('flaky')) && !flakySeen.has(messageId)) {
          flakySeen.add(messageId);
          refusedData.push({ messageId, at: Date.now() });
          callback(new SmtpReply(451, '4.3.0 try again later'));
          return;
        }
        const mailFrom = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
        received.push({ user: session.user as string | undefined, mailFrom, rcptTo, raw, headers });
        callback(null, 'queued as sink-1');
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://${credentials.user}:${credentials.pass}@127.0.0.1:${port}`,
    received,
    refusedRcpt,
    refusedData,
    connections: () => connections,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
