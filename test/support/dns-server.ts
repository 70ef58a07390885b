// A DNS server on a loopback UDP port (dns2) answering TXT questions from a table the test fills,
// so mail-domain verification runs the real resolver against published records. Names missing
// from the table are NXDOMAIN. `silentDnsServer` takes queries and never answers: a dead resolver.
import dgram from 'node:dgram';
import dns2 from 'dns2';

const { Packet } = dns2;

export interface LocalDnsServer {
  /** `127.0.0.1:<port>`, for MAIL_DOMAIN_DNS_SERVERS */
  address: string;
  /** record name (lower case, no trailing dot) → its TXT values */
  txt: Map<string, string[]>;
  /** questions received, in order */
  questions: { name: string; type: number }[];
  close(): Promise<void>;
}

export async function startDnsServer(): Promise<LocalDnsServer> {
  const txt = new Map<string, string[]>();
  const questions: { name: string; type: number }[] = [];
  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      const [question] = request.questions;
      if (!question) return void send(response);
      const name = question.name.toLowerCase().replace(/\.$/, '');
      questions.push({ name, type: question.type });
      const values = txt.get(name);
      if (!values) response.header.rcode = Packet.RCODE.NXDOMAIN;
      else if (question.type === Packet.TYPE.TXT) {
        // dns2 encodes a plain record object (its declared Resource type also wants an encoder method)
        for (const data of values) response.answers.push({ name: question.name, type: Packet.TYPE.TXT, class: Packet.CLASS.IN, ttl: 60, data } as unknown as (typeof response.answers)[number]);
      }
      void send(response);
    },
  });
  const addresses = await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
  const port = (addresses as { udp?: { port: number } }).udp?.port;
  if (!port) throw new Error('the DNS server did not report its UDP port');
  return { address: `127.0.0.1:${port}`, txt, questions, close: () => server.close() };
}

/** A UDP port that receives DNS queries and never answers them. */
export async function silentDnsServer(): Promise<{ address: string; close(): Promise<void> }> {
  const socket = dgram.createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return { address: `127.0.0.1:${socket.address().port}`, close: () => new Promise<void>((resolve) => socket.close(() => resolve())) };
}
