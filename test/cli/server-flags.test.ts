// Serving processes replace themselves (same pid, no parent left) with one under the server heap
// flags, keep flags the caller chose (command line or NODE_OPTIONS), and exit with its status.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const flagsModule = fileURLToPath(new URL('../../src/cli/server-flags.ts', import.meta.url));
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'server-flags-'));
const script = path.join(dir, 'serve.mjs');
fs.writeFileSync(
  script,
  `import v8 from 'node:v8';
import { relaunchWithServerFlags } from ${JSON.stringify(flagsModule)};
if (!relaunchWithServerFlags()) {
  const oldSpaceLimit = v8.getHeapStatistics().heap_size_limit;
  console.log(JSON.stringify({ pid: process.pid, execArgv: process.execArgv, argv: process.argv.slice(2), arenas: process.env.MALLOC_ARENA_MAX ?? null, oldSpaceLimitMiB: Math.round(oldSpaceLimit / 1048576) }));
  process.exit(Number(process.argv[2] ?? 0));
}
`,
);

function run(args: string[], env: NodeJS.ProcessEnv = {}) {
  const { SVC_NO_RELAUNCH: _, MALLOC_ARENA_MAX: __, ...parentEnv } = process.env;
  const result = spawnSync(process.execPath, [...args], { env: { ...parentEnv, NODE_OPTIONS: '', ...env }, encoding: 'utf8', timeout: 60_000 });
  return { pid: result.pid, status: result.status, out: result.stdout.trim() ? JSON.parse(result.stdout.trim().split('\n').at(-1)!) : null, stderr: result.stderr };
}

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('relaunchWithServerFlags', () => {
  it('adds the heap flags and MALLOC_ARENA_MAX=2, passes the arguments on and exits with the relaunched status', () => {
    const { pid, status, out, stderr } = run([script, '3', 'extra']);
    expect(status, stderr).toBe(3);
    // the process replaced itself: the one started is the one serving, with no parent waiting
    expect(out.pid).toBe(pid);
    expect(stderr).toBe('');
    expect(out.execArgv).toEqual(expect.arrayContaining(['--max-semi-space-size=16', '--max-old-space-size=256']));
    expect(out.argv).toEqual(['3', 'extra']);
    expect(out.arenas).toBe('2');
    // V8's limit is the old space plus the young generation
    expect(out.oldSpaceLimitMiB).toBeGreaterThanOrEqual(256);
    expect(out.oldSpaceLimitMiB).toBeLessThan(400);
  });

  it('keeps a limit the caller chose on the command line or in NODE_OPTIONS, and their MALLOC_ARENA_MAX', () => {
    const commandLine = run(['--max-old-space-size=700', script]);
    expect(commandLine.status, commandLine.stderr).toBe(0);
    expect(commandLine.out.execArgv).toContain('--max-semi-space-size=16');
    expect(commandLine.out.execArgv).not.toContain('--max-old-space-size=256');
    expect(commandLine.out.oldSpaceLimitMiB).toBeGreaterThanOrEqual(700);

    const nodeOptions = run([script], { NODE_OPTIONS: '--max-old-space-size=700', MALLOC_ARENA_MAX: '4' });
    expect(nodeOptions.status, nodeOptions.stderr).toBe(0);
    expect(nodeOptions.out.execArgv).not.toContain('--max-old-space-size=256');
    expect(nodeOptions.out.oldSpaceLimitMiB).toBeGreaterThanOrEqual(700);
    expect(nodeOptions.out.arenas).toBe('4');
  });
});
