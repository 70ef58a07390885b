// `svc start` behind a pretend TLS-terminating proxy (TRUST_PROXY=true, plain HTTP): the bench names
// each request's client address in X-Forwarded-For, so the per-address sign-in limits (10 verifies
// per 15 minutes) count each simulated constituent on their own, as they would in production.
import { spawn } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomInt } from 'node:crypto';
import { SERVER_NODE_FLAGS } from '../../../src/cli/server-flags.ts';
import { wallClockMs } from '../events/stats.ts';

const SVC = fileURLToPath(new URL('../../../src/cli/svc.ts', import.meta.url));
const ROOT = path.dirname(fileURLToPath(new URL('../../../package.json', import.meta.url)));

export interface ProxiedPlatform {
  port: number;
  stop(): Promise<void>;
}

export async function startProxiedPlatform(env: NodeJS.ProcessEnv, timeoutMs = 120_000): Promise<ProxiedPlatform> {
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, SVC, 'start'], { cwd: ROOT, env: { ...env, TRUST_PROXY: 'true' }, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output = (output + c.toString()).slice(-16_384)));
  child.stderr.on('data', (c: Buffer) => (output = (output + c.toString()).slice(-16_384)));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    await exited;
    clearTimeout(timer);
  };
  const started = Date.now();
  for (;;) {
    const url = /svc platform ready at (\S+)\n/.exec(output)?.[1];
    if (url) return { port: Number(new URL(url).port), stop };
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`svc start exited before it was ready:\n${output}`);
    if (Date.now() - started > timeoutMs) {
      await stop();
      throw new Error(`svc start was not ready within ${timeoutMs / 1000} s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export interface ProxiedResponse {
  status: number;
  body: any;
  ms: number;
}

/** A random address of 198.18.0.0/15, a new simulated client. */
export const someClient = () => `198.${18 + randomInt(2)}.${randomInt(256)}.${randomInt(1, 255)}`;

/** JSON requests over keep-alive plain HTTP, as the proxy would forward them. */
export class ProxiedClient {
  private readonly agent: http.Agent;
  private readonly port: number;
  private readonly token: string;

  constructor(port: number, token: string, sockets: number) {
    this.port = port;
    this.token = token;
    this.agent = new http.Agent({ keepAlive: true, maxSockets: sockets });
  }

  request(method: string, urlPath: string, body?: unknown, clientIp = someClient(), token = this.token): Promise<ProxiedResponse> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    return new Promise((resolve, reject) => {
      const sentAt = wallClockMs();
      const req = http.request(
        {
          host: '127.0.0.1',
          port: this.port,
          path: urlPath,
          method,
          agent: this.agent,
          headers: {
            'x-forwarded-proto': 'https',
            'x-forwarded-for': clientIp,
            ...(token ? { authorization: `Bearer ${token}` } : {}),
            ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', reject);
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : null, ms: wallClockMs() - sentAt });
          });
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  }

  async ok(method: string, urlPath: string, body?: unknown, token?: string): Promise<any> {
    const response = await this.request(method, urlPath, body, someClient(), token);
    if (response.status >= 300) throw new Error(`${method} ${urlPath} answered ${response.status}: ${JSON.stringify(response.body).slice(0, 300)}`);
    return response.body.data;
  }

  close(): void {
    this.agent.destroy();
  }
}
