// Pitfall 4: the wasm engine arms setTimeouts it never clears, which kept a process that had
// finished its migrations alive for ~10 s (a CLI command, a deploy step, a test worker).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, inject, it } from 'vitest';
import { useThrowawayDatabase } from './helpers.ts';

const serverUrl = inject('databaseUrl');
const FIXTURE = fileURLToPath(new URL('./fixtures/apply-then-return.ts', import.meta.url));

describe('a process that applied migrations', () => {
  const db = useThrowawayDatabase(serverUrl, 'exit');

  it('exits as soon as its work is done', async () => {
    const child = spawn(process.execPath, [FIXTURE, db.url], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    let doneAt = 0;
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (!doneAt && output.includes('done')) doneAt = Date.now();
    });
    const exitCode = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    const lingeredMs = Date.now() - doneAt;

    expect(stderr).toBe('');
    expect(exitCode).toBe(0);
    expect(output).toMatch(/applied 1 migration/);
    expect(doneAt).toBeGreaterThan(0);
    expect(lingeredMs).toBeLessThan(2000);
  });
});
