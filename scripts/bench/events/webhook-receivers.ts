// The webhook targets of the events section: HTTPS receivers on 127.0.0.1 with a self-signed
// certificate of their own (the platform trusts it through WEBHOOK_CA_FILE), each answering 200 at
// once or after a fixed delay, and recording every request: its X-Service-Event-Id, when it
// arrived, the record's createdAt from the body and whether the signature verifies. A refusing
// target is a port nothing listens on.
import fs from 'node:fs';
import https from 'node:https';
import net from 'node:net';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { generate } from 'selfsigned';
import { verifyWebhookSignature } from '../../../src/modules/webhooks/verify-signature.ts';
import { wallClockMs } from './stats.ts';

export interface ReceiverCertificate {
  cert: string;
  key: string;
  /** the PEM file for WEBHOOK_CA_FILE */
  certFile: string;
}

export async function createReceiverCertificate(dir: string): Promise<ReceiverCertificate> {
  const pems = await generate([{ name: 'commonName', value: 'bench webhook receiver' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] },
    ],
  } as never);
  const certFile = path.join(dir, 'bench-receiver-cert.pem');
  fs.writeFileSync(certFile, pems.cert);
  return { cert: pems.cert, key: pems.private, certFile };
}

export interface Arrival {
  eventId: string;
  /** wall-clock ms (stats.ts wallClockMs) when the request's body had arrived */
  receivedAt: number;
  /** the record's createdAt from the body, ms since the epoch; null when absent */
  recordCreatedAt: number | null;
  signatureValid: boolean;
}

export interface WebhookReceiver {
  /** https://127.0.0.1:<port> */
  origin: string;
  arrivals: Arrival[];
  /** distinct event ids received */
  distinct(): number;
  /** the subscription's signing secret (from its create response), to verify signatures with */
  useSecret(secret: string): void;
  close(): Promise<void>;
}

export async function startWebhookReceiver(certificate: ReceiverCertificate, options: { delayMs?: number } = {}): Promise<WebhookReceiver> {
  const arrivals: Arrival[] = [];
  const seen = new Set<string>();
  let secret: string | null = null;
  const delayed = new Set<NodeJS.Timeout>();
  const server = https.createServer({ cert: certificate.cert, key: certificate.key, keepAliveTimeout: 30_000 }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const receivedAt = wallClockMs();
      const raw = Buffer.concat(chunks);
      const header = req.headers['x-service-event-id'];
      const eventId = typeof header === 'string' ? header : '';
      let recordCreatedAt: number | null = null;
      let bodyEventId: unknown = null;
      try {
        const body = JSON.parse(raw.toString('utf8')) as { eventId?: unknown; data?: { createdAt?: unknown } };
        bodyEventId = body.eventId;
        const createdAt = typeof body.data?.createdAt === 'string' ? Date.parse(body.data.createdAt) : NaN;
        recordCreatedAt = Number.isFinite(createdAt) ? createdAt : null;
      } catch {
        // not JSON: the signature check below fails it
      }
      const signatureValid = secret !== null && bodyEventId === eventId && verifyWebhookSignature(raw, req.headers['x-svc-signature'] as string | undefined, secret);
      arrivals.push({ eventId, receivedAt, recordCreatedAt, signatureValid });
      seen.add(eventId);
      const answer = () => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('ok');
      };
      if (!options.delayMs) return answer();
      const timer = setTimeout(() => {
        delayed.delete(timer);
        answer();
      }, options.delayMs);
      delayed.add(timer);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return {
    origin: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    arrivals,
    distinct: () => seen.size,
    useSecret: (s) => void (secret = s),
    close: async () => {
      for (const timer of delayed) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** https://127.0.0.1:<port> of a port that was free a moment ago: connections to it are refused. */
export async function refusingOrigin(): Promise<string> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', () => resolve()));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return `https://127.0.0.1:${port}`;
}
