// Writes test/file-durations.json (milliseconds per test file, the order the suite runs them in)
// from the results vitest keeps after a local run (node_modules/.vite/vitest/*/results.json).
// Run the whole suite first: `npm test && npm run test:durations`.
import fs from 'node:fs';
import path from 'node:path';
import { DURATIONS_FILE } from '../test/support/longest-first.ts';

const cacheRoot = path.join(import.meta.dirname, '..', 'node_modules', '.vite', 'vitest');
const durations: Record<string, number> = {};
const seenAt: Record<string, number> = {};
for (const dir of fs.existsSync(cacheRoot) ? fs.readdirSync(cacheRoot) : []) {
  const file = path.join(cacheRoot, dir, 'results.json');
  if (!fs.existsSync(file)) continue;
  const results = JSON.parse(fs.readFileSync(file, 'utf8')) as { projects: Record<string, { files: Record<string, { duration?: number; lastRun?: number }> }> };
  for (const project of Object.values(results.projects)) {
    for (const [name, result] of Object.entries(project.files)) {
      // the latest run of a file counts (a file can appear under an older project name too)
      const at = result.lastRun ?? 0;
      if (typeof result.duration !== 'number' || !fs.existsSync(name) || at < (seenAt[name] ?? -1)) continue;
      seenAt[name] = at;
      durations[name] = Math.round(result.duration / 100) * 100;
    }
  }
}
if (Object.keys(durations).length === 0) {
  console.error('test-durations: no results of a local run under node_modules/.vite/vitest; run npm test first');
  process.exit(1);
}
const sorted = Object.fromEntries(Object.entries(durations).sort(([a], [b]) => a.localeCompare(b)));
fs.writeFileSync(DURATIONS_FILE, `${JSON.stringify(sorted, null, 1)}\n`);
console.log(`test-durations: ${Object.keys(sorted).length} files written to ${path.relative(process.cwd(), DURATIONS_FILE)}`);
