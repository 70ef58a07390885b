// The README's "Calling the API" examples run as pasted: a fresh `svc start` (as `npm start` runs
// it, with its own DATA_DIR and PORT), then every command of the marked sh blocks in one bash
// session, from a folder that looks like the project folder to them. Each command must exit 0 and
// print what the README shows under it (`# →`), or nothing; the variables it sets must hold values.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Agent, fetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSample, readmeCommands, readmeShellBlocks, sampleMismatches, type ReadmeCommand } from '../support/readme-examples.ts';
import { cleanEnv, ROOT, SVC } from '../support/svc-cli.ts';
import { untilWith } from '../support/until.ts';
import { startChildProcess, type ChildProcess } from '../support/worker-process.ts';
import { freePort } from '../../src/db/free-port.ts';

const until = untilWith({ timeoutMs: 45_000, everyMs: 200 });
/** the port the README's samples show; the test's server listens elsewhere */
const README_PORT = '8443';
/** what the examples use of the project folder (the working folder links to them) */
const PROJECT_ENTRIES = ['package.json', '.node-version', 'scripts', 'src', 'node_modules', 'prisma', 'bin'];

const cleanups: (() => Promise<unknown>)[] = [];
const commands: ReadmeCommand[] = readmeCommands(readmeShellBlocks(fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8')));

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
  variables: Record<string, string>;
}

let port: number;
let dataDir: string;
let workDir: string;
let outcomes: Outcome[] = [];
let bashFailure = '';

/** A temporary folder the embedded cluster's `postgres` user can enter when the tests run as root. */
function tempDir(label: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `svc-readme-${label}-`));
  fs.chmodSync(dir, 0o755);
  cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function startServer(env: Record<string, string>): Promise<ChildProcess> {
  const server = startChildProcess([SVC, 'start'], cleanEnv(env), cleanups);
  const certFile = path.join(dataDir, 'tls', 'self-signed-cert.pem');
  let agent: Agent | undefined;
  try {
    await until('`svc start` to answer /readyz', async () => {
      if (server.child.exitCode !== null) throw new Error(`svc start exited (${server.child.exitCode})\n${server.stdout()}\n${server.stderr()}`);
      if (!fs.existsSync(certFile)) return false;
      agent ??= new Agent({ connect: { ca: fs.readFileSync(certFile, 'utf8') } });
      try {
        const ready = await fetch(`https://127.0.0.1:${port}/readyz`, { dispatcher: agent });
        await ready.text();
        return ready.status === 200;
      } catch {
        return false;
      }
    });
  } finally {
    await agent?.close();
  }
  return server;
}

/** Stops the server as an operator does, and its embedded cluster with it. */
async function stopServer(server: ChildProcess): Promise<void> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return;
  server.child.kill('SIGTERM');
  const stopped = await Promise.race([server.exited, new Promise<null>((r) => setTimeout(() => r(null), 30_000))]);
  if (stopped) return;
  server.child.kill('SIGKILL');
  // a killed parent leaves the embedded postmaster running
  try {
    const pid = Number(fs.readFileSync(path.join(dataDir, 'postgres/cluster/postmaster.pid'), 'utf8').split('\n')[0]);
    if (pid > 0) process.kill(pid, 'SIGINT');
  } catch {
    // not running
  }
}

/** One bash script running every command in the same shell, each one's output and status kept apart. */
function bashScript(outDir: string): string {
  const lines = ['set -o pipefail'];
  commands.forEach((command, i) => {
    lines.push(`{ ${command.text}\n} > ${outDir}/${i}.out 2> ${outDir}/${i}.err; echo $? > ${outDir}/${i}.rc`);
    for (const name of command.assigns) lines.push(`printf '%s' "$${name}" > ${outDir}/${i}.var.${name}`);
  });
  return `${lines.join('\n')}\n`;
}

async function runCommands(env: Record<string, string>): Promise<Outcome[]> {
  const outDir = tempDir('out');
  fs.writeFileSync(path.join(outDir, 'examples.sh'), bashScript(outDir));
  // its own process group, so that a background command still running at the end is ended with it
  const bash = spawn('bash', [path.join(outDir, 'examples.sh')], { cwd: workDir, env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  bash.stdout.on('data', (c: Buffer) => (output += c.toString()));
  bash.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const killGroup = () => {
    try {
      process.kill(-bash.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  };
  cleanups.push(async () => killGroup());
  const code = await new Promise<number | null>((resolve) => {
    const timer = setTimeout(() => {
      bashFailure = `the examples did not finish in 50 s\n${output}`;
      killGroup();
    }, 50_000);
    bash.on('exit', (exitCode) => {
      clearTimeout(timer);
      resolve(exitCode);
    });
  });
  if (code !== 0 && !bashFailure) bashFailure = `bash exited ${code}\n${output}`;
  const read = (file: string) => (fs.existsSync(path.join(outDir, file)) ? fs.readFileSync(path.join(outDir, file), 'utf8') : '');
  return commands.map((command, i) => ({
    code: read(`${i}.rc`) === '' ? null : Number(read(`${i}.rc`)),
    stdout: read(`${i}.out`),
    stderr: read(`${i}.err`),
    variables: Object.fromEntries(command.assigns.map((name) => [name, read(`${i}.var.${name}`)])),
  }));
}

beforeAll(async () => {
  port = await freePort();
  // a DATA_DIR away from the working folder: the examples must take the certificate's path from bootstrap
  dataDir = path.join(tempDir('data'), '.data');
  workDir = tempDir('work');
  for (const entry of PROJECT_ENTRIES) fs.symlinkSync(path.join(ROOT, entry), path.join(workDir, entry));
  // the project's Node first on PATH, as scripts/with-node.sh leaves it
  const env = { DATA_DIR: dataDir, PORT: String(port), PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ''}` };
  const server = await startServer(env);
  cleanups.push(() => stopServer(server));
  outcomes = await runCommands(env);
}, 120_000);

afterAll(async () => {
  for (const step of cleanups.reverse()) await step();
});

describe('README "Calling the API"', () => {
  it('follows the two commands the README starts with', () => {
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const first = /^```sh\n([\s\S]*?)^```$/m.exec(readme)![1]!;
    expect(first).toMatch(/^scripts\/with-node\.sh npm install && scripts\/with-node\.sh npm start\b/);
    expect(first).toMatch(/^scripts\/with-node\.sh npm test\b/m);
    expect(commands.length).toBeGreaterThanOrEqual(10);
    expect(commands[0]!.text).toMatch(/^scripts\/with-node\.sh npm run -s svc -- bootstrap .* > team\.json$/);
  });

  it('runs to its end in one bash session', () => {
    expect(bashFailure).toBe('');
  });

  it.each(commands.map((command, i) => [i, command.text.split('\n')[0]!] as const))('command %i exits 0 and prints what the README shows: %s', (i) => {
    const command = commands[i]!;
    const outcome = outcomes[i]!;
    const context = `${command.text}\n--- stdout\n${outcome.stdout}\n--- stderr\n${outcome.stderr}`;
    expect(outcome.code, context).toBe(0);
    if (command.sample === undefined) {
      expect(outcome.stdout, context).toBe('');
    } else {
      const sample = parseSample(command.sample.replaceAll(`127.0.0.1:${README_PORT}`, `127.0.0.1:${port}`));
      const lines = outcome.stdout.split('\n').filter((line) => line.trim() !== '');
      expect(lines.length, context).toBeGreaterThanOrEqual(1);
      for (const line of lines) expect(sampleMismatches(JSON.parse(line), sample), context).toEqual([]);
    }
    for (const [name, value] of Object.entries(outcome.variables)) {
      expect(value, `${name} set by\n${context}`).not.toMatch(/^(|null|undefined)$/);
    }
  });

  it('bootstrap named the certificate of the server, in its DATA_DIR', () => {
    const team = JSON.parse(fs.readFileSync(path.join(workDir, 'team.json'), 'utf8')) as Record<string, string>;
    expect(team.caCertFile).toBe(path.join(dataDir, 'tls', 'self-signed-cert.pem'));
    expect(team.baseUrl).toBe(`https://127.0.0.1:${port}`);
  });
});
