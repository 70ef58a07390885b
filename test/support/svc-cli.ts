// The `svc` command as an operator runs it: a child process with a fresh shell's environment,
// its stdout, stderr and exit status.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.dirname(fileURLToPath(new URL('../../package.json', import.meta.url)));
export const SVC = path.join(ROOT, 'src/cli/svc.ts');

export interface SvcRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** The environment of a fresh shell: no DATABASE_URL or other svc settings inherited from the test run. */
export function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(DATABASE_URL|DATA_DIR|PORT|HOST|TRUST_PROXY|PUBLIC_BASE_URL|TLS_|JWT_|EMBEDDED_PG_PORT|NODE_ENV|VITEST|TEST)/.test(key)) continue;
    env[key] = value;
  }
  return { ...env, LOG_LEVEL: 'silent', ...extra };
}

/** Runs `svc <args>` to its end (killed, and the promise rejected, after `timeoutMs`). */
export function runSvc(args: string[], env: Record<string, string>, timeoutMs = 60_000): Promise<SvcRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SVC, ...args], { cwd: ROOT, env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`svc ${args.join(' ')} did not finish in ${timeoutMs} ms\n${stdout}\n${stderr}`));
    }, timeoutMs);
    // 'close', not 'exit': the process may have exited before everything it printed was read
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}
