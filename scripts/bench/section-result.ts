// What a self-contained section of `npm run bench` answers (sections.ts lists the sections).
import type { TargetOutcome } from './report.ts';

export interface SectionResult {
  lines: string[];
  targets: TargetOutcome[];
  summary: Record<string, unknown>;
  failed: boolean;
}
