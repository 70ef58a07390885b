// `npm test`: the whole suite (vitest run, arguments passed on), and one more run of any file the
// stall watchdog had to stop (test/support/stall-watchdog.ts) when those are the only failures. A
// stuck file is printed with what its worker was doing, whether its second run passes or not: the
// run ends in minutes either way instead of waiting for ever.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { STALL_REPORT_ENV, type StallReport } from '../test/support/stall-notes.ts';

const vitest = path.join(import.meta.dirname, '..', 'node_modules', '.bin', 'vitest');
const report = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'svc-test-run-')), 'stalls.json');

function run(args: string[]): number {
  fs.rmSync(report, { force: true });
  const result = spawnSync(vitest, ['run', ...args], { stdio: 'inherit', env: { ...process.env, [STALL_REPORT_ENV]: report } });
  return result.status ?? 1;
}

function stalls(): StallReport {
  return fs.existsSync(report) ? (JSON.parse(fs.readFileSync(report, 'utf8')) as StallReport) : { stalled: [], failed: [] };
}

const args = process.argv.slice(2);
let status = run(args);
const first = stalls();
if (status !== 0 && first.stalled.length > 0 && first.failed.every((file) => first.stalled.includes(file))) {
  const files = first.stalled.map((file) => path.relative(process.cwd(), file));
  process.stderr.write(`\nnpm test: ${files.join(', ')} stalled (see [stall-watchdog] above); running ${files.length === 1 ? 'it' : 'them'} once more\n`);
  status = run(files);
}
fs.rmSync(path.dirname(report), { recursive: true, force: true });
process.exit(status);
