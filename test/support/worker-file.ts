// Setup file of every test file: notes, per worker process, which file it runs now, so that the
// stall watchdog (stall-watchdog.ts, in Vitest's main process) can tell which process is stuck.
import fs from 'node:fs';
import { beforeAll } from 'vitest';
import { workerNotesDir } from './stall-notes.ts';

// the first argument is the fixtures (none used), the second the file's suite
beforeAll(({}, suite) => {
  const file = (suite as { file?: { filepath?: string } }).file?.filepath;
  if (!file) return;
  const dir = workerNotesDir(process.ppid);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(`${dir}/${process.pid}`, file);
});
