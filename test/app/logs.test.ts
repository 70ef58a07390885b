// The log of a real `svc start` (embedded PostgreSQL, as the README runs it): stdout holds only
// JSON lines, the embedded PostgreSQL's own output among them; one access line per request, with
// its route template and credential kind and never a credential; "stopped" last, after SIGTERM.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Agent, fetch } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { uniqueEmail } from '../support/fixtures.ts';
import { cleanEnv, runSvc, SVC } from '../support/svc-cli.ts';
import { untilWith } from '../support/until.ts';
import { startChildProcess } from '../support/worker-process.ts';

const until = untilWith({ timeoutMs: 90_000, everyMs: 100 });
const METRICS_TOKEN = 'logs-test-metrics-token-0123456789';
const cleanups: (() => Promise<unknown>)[] = [];
let dataDir = '';

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  // a killed server leaves its embedded postmaster behind: stop that too
  try {
    const pid = Number(fs.readFileSync(path.join(dataDir, 'postgres/cluster/postmaster.pid'), 'utf8').split('\n')[0]);
    if (pid > 0) process.kill(pid, 'SIGINT');
  } catch {
    // not running
  }
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

interface LogLine {
  level: number;
  msg: string;
  [key: string]: unknown;
}

describe('the log of `svc start`', () => {
  it('is JSON lines only, one access line per request without credentials, ending with "stopped"', { timeout: 180_000 }, async () => {
    // as root, the embedded cluster runs as `postgres`, which must be able to enter the folder
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-logs-'));
    fs.chmodSync(dataDir, 0o755);
    const env = { DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'debug', METRICS_TOKEN };
    const { child, stdout, stderr, exited, outputRead } = startChildProcess([SVC, 'start'], cleanEnv(env), cleanups);
    const baseUrl = await until('the server to be ready', () => /ready at (\S+)/.exec(stderr())?.[1] ?? (child.exitCode !== null && Promise.reject(new Error(stderr()))));

    // a team and its credentials, made against the running server's cluster
    const bootstrap = await runSvc(['bootstrap', '--team', 'Logs', '--email', uniqueEmail('logs')], { DATA_DIR: dataDir });
    expect(bootstrap.code, bootstrap.stderr).toBe(0);
    const team = JSON.parse(bootstrap.stdout) as { apiKey: string; userToken: string; email: string; password: string; teamSimplyId: string };

    const dispatcher = new Agent({ connect: { ca: fs.readFileSync(path.join(dataDir, 'tls/self-signed-cert.pem'), 'utf8') } });
    cleanups.push(() => dispatcher.close());
    const bogusKey = 'svc_live_thisKeyDoesNotExist0123456789abcdef';
    const call = async (method: string, urlPath: string, headers: Record<string, string> = {}, body?: unknown) => {
      const response = await fetch(`${baseUrl}${urlPath}`, {
        method,
        dispatcher,
        headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, requestId: response.headers.get('x-request-id')!, text };
    };
    const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
    const calls = [
      { expect: { route: '/healthz', status: 200, credentialKind: 'anonymous' }, ...(await call('GET', '/healthz')) },
      { expect: { route: '/v1/team-roles', status: 401, credentialKind: 'unverified' }, ...(await call('GET', '/v1/team-roles', bearer(bogusKey))) },
      { expect: { route: '/v1/team-roles', status: 200, credentialKind: 'api_key' }, ...(await call('GET', '/v1/team-roles', bearer(team.apiKey))) },
      {
        expect: { route: '/graphql', status: 200, credentialKind: 'user' },
        ...(await call('POST', '/graphql', { ...bearer(team.userToken), 'x-team-id': team.teamSimplyId }, { query: '{ viewer { credentialKind } }' })),
      },
      { expect: { route: '/v1/auth/login', status: 200, credentialKind: 'anonymous' }, ...(await call('POST', '/v1/auth/login', {}, { email: team.email, password: team.password })) },
      { expect: { route: '/metrics', status: 200, credentialKind: 'metrics_token' }, ...(await call('GET', '/metrics', bearer(METRICS_TOKEN))) },
      { expect: { route: 'unmatched', status: 404, credentialKind: 'anonymous' }, ...(await call('GET', `/no/such/${team.teamSimplyId}`)) },
    ];
    for (const c of calls) expect(c.status, c.text).toBe(c.expect.status);

    child.kill('SIGTERM');
    const { code } = await exited;
    expect(code).toBe(0);
    await outputRead;

    const lines = stdout().split('\n').filter((line) => line !== '');
    const parsed: LogLine[] = [];
    for (const line of lines) {
      let entry: LogLine;
      try {
        entry = JSON.parse(line) as LogLine;
      } catch {
        throw new Error(`a stdout line that is not JSON: ${line}`);
      }
      expect(typeof entry.level).toBe('number');
      expect(typeof entry.msg).toBe('string');
      parsed.push(entry);
    }
    // the embedded PostgreSQL's own lines come through the logger too
    expect(parsed.some((e) => e.source === 'postgres')).toBe(true);

    const access = parsed.filter((e) => e.msg === 'request');
    for (const c of calls) {
      const mine = access.filter((e) => e.requestId === c.requestId);
      expect(mine, `the access line of ${c.expect.route}`).toHaveLength(1);
      expect(mine[0]).toMatchObject({ ...c.expect, method: expect.any(String), durationMs: expect.any(Number) });
      expect(mine[0]!.durationMs as number).toBeGreaterThanOrEqual(0);
    }
    expect(access).toHaveLength(calls.length);
    // no credential, secret or personal value in any line
    const all = stdout();
    for (const secret of [team.apiKey, team.userToken, team.password, bogusKey, METRICS_TOKEN]) expect(all).not.toContain(secret);
    // the platform's last line: everything closed (the embedded PostgreSQL's own last line, logged
    // as it stops, can reach stdout just after it)
    expect(parsed.filter((e) => e.source !== 'postgres').at(-1)).toMatchObject({ msg: 'stopped', level: 30 });
  });
});

describe('LOG_FORMAT=pretty', () => {
  it('writes readable lines instead of JSON', async () => {
    // pino-pretty writes to file descriptor 1 itself: watch it in a process of its own
    const script = `import { createLogger } from ${JSON.stringify(path.resolve('src/app/logger.ts'))};
      createLogger('info', 'svc', 'pretty').info({ route: '/healthz', status: 200 }, 'request');`;
    const { stdout, exited } = startChildProcess(['--input-type=module', '-e', script], { ...process.env }, cleanups);
    expect((await exited).code).toBe(0);
    const [line] = stdout().trim().split('\n');
    expect(line).toMatch(/INFO \(svc\): request/);
    expect(line).toContain('"route":"/healthz"');
    expect(() => JSON.parse(line!)).toThrow();
  });
});
