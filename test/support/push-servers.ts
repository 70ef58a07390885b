// Real local push endpoints for the push tests, all over TLS with one self-signed certificate that
// the server under test trusts through PUSH_CA_FILE:
// - a Web Push service (HTTPS): checks the VAPID Authorization (`vapid t=<JWT>, k=<key>`, the ES256
//   JWT verified against k, audience = its origin) and decrypts the aes128gcm payload with the
//   subscription's private keys (made here like a browser would: P-256 ECDH + 16 auth bytes);
// - an APNs server (HTTP/2): checks the path, apns-topic, apns-push-type and the provider JWT
//   (ES256, kid and iss) against the .p8 key it generated;
// - an FCM server (HTTP/2, HTTP/1.1 for the token endpoint): checks the service account's RS256
//   assertion at /token, issues access tokens, and takes messages:send with one of them.
// Each records what it received and can be told to answer an error for a given token.
import { createECDH, randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import http2 from 'node:http2';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { exportPKCS8, exportSPKI, generateKeyPair, importJWK, importSPKI, jwtVerify, decodeProtectedHeader } from 'jose';
import { generate } from 'selfsigned';
import type { Env } from '../../src/app/config.ts';

const ece = createRequire(import.meta.url)('http_ece') as {
  decrypt(buffer: Buffer, params: { version: string; privateKey: ReturnType<typeof createECDH>; authSecret: string }): Buffer;
};

/** How an endpoint answers a token's next request; a function sees how many requests came for it. */
export type Answer = { status: number; body?: unknown; headers?: Record<string, string> } | null;
type Answers = Map<string, (count: number) => Answer>;

function answerFor(answers: Answers, counts: Map<string, number>, key: string): Answer {
  const count = (counts.get(key) ?? 0) + 1;
  counts.set(key, count);
  return answers.get(key)?.(count) ?? null;
}

export interface WebPushReceived {
  subscriptionId: string;
  /** the decrypted payload, parsed */
  payload: any;
  vapid: { subject: string; audience: string; publicKey: string };
  headers: http2.IncomingHttpHeaders;
}

export interface ApnsReceived {
  deviceToken: string;
  payload: any;
  headers: http2.IncomingHttpHeaders;
}

export interface FcmReceived {
  projectId: string;
  message: any;
}

export interface PushServers {
  /** settings that point the server under test at these endpoints */
  env: Partial<Env>;
  webPush: {
    origin: string;
    /** a browser's subscription with its private keys kept here; `token` is what the app registers */
    subscribe(): { id: string; token: string };
    received: WebPushReceived[];
    /** refused requests (bad VAPID, undecryptable payload), with why */
    refused: string[];
    answer(subscriptionId: string, answer: (count: number) => Answer): void;
  };
  apns: {
    origin: string;
    topic: string;
    newToken(): string;
    received: ApnsReceived[];
    refused: string[];
    answer(deviceToken: string, answer: (count: number) => Answer): void;
    /** requests per device token, answered or not */
    attempts(deviceToken: string): number;
  };
  fcm: {
    origin: string;
    projectId: string;
    newToken(): string;
    received: FcmReceived[];
    refused: string[];
    /** access tokens issued at /token */
    issued: string[];
    answer(registrationToken: string, answer: (count: number) => Answer): void;
    attempts(registrationToken: string): number;
  };
  close(): Promise<void>;
}

function readBody(stream: import('node:stream').Readable): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
  });
}

/** every socket, so closing does not wait for kept-alive HTTP/2 sessions of the server under test */
const sockets = new WeakMap<object, Set<import('node:net').Socket>>();

async function listen(server: https.Server | http2.Http2SecureServer): Promise<string> {
  const open = new Set<import('node:net').Socket>();
  sockets.set(server, open);
  server.on('connection', (socket: import('node:net').Socket) => {
    open.add(socket);
    socket.on('close', () => open.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function vapidKeyOf(k: string) {
  const point = Buffer.from(k, 'base64url');
  if (point.length !== 65 || point[0] !== 4) throw new Error('k is not an uncompressed P-256 point');
  return importJWK({ kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33).toString('base64url') }, 'ES256');
}

async function startWebPush(cert: { key: string; cert: string }) {
  const subscriptions = new Map<string, { ecdh: ReturnType<typeof createECDH>; auth: string }>();
  const received: WebPushReceived[] = [];
  const refused: string[] = [];
  const answers: Answers = new Map();
  const counts = new Map<string, number>();
  let origin = '';
  const server = https.createServer(cert, (req, res) => {
    void (async () => {
      const body = await readBody(req);
      const id = /^\/push\/([\w-]+)$/.exec(req.url ?? '')?.[1] ?? '';
      const subscription = subscriptions.get(id);
      const refuse = (status: number, why: string) => {
        refused.push(`${id}: ${why}`);
        res.writeHead(status, { 'content-type': 'text/plain' }).end(why);
      };
      if (req.method !== 'POST' || !subscription) return refuse(404, 'no such subscription');
      const auth = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(String(req.headers.authorization ?? ''));
      if (!auth) return refuse(401, `Authorization is not "vapid t=…, k=…": ${req.headers.authorization}`);
      let claims;
      try {
        ({ payload: claims } = await jwtVerify(auth[1]!, await vapidKeyOf(auth[2]!), { algorithms: ['ES256'], audience: origin }));
      } catch (error) {
        return refuse(403, `VAPID JWT does not verify: ${(error as Error).message}`);
      }
      if (!claims.exp || claims.exp > Date.now() / 1000 + 24 * 3600) return refuse(403, 'VAPID exp missing or more than 24 h ahead');
      if (typeof claims.sub !== 'string' || !/^(mailto:|https:)/.test(claims.sub)) return refuse(403, 'VAPID sub is not mailto: or https:');
      if (req.headers['content-encoding'] !== 'aes128gcm') return refuse(415, `Content-Encoding ${req.headers['content-encoding']}`);
      if (!req.headers.ttl) return refuse(400, 'no TTL header');
      let payload;
      try {
        payload = JSON.parse(ece.decrypt(body, { version: 'aes128gcm', privateKey: subscription.ecdh, authSecret: subscription.auth }).toString('utf8'));
      } catch (error) {
        return refuse(400, `payload does not decrypt: ${(error as Error).message}`);
      }
      const answer = answerFor(answers, counts, id);
      if (answer) return void res.writeHead(answer.status, { 'content-type': 'text/plain' }).end(String(answer.body ?? ''));
      received.push({ subscriptionId: id, payload, vapid: { subject: claims.sub, audience: String(claims.aud), publicKey: auth[2]! }, headers: req.headers as never });
      res.writeHead(201, { location: `${origin}/message/${randomUUID()}` }).end();
    })().catch((error) => {
      refused.push(`handler failed: ${(error as Error).message}`);
      res.writeHead(500).end();
    });
  });
  origin = await listen(server);
  return {
    server,
    api: {
      origin,
      subscribe() {
        const ecdh = createECDH('prime256v1');
        ecdh.generateKeys();
        const id = randomBytes(9).toString('base64url');
        const auth = randomBytes(16).toString('base64url');
        subscriptions.set(id, { ecdh, auth });
        const token = JSON.stringify({ endpoint: `${origin}/push/${id}`, expirationTime: null, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth } });
        return { id, token };
      },
      received,
      refused,
      answer: (id: string, answer: (count: number) => Answer) => void answers.set(id, answer),
    },
  };
}

function h2Answer(stream: http2.ServerHttp2Stream, status: number, body: unknown, headers: Record<string, string> = {}) {
  stream.respond({ ':status': status, 'content-type': 'application/json', ...headers });
  stream.end(body === undefined ? '' : JSON.stringify(body));
}

async function startApns(cert: { key: string; cert: string }, dir: string) {
  const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
  const keyFile = path.join(dir, 'AuthKey.p8');
  fs.writeFileSync(keyFile, await exportPKCS8(privateKey));
  const keyId = randomBytes(5).toString('hex').toUpperCase();
  const teamId = randomBytes(5).toString('hex').toUpperCase();
  const topic = 'test.svc.app';
  const received: ApnsReceived[] = [];
  const refused: string[] = [];
  const answers: Answers = new Map();
  const counts = new Map<string, number>();
  const server = http2.createSecureServer(cert);
  server.on('stream', (stream, headers) => {
    void (async () => {
      const body = await readBody(stream);
      const deviceToken = /^\/3\/device\/([0-9a-f]+)$/.exec(String(headers[':path']))?.[1];
      const refuse = (status: number, reason: string) => {
        refused.push(`${deviceToken}: ${reason}`);
        h2Answer(stream, status, { reason });
      };
      if (headers[':method'] !== 'POST' || !deviceToken) return refuse(404, 'BadPath');
      if (headers['apns-topic'] !== topic) return refuse(400, 'TopicDisallowed');
      if (headers['apns-push-type'] !== 'alert') return refuse(400, 'InvalidPushType');
      const bearer = /^bearer (.+)$/.exec(String(headers.authorization ?? ''))?.[1];
      if (!bearer) return refuse(403, 'MissingProviderToken');
      try {
        if (decodeProtectedHeader(bearer).kid !== keyId) return refuse(403, 'InvalidProviderToken');
        const { payload } = await jwtVerify(bearer, publicKey, { algorithms: ['ES256'], issuer: teamId });
        if (!payload.iat || Math.abs(Date.now() / 1000 - payload.iat) > 3600) return refuse(403, 'ExpiredProviderToken');
      } catch {
        return refuse(403, 'InvalidProviderToken');
      }
      const answer = answerFor(answers, counts, deviceToken);
      if (answer) return h2Answer(stream, answer.status, answer.body, answer.headers);
      received.push({ deviceToken, payload: JSON.parse(body.toString('utf8')), headers });
      h2Answer(stream, 200, undefined, { 'apns-id': randomUUID() });
    })().catch(() => h2Answer(stream, 500, { reason: 'InternalServerError' }));
  });
  const origin = await listen(server);
  return {
    server,
    env: { APNS_BASE_URL: origin, APNS_KEY_FILE: keyFile, APNS_KEY_ID: keyId, APNS_TEAM_ID: teamId, APNS_TOPIC: topic },
    api: {
      origin,
      topic,
      newToken: () => randomBytes(32).toString('hex'),
      received,
      refused,
      answer: (token: string, answer: (count: number) => Answer) => void answers.set(token, answer),
      attempts: (token: string) => counts.get(token) ?? 0,
    },
  };
}

async function startFcm(cert: { key: string; cert: string }, dir: string) {
  const { publicKey, privateKey } = await generateKeyPair('RS256', { extractable: true });
  const projectId = `svc-test-${randomBytes(3).toString('hex')}`;
  const clientEmail = `push@${projectId}.iam.gserviceaccount.com`;
  const received: FcmReceived[] = [];
  const refused: string[] = [];
  const issued: string[] = [];
  const answers: Answers = new Map();
  const counts = new Map<string, number>();
  const spki = await importSPKI(await exportSPKI(publicKey), 'RS256');
  let origin = '';
  const server = http2.createSecureServer({ ...cert, allowHTTP1: true });
  server.on('request', (req: http2.Http2ServerRequest, res: http2.Http2ServerResponse) => {
    void (async () => {
      const body = (await readBody(req)).toString('utf8');
      const reply = (status: number, json: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(json));
      };
      if (req.method === 'POST' && req.url === '/token') {
        const form = new URLSearchParams(body);
        if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer') return reply(400, { error: 'unsupported_grant_type' });
        try {
          const { payload } = await jwtVerify(form.get('assertion') ?? '', spki, { algorithms: ['RS256'], issuer: clientEmail, audience: `${origin}/token` });
          if (payload.scope !== 'https://www.googleapis.com/auth/firebase.messaging') return reply(400, { error: 'invalid_scope' });
        } catch (error) {
          refused.push(`token: ${(error as Error).message}`);
          return reply(400, { error: 'invalid_grant', error_description: (error as Error).message });
        }
        const token = `ya29.${randomBytes(24).toString('base64url')}`;
        issued.push(token);
        return reply(200, { access_token: token, expires_in: 3599, token_type: 'Bearer' });
      }
      const project = /^\/v1\/projects\/([\w-]+)\/messages:send$/.exec(req.url ?? '')?.[1];
      if (req.method !== 'POST' || project !== projectId) return reply(404, { error: { code: 404, status: 'NOT_FOUND', message: `no such path ${req.url}` } });
      const bearer = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1];
      if (!bearer || !issued.includes(bearer)) {
        refused.push(`messages:send with ${bearer ? 'an unknown' : 'no'} access token`);
        return reply(401, { error: { code: 401, status: 'UNAUTHENTICATED', message: 'Request had invalid authentication credentials.' } });
      }
      const message = (JSON.parse(body) as { message?: { token?: string } }).message;
      if (!message?.token) return reply(400, { error: { code: 400, status: 'INVALID_ARGUMENT', message: 'no token' } });
      const answer = answerFor(answers, counts, message.token);
      if (answer) return reply(answer.status, answer.body ?? {});
      received.push({ projectId: project, message });
      reply(200, { name: `projects/${projectId}/messages/${randomBytes(8).toString('hex')}` });
    })().catch(() => {
      res.writeHead(500);
      res.end();
    });
  });
  origin = await listen(server);
  const accountFile = path.join(dir, 'service-account.json');
  fs.writeFileSync(
    accountFile,
    JSON.stringify({
      type: 'service_account',
      project_id: projectId,
      private_key_id: randomBytes(8).toString('hex'),
      private_key: await exportPKCS8(privateKey),
      client_email: clientEmail,
      token_uri: `${origin}/token`,
    }),
  );
  return {
    server,
    env: { FCM_BASE_URL: origin, FCM_SERVICE_ACCOUNT_FILE: accountFile },
    api: {
      origin,
      projectId,
      newToken: () => `${randomBytes(8).toString('base64url')}:APA91b${randomBytes(100).toString('base64url')}`,
      received,
      refused,
      issued,
      answer: (token: string, answer: (count: number) => Answer) => void answers.set(token, answer),
      attempts: (token: string) => counts.get(token) ?? 0,
    },
  };
}

/** FCM's answer for a registration token that no longer exists. */
export const FCM_UNREGISTERED: Answer = {
  status: 404,
  body: { error: { code: 404, status: 'NOT_FOUND', message: 'Requested entity was not found.', details: [{ '@type': 'type.googleapis.com/google.firebase.fcm.v1.FcmError', errorCode: 'UNREGISTERED' }] } },
};
export const FCM_UNAVAILABLE: Answer = { status: 503, body: { error: { code: 503, status: 'UNAVAILABLE', message: 'The service is currently unavailable.' } } };

export async function startPushServers(dir: string): Promise<PushServers> {
  fs.mkdirSync(dir, { recursive: true });
  const pems = await generate([{ name: 'commonName', value: `push endpoints ${randomBytes(4).toString('hex')}` }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }, { type: 7, ip: '127.0.0.1' }] },
    ],
  });
  const certFile = path.join(dir, 'push-endpoints.pem');
  fs.writeFileSync(certFile, pems.cert);
  const cert = { key: pems.private, cert: pems.cert };
  const webPush = await startWebPush(cert);
  const apns = await startApns(cert, dir);
  const fcm = await startFcm(cert, dir);
  return {
    env: { PUSH_ALLOW_LOOPBACK: true, PUSH_CA_FILE: certFile, ...apns.env, ...fcm.env },
    webPush: webPush.api,
    apns: apns.api,
    fcm: fcm.api,
    close: async () => {
      for (const server of [webPush.server, apns.server, fcm.server]) {
        for (const socket of sockets.get(server) ?? []) socket.destroy();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    },
  };
}
