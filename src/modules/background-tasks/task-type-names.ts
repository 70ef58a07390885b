// The task type names the documents give, and which of them are whose to see (rule 1). Kept apart
// from the task contract (task-types.ts) so visibility and inputs need nothing else.
/** Every type the documents name; the ones listed in task-type-list.ts run here. */
export const KNOWN_TASK_TYPES = [
  'BULK_DATA_IMPORT',
  'DATA_EXPORT',
  'DOCUMENT_GENERATION',
  'WEBSITE_COPY',
  'EXTERNAL_FILE_IMPORT',
  'IMAGE_VARIANT_GENERATION',
  'BULK_DELETE',
  'WEBSITE_TEMPLATE_RELEASE',
  'WEBSITE_DYNAMIC_REFRESH',
  'BLUEPRINT_INSTALL',
  'BLUEPRINT_UPGRADE',
  'BLUEPRINT_SEED',
  'DUPLICATE_MERGE',
  'WEBSITE_IMPORT',
  'WEBSITE_TRANSLATION',
] as const;
export type TaskTypeName = (typeof KNOWN_TASK_TYPES)[number];

/** Rule 1: types whose tasks are their starter's own (others see them only as team admins). */
export const USER_SCOPED_TYPES: ReadonlySet<string> = new Set(['EXTERNAL_FILE_IMPORT', 'IMAGE_VARIANT_GENERATION', 'BULK_DATA_IMPORT', 'DATA_EXPORT', 'BULK_DELETE', 'DOCUMENT_GENERATION']);

/** Rule 1: the feature permission a team-visible type additionally needs (by type prefix). */
export const TEAM_VISIBLE_FEATURE: Readonly<Record<string, string>> = {
  WEBSITE_COPY: 'TEAM_WEBSITES',
  WEBSITE_TEMPLATE_RELEASE: 'TEAM_WEBSITES',
  WEBSITE_DYNAMIC_REFRESH: 'TEAM_WEBSITES',
  WEBSITE_IMPORT: 'TEAM_WEBSITES',
  WEBSITE_TRANSLATION: 'TEAM_WEBSITES',
};
