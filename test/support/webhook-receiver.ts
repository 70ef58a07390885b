// Webhook test helpers: a real HTTPS receiver on 127.0.0.1 with a self-signed certificate (the
// platform trusts it through WEBHOOK_CA_FILE) that verifies every signature with the documented
// helper, and servers on a database of the test file's own. The outbox and the delivery queue are
// global to a database, so a worker of another test file (without the loopback opt-in or the CA)
// must never pick up these files' events or jobs.
import fs from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { generate } from 'selfsigned';
import { inject } from 'vitest';
import type { Env } from '../../src/app/config.ts';
import { verifyWebhookSignature } from '../../src/modules/webhooks/verify-signature.ts';
import type { ThrowawayDatabase } from '../db/helpers.ts';
import { createMigratedDatabase } from './migrated-database.ts';

export interface ReceivedDelivery {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  rawBody: string;
  body: any;
  /** the signature checked with verifyWebhookSignature against the secret registered for the path */
  signatureValid: boolean | null;
  receivedAt: number;
}

export interface Reply {
  status?: number;
  body?: string;
  headers?: Record<string, string>;
  /** answer after this many ms */
  delayMs?: number;
  /** answer once this settles (then after delayMs): a stall the test ends when it has seen enough */
  until?: Promise<unknown>;
  /** never answer (until the receiver closes) */
  stall?: boolean;
}

export interface Receiver {
  /** https://127.0.0.1:<port> */
  origin: string;
  certFile: string;
  received: ReceivedDelivery[];
  /** how the receiver answers requests to `path` (default 200 "ok") */
  reply(path: string, answer: Reply | ((count: number) => Reply)): void;
  /** the secret the receiver verifies signatures on `path` with */
  secret(path: string, secret: string): void;
  on(path: string): ReceivedDelivery[];
  /** TLS connections accepted so far (kept-alive connections are counted once) */
  connections(): number;
  close(): Promise<void>;
}

export async function startReceiver(dir: string): Promise<Receiver> {
  fs.mkdirSync(dir, { recursive: true });
  // a name of its own: with several receivers' certificates trusted at once, TLS picks the trust
  // anchor by subject name, so two receivers sharing one would fail each other's checks
  const pems = await generate([{ name: 'commonName', value: `webhook receiver ${randomBytes(4).toString('hex')}` }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }, { type: 7, ip: '127.0.0.1' }, { type: 7, ip: '::1' }] },
    ],
  });
  const certFile = path.join(dir, `receiver-${randomBytes(3).toString('hex')}.pem`);
  fs.writeFileSync(certFile, pems.cert);
  const received: ReceivedDelivery[] = [];
  const replies = new Map<string, Reply | ((count: number) => Reply)>();
  const secrets = new Map<string, string>();
  const stalled = new Set<import('node:http').ServerResponse>();
  const server = https.createServer({ key: pems.private, cert: pems.cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = req.url ?? '/';
      const rawBody = Buffer.concat(chunks).toString('utf8');
      let body: unknown = null;
      try {
        body = JSON.parse(rawBody);
      } catch {
        body = null;
      }
      const secret = secrets.get(url);
      received.push({
        path: url,
        headers: req.headers,
        rawBody,
        body,
        signatureValid: secret ? verifyWebhookSignature(rawBody, req.headers['x-svc-signature'] as string | undefined, secret) : null,
        receivedAt: Date.now(),
      });
      const count = received.filter((r) => r.path === url).length;
      const configured = replies.get(url);
      const answer = (typeof configured === 'function' ? configured(count) : configured) ?? {};
      if (answer.stall) {
        stalled.add(res);
        return;
      }
      const respond = () =>
        setTimeout(() => {
          res.writeHead(answer.status ?? 200, { 'content-type': 'text/plain', ...answer.headers });
          res.end(answer.body ?? 'ok');
        }, answer.delayMs ?? 0);
      if (answer.until) void answer.until.finally(() => !res.destroyed && respond());
      else respond();
    });
  });
  let connections = 0;
  server.on('secureConnection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `https://127.0.0.1:${port}`,
    certFile,
    received,
    reply: (p, answer) => void replies.set(p, answer),
    secret: (p, s) => void secrets.set(p, s),
    on: (p) => received.filter((r) => r.path === p),
    connections: () => connections,
    close: async () => {
      for (const res of stalled) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}


export interface WebhookBed {
  /** migrated, of the calling file's own */
  db: ThrowawayDatabase;
  receiver: Receiver;
  /** server settings that let deliveries reach the receiver: loopback allowed, its certificate trusted */
  env: Partial<Env>;
  /** closes the receiver and drops the database */
  close(): Promise<void>;
}

/** What a file delivering webhooks for real needs before it starts its servers. */
export async function startWebhookBed(label: string): Promise<WebhookBed> {
  const db = await createMigratedDatabase(label);
  try {
    const receiver = await startReceiver(path.join(inject('testDataDir'), `${label}-receiver`));
    return {
      db,
      receiver,
      env: { WEBHOOK_ALLOW_LOOPBACK: true, WEBHOOK_CA_FILE: receiver.certFile },
      close: async () => {
        await receiver.close();
        await db.drop();
      },
    };
  } catch (error) {
    await db.drop();
    throw error;
  }
}
