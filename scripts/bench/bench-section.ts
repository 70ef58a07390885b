// The shape of a self-contained bench section (scripts/bench/sections.ts finds them): each folder
// under scripts/bench/ with a `*-section.ts` exporting `benchSection` is one, selected by
// BENCH_ONLY with its group name (all its scenarios) or single scenario ids. Its `run` is usually
// runSection or runScenarios (section-bed.ts), which own the set-up, failures and teardown.
import type { SectionResult } from './section-result.ts';

export interface BenchSection {
  /** the BENCH_ONLY id of all its scenarios, and its key in the JSON summary */
  group: string;
  scenarios: readonly string[];
  run(scenarios: readonly string[], progress: (line: string) => void): Promise<SectionResult>;
}

/** Keeps a section's own scenario type while it joins the list of sections. */
export const defineBenchSection = <S extends string>(
  group: string,
  scenarios: readonly S[],
  run: (scenarios: readonly S[], progress: (line: string) => void) => Promise<SectionResult>,
): BenchSection => ({
  group,
  scenarios,
  run: (chosen, progress) => run(chosen as readonly S[], progress),
});
