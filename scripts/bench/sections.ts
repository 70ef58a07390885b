// The self-contained sections of `npm run bench` after the HTTP and events sections: each starts
// its own platform processes and database. A section adds itself: a folder under scripts/bench/
// with a `*-section.ts` that exports `benchSection` (bench-section.ts); they run in folder order.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchSection } from './bench-section.ts';

export type { SectionResult } from './section-result.ts';
export type { BenchSection } from './bench-section.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));

async function findSections(): Promise<BenchSection[]> {
  const files = fs.globSync('*/*-section.ts', { cwd: HERE }).sort();
  const found: BenchSection[] = [];
  for (const file of files) {
    const exported = (await import(path.join(HERE, file))) as { benchSection?: BenchSection };
    if (exported.benchSection) found.push(exported.benchSection);
  }
  return found;
}

export const SECTIONS: readonly BenchSection[] = await findSections();

/** Whether a BENCH_ONLY id names a section or one of its scenarios. */
export const isSectionId = (id: string): boolean => SECTIONS.some((s) => s.group === id || s.scenarios.includes(id));

/** The scenarios of `s` that BENCH_ONLY (`only`, empty: everything) selects. */
export const chosenScenarios = (s: BenchSection, only: readonly string[]): string[] =>
  only.length === 0 || only.includes(s.group) ? [...s.scenarios] : s.scenarios.filter((id) => only.includes(id));
