// Runs the longest test files first (measured durations in test/file-durations.json), so that no
// long file starts last and leaves the other worker idle at the end. Vitest's own order needs a
// previous run's results on the machine; a fresh clone (CI) would otherwise start the biggest files
// by size. A file missing from the table counts as a median one. `npm run test:durations` refreshes
// the table from the last local run.
import fs from 'node:fs';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

export const DURATIONS_FILE = path.join(import.meta.dirname, '..', 'file-durations.json');

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const table = JSON.parse(fs.readFileSync(DURATIONS_FILE, 'utf8')) as Record<string, number>;
    const known = Object.values(table).sort((a, b) => a - b);
    const median = known[Math.floor(known.length / 2)] ?? 0;
    const root = process.cwd();
    const duration = (spec: TestSpecification) => table[path.relative(root, spec.moduleId)] ?? median;
    return [...files].sort((a, b) => duration(b) - duration(a));
  }
}
