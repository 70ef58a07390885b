// The self-contained sections of `npm run bench` after the HTTP and events sections: each starts
// its own platform processes and database, and is selected by BENCH_ONLY with its group name (all
// its scenarios) or single scenario ids. Adding one: a folder under scripts/bench/ exporting a
// section of this shape, and one line in SECTIONS.
import type { SectionResult } from './section-result.ts';
import { FILE_SCENARIOS, runFilesSection } from './files/files-section.ts';
import { NOTIFICATION_SCENARIOS, runNotificationsSection } from './notifications/notifications-section.ts';
import { OUTGOING_MESSAGE_SCENARIOS, runOutgoingMessagesSection } from './outgoing-messages/outgoing-messages-section.ts';
import { COMMUNICATION_SCENARIOS, runCommunicationsSection } from './communications/communications-section.ts';
import { CONTENT_TEMPLATE_SCENARIOS, runContentTemplatesSection } from './content-templates/content-templates-section.ts';
import { SIGNING_SCENARIOS, runSigningSection } from './signing/signing-section.ts';
import { CONSTITUENT_AUTH_SCENARIOS, runConstituentAuthSection } from './constituent-auth/constituent-auth-section.ts';
import { TASK_LIST_SCENARIOS, runTaskListSection } from './background-tasks/task-list-section.ts';
import { EXPORT_SCENARIOS, runExportSection } from './background-tasks-export/export-section.ts';
import { IMPORT_SCENARIOS, runImportSection } from './background-tasks-import/import-section.ts';
import { DOCUMENT_GENERATION_SCENARIOS, runDocumentGenerationSection } from './document-generation/document-generation-section.ts';

export type { SectionResult } from './section-result.ts';

export interface BenchSection {
  /** the BENCH_ONLY id of all its scenarios, and its key in the JSON summary */
  group: string;
  scenarios: readonly string[];
  run(scenarios: readonly string[], progress: (line: string) => void): Promise<SectionResult>;
}

const section = <S extends string>(group: string, scenarios: readonly S[], run: (scenarios: readonly S[], progress: (line: string) => void) => Promise<SectionResult>): BenchSection => ({
  group,
  scenarios,
  run: (chosen, progress) => run(chosen as readonly S[], progress),
});

export const SECTIONS: readonly BenchSection[] = [
  section('files', FILE_SCENARIOS, runFilesSection),
  section('notifications', NOTIFICATION_SCENARIOS, runNotificationsSection),
  section('outgoing-messages', OUTGOING_MESSAGE_SCENARIOS, runOutgoingMessagesSection),
  section('communications', COMMUNICATION_SCENARIOS, runCommunicationsSection),
  section('content-templates', CONTENT_TEMPLATE_SCENARIOS, runContentTemplatesSection),
  section('signing', SIGNING_SCENARIOS, runSigningSection),
  section('constituent-auth', CONSTITUENT_AUTH_SCENARIOS, runConstituentAuthSection),
  section('background-tasks', TASK_LIST_SCENARIOS, runTaskListSection),
  section('background-tasks-export', EXPORT_SCENARIOS, runExportSection),
  section('background-tasks-import', IMPORT_SCENARIOS, runImportSection),
  section('document-generation', DOCUMENT_GENERATION_SCENARIOS, runDocumentGenerationSection),
];

/** Whether a BENCH_ONLY id names a section or one of its scenarios. */
export const isSectionId = (id: string): boolean => SECTIONS.some((s) => s.group === id || s.scenarios.includes(id));

/** The scenarios of `s` that BENCH_ONLY (`only`, empty: everything) selects. */
export const chosenScenarios = (s: BenchSection, only: readonly string[]): string[] =>
  only.length === 0 || only.includes(s.group) ? [...s.scenarios] : s.scenarios.filter((id) => only.includes(id));
