// One kept-alive HTTP/2 connection per provider origin (APNs, FCM), as both providers ask: many
// requests share it as streams. A connection that closed, failed or was told GOAWAY is replaced on
// the next request; an idle one is closed after a minute. Sockets are unref'd so an idle
// connection never keeps a process alive.
import http2 from 'node:http2';

const IDLE_MS = 60_000;

export interface Http2Answer {
  status: number;
  headers: http2.IncomingHttpHeaders;
  body: string;
}

export class Http2Origin {
  private session: http2.ClientHttp2Session | null = null;
  private readonly origin: string;
  private readonly ca: string | undefined;

  constructor(origin: string, ca: string | undefined) {
    this.origin = origin;
    this.ca = ca;
  }

  private connect(): http2.ClientHttp2Session {
    if (this.session && !this.session.closed && !this.session.destroyed) return this.session;
    const session = http2.connect(this.origin, this.ca ? { ca: this.ca } : {});
    const forget = () => {
      if (this.session === session) this.session = null;
    };
    session.on('error', forget);
    session.on('goaway', forget);
    session.on('close', forget);
    session.setTimeout(IDLE_MS, () => session.close());
    session.unref();
    this.session = session;
    return session;
  }

  /** One request; rejects on a connection or stream failure, or after `timeoutMs`. */
  request(headers: http2.OutgoingHttpHeaders, body: string, timeoutMs: number): Promise<Http2Answer> {
    return new Promise((resolve, reject) => {
      let stream: http2.ClientHttp2Stream;
      try {
        stream = this.connect().request(headers);
      } catch (error) {
        this.session = null;
        return reject(error);
      }
      const timer = setTimeout(() => stream.close(http2.constants.NGHTTP2_CANCEL), timeoutMs);
      let status = 0;
      let answerHeaders: http2.IncomingHttpHeaders = {};
      const chunks: Buffer[] = [];
      stream.on('response', (h) => {
        answerHeaders = h;
        status = Number(h[':status']);
      });
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      stream.on('close', () => {
        clearTimeout(timer);
        if (status === 0) reject(new Error(stream.rstCode === http2.constants.NGHTTP2_CANCEL ? `no answer within ${timeoutMs} ms` : `stream closed without an answer (code ${stream.rstCode})`));
        else resolve({ status, headers: answerHeaders, body: Buffer.concat(chunks).toString('utf8') });
      });
      stream.end(body);
    });
  }

  close(): void {
    this.session?.close();
    this.session = null;
  }
}
