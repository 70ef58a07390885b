// A serving process that had to strip TypeScript replaces itself, once, with one that finds every
// source in Node's compile cache and so never loads the stripper.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const relaunchModule = fileURLToPath(new URL('../../src/cli/compiled-relaunch.ts', import.meta.url));
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'compiled-relaunch-'));
const cache = path.join(dir, 'cache');
const script = path.join(dir, 'serve.mjs');
fs.writeFileSync(
  script,
  `import { replaceOnceCompiled, strippedTypeScript } from ${JSON.stringify(relaunchModule)};
replaceOnceCompiled();
console.log(JSON.stringify({ pid: process.pid, stripper: strippedTypeScript(), replaced: process.env.SVC_COMPILED_RELAUNCH ?? null }));
`,
);

function run(env: NodeJS.ProcessEnv) {
  const { SVC_COMPILED_RELAUNCH: _, NODE_COMPILE_CACHE: __, NODE_DISABLE_COMPILE_CACHE: ___, ...parentEnv } = process.env;
  const result = spawnSync(process.execPath, [script], { env: { ...parentEnv, NODE_OPTIONS: '', ...env }, encoding: 'utf8', timeout: 60_000 });
  expect(result.status, result.stderr).toBe(0);
  return { pid: result.pid, out: JSON.parse(result.stdout.trim()), stderr: result.stderr };
}

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('replaceOnceCompiled', () => {
  it('replaces a process that stripped TypeScript once, and the cache then spares every later start', () => {
    const first = run({ NODE_COMPILE_CACHE: cache });
    // the same pid: the process replaced itself, and what it runs as now never loaded the stripper
    expect(first.out).toEqual({ pid: first.pid, stripper: false, replaced: '1' });
    expect(first.stderr).toBe('');

    const later = run({ NODE_COMPILE_CACHE: cache });
    expect(later.out).toEqual({ pid: later.pid, stripper: false, replaced: null });
  });

  it('leaves a process alone when the compile cache is off', () => {
    const { out } = run({ NODE_DISABLE_COMPILE_CACHE: '1' });
    expect(out).toMatchObject({ stripper: true, replaced: null });
  });
});
