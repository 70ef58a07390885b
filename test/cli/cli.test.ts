// The `svc` command as an operator runs it (test/support/svc-cli.ts): a child process, its stdout and exit code.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Agent, fetch } from 'undici';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { uniqueEmail } from '../support/fixtures.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { cleanEnv, ROOT, runSvc, SVC, type SvcRun } from '../support/svc-cli.ts';
import { freePort } from '../../src/db/free-port.ts';

/** temporary data folders, removed after the file */
const folders: string[] = [];
const BOOTSTRAP_KEYS = ['apiKey', 'apiKeySimplyId', 'baseUrl', 'caCertFile', 'email', 'password', 'teamSimplyId', 'userSimplyId', 'userToken'];

/** A data folder the embedded cluster's `postgres` OS user can enter when the tests run as root. */
function dataDir(label: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `svc-cli-${label}-`));
  fs.chmodSync(dir, 0o755);
  folders.push(dir);
  return dir;
}

function parseBootstrap(run: SvcRun) {
  expect(run.code, run.stderr).toBe(0);
  const lines = run.stdout.split('\n').filter((l) => l.trim() !== '');
  expect(lines, run.stdout).toHaveLength(1);
  const output = JSON.parse(lines[0]!) as Record<string, string>;
  expect(Object.keys(output).sort()).toEqual(BOOTSTRAP_KEYS);
  for (const key of BOOTSTRAP_KEYS) expect(typeof output[key], key).toBe('string');
  return output;
}

afterAll(() => {
  for (const dir of folders) fs.rmSync(dir, { recursive: true, force: true });
});

describe('svc against DATABASE_URL', () => {
  let server: TestServer | undefined;
  afterAll(() => server?.close());

  it('bootstrap prints one JSON object whose apiKey and userToken work on a server sharing DATA_DIR', async () => {
    const dir = dataDir('bootstrap');
    const email = uniqueEmail('cli');
    const run = await runSvc(['bootstrap', '--team', 'CLI Team', '--email', email], { DATABASE_URL: inject('databaseUrl'), DATA_DIR: dir });
    const output = parseBootstrap(run);
    expect(output.email).toBe(email);
    expect(output.teamSimplyId).toMatch(/^tm-/);
    expect(output.userSimplyId).toMatch(/^usr-/);
    expect(output.password!.length).toBeGreaterThanOrEqual(12);
    expect(output.baseUrl).toBe('https://127.0.0.1:8443');
    // where the server sharing DATA_DIR puts its self-signed certificate
    expect(output.caCertFile).toBe(path.join(dir, 'tls/self-signed-cert.pem'));

    server = await startTestServer({ dataDir: dir });
    const roles = await server.request('GET', '/v1/team-roles', { token: output.apiKey });
    expect(roles.status).toBe(200);
    expect(roles.body.data.length).toBeGreaterThanOrEqual(1);
    const me = await server.request('GET', '/v1/users/me', { token: output.userToken, teamId: output.teamSimplyId });
    expect(me.status).toBe(200);
    expect(me.body.data).toMatchObject({ userSimplyId: output.userSimplyId, email, isTeamAdmin: true });
    const login = await server.request('POST', '/v1/auth/login', { body: { email, password: output.password } });
    expect(login.status).toBe(200);
  });

  it('migrate --status prints JSON', async () => {
    const run = await runSvc(['migrate', '--status'], { DATABASE_URL: inject('databaseUrl'), DATA_DIR: dataDir('status') });
    expect(run.code, run.stderr).toBe(0);
    const status = JSON.parse(run.stdout);
    expect(status).toMatchObject({ pending: [], failed: [], hasMigrationsTable: true });
    expect(status.applied.length).toBeGreaterThan(0);
    const folder = fs.readdirSync(path.join(ROOT, 'prisma/migrations')).filter((n) => fs.statSync(path.join(ROOT, 'prisma/migrations', n)).isDirectory());
    expect(status.applied).toEqual(expect.arrayContaining(folder));
  });

  it('an unknown command exits 2 with the usage; help exits 0; bootstrap without --email exits 2', async () => {
    const env = { DATABASE_URL: inject('databaseUrl'), DATA_DIR: dataDir('usage') };
    const [unknown, help, incomplete] = await Promise.all([runSvc(['frobnicate'], env), runSvc(['help'], env), runSvc(['bootstrap', '--team', 'No email'], env)]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^usage: svc <command>/);
    expect(unknown.stdout).toBe('');
    expect(help.code).toBe(0);
    expect(help.stderr).toMatch(/^usage: svc/);
    expect(incomplete.code).toBe(2);
    expect(incomplete.stdout).toBe('');
  });
});

describe('svc with the embedded database (no DATABASE_URL)', () => {
  let server: ChildProcess | undefined;
  let dir: string;
  afterAll(async () => {
    if (server && server.exitCode === null && server.signalCode === null) {
      server.kill('SIGKILL');
      // the embedded postmaster outlives a killed parent: stop it too
      try {
        const pid = Number(fs.readFileSync(path.join(dir, 'postgres/cluster/postmaster.pid'), 'utf8').split('\n')[0]);
        if (pid > 0) process.kill(pid, 'SIGINT');
      } catch {
        // not running
      }
    }
  });

  it('bootstrap reuses the cluster of a running `svc start`, which then stops cleanly on SIGTERM', { timeout: 120_000 }, async () => {
    dir = dataDir('embedded');
    const port = await freePort();
    const env = { DATA_DIR: dir, PORT: String(port) };
    const child = spawn(process.execPath, [SVC, 'start'], { cwd: ROOT, env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    server = child;
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
    const baseUrl = await new Promise<string>((resolve, reject) => {
      const deadline = setTimeout(() => reject(new Error(`svc start not ready in 90 s\n${stdout}\n${stderr}`)), 90_000);
      const check = () => {
        // the banner is for the terminal, on stderr (stdout carries only JSON log lines)
        const m = /svc platform ready at (\S+)/.exec(stderr);
        if (m) {
          clearTimeout(deadline);
          resolve(m[1]!);
        }
      };
      child.stderr!.on('data', check);
      void exited.then(() => reject(new Error(`svc start exited early\n${stdout}\n${stderr}`)));
    });
    expect(baseUrl).toBe(`https://127.0.0.1:${port}`);
    const pidFile = path.join(dir, 'postgres/cluster/postmaster.pid');
    expect(fs.existsSync(pidFile)).toBe(true);
    const postmasterPid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);

    const email = uniqueEmail('embedded');
    const run = await runSvc(['bootstrap', '--team', 'Embedded Team', '--email', email], env);
    const output = parseBootstrap(run);
    expect(output.baseUrl).toBe(baseUrl);
    // the same cluster, still running: bootstrap did not start (or stop) one of its own
    expect(Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0])).toBe(postmasterPid);

    expect(output.caCertFile).toBe(path.join(dir, 'tls/self-signed-cert.pem'));
    const ca = fs.readFileSync(output.caCertFile!, 'utf8');
    const agent = new Agent({ connect: { ca } });
    try {
      const roles = await fetch(`${baseUrl}/v1/team-roles`, { dispatcher: agent, headers: { authorization: `Bearer ${output.apiKey}` } });
      expect(roles.status).toBe(200);
      expect(((await roles.json()) as { data: unknown[] }).data.length).toBeGreaterThanOrEqual(1);
      const me = await fetch(`${baseUrl}/v1/users/me`, { dispatcher: agent, headers: { authorization: `Bearer ${output.userToken}`, 'x-team-id': output.teamSimplyId } });
      expect(me.status).toBe(200);
      await me.text();
    } finally {
      await agent.close();
    }

    const stopping = Date.now();
    child.kill('SIGTERM');
    const result = await Promise.race([exited, new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 15_000))]);
    expect(result, stderr).toEqual({ code: 0, signal: null });
    expect(Date.now() - stopping).toBeLessThan(10_000);
    // the embedded cluster was stopped with the server
    expect(fs.existsSync(pidFile)).toBe(false);
    expect(() => process.kill(postmasterPid, 0)).toThrow();
  });
});
