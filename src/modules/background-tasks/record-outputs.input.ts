// Inputs of record history, record-output download, eligible destinations and output defaults
// (docs/api/background-tasks.md "Record history and outputs"), shared by GraphQL (the services
// parse them) and the REST table.
import { z } from 'zod';
import { simplyIdPattern } from '../../app/ids.ts';

export const WRITE_MODES = ['REPLACE', 'APPEND'] as const;
export type WriteMode = (typeof WRITE_MODES)[number];

/** The task types whose work leaves record outputs (a file per record written into a field). */
export const OUTPUT_TASK_TYPES = ['DOCUMENT_GENERATION'] as const;

/** Field types a generated file can be written into. */
export const FILE_FIELD_TYPES: ReadonlySet<string> = new Set(['SINGLE_FILE', 'MULTI_FILE']);

export const RECORD_HISTORY_LIMITS = { defaultLimit: 25, maxLimit: 100 } as const;
export const OUTPUT_DOWNLOAD_SECONDS = 60;
export const DEFAULT_OUTPUT_KEY = 'document';

export const dataSimplyId = (label: string) =>
  z.string({ message: `must be a ${label} simplyId (XXXX-XXXX-XXXX)` }).regex(simplyIdPattern(), `must be a ${label} simplyId (XXXX-XXXX-XXXX)`);

/** Names one output of a task type per record ("document", "invoice_pdf"). */
export const outputKey = z
  .string({ message: 'must be a string' })
  .regex(/^[A-Za-z][A-Za-z0-9_.-]{0,63}$/, 'must be 1-64 letters, digits, "_", "-" or "." starting with a letter');

export const writeMode = z.enum(WRITE_MODES, { message: `must be one of ${WRITE_MODES.join(', ')}` });

export const outputTaskType = z.enum(OUTPUT_TASK_TYPES, { message: `must be a task type that writes record outputs: ${OUTPUT_TASK_TYPES.join(', ')}` });

const templateSimplyId = z.string().min(1).max(100);

export const recordHistoryQuery = {
  dataRecordSimplyId: dataSimplyId('record'),
  dataCollectionSimplyId: dataSimplyId('collection').optional(),
};
export const recordHistoryInput = z.object(recordHistoryQuery).strict();

export const eligibleDestinationsQuery = {
  dataCollectionSimplyId: dataSimplyId('collection'),
  enumBackgroundTaskTypeId: outputTaskType,
  outputKey,
  sourceContentTemplateSimplyId: templateSimplyId.optional(),
};
export const eligibleDestinationsInput = z.object(eligibleDestinationsQuery).strict();

export const upsertOutputDefaultInput = z
  .object({
    dataCollectionSimplyId: dataSimplyId('collection'),
    enumBackgroundTaskTypeId: outputTaskType,
    outputKey,
    dataFieldSimplyId: z.string().min(1).max(100),
    writeMode,
    isEnabled: z.boolean().optional().describe('default true; a disabled default is kept but not used'),
    sourceContentTemplateSimplyId: templateSimplyId.nullable().optional().describe('the default applies to this template only; absent: to every template'),
  })
  .strict();
export type UpsertOutputDefault = z.output<typeof upsertOutputDefaultInput>;
