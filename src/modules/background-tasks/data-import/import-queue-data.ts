// What a BULK_DATA_IMPORT task takes (docs/api/background-tasks.md "Import"): the uploaded CSV
// file, the collection, which column feeds which field, and how rows become records. Checked
// with zod so a malformed queueData is a 400 naming `queueData.<path>`.
import { z } from 'zod';
import { parseInput } from '../../../app/validate.ts';

export const IMPORT_MODES = ['CREATE', 'UPDATE', 'UPSERT'] as const;
export type ImportMode = (typeof IMPORT_MODES)[number];

/** the most mapped columns one import takes (a collection rarely has more fields) */
const MAX_MAPPINGS = 500;

const mappingEntry = z
  .object({
    column: z
      .union([z.string().min(1).max(500), z.number().int().min(1).max(10_000)])
      .describe('the header text of the column, or its position (1 = first column); a position is required when hasHeaderRow is false'),
    dataFieldSimplyId: z.string().min(1).max(100),
  })
  .strict();

const queueData = z
  .object({
    fileSimplyId: z.string().min(1).max(100),
    dataCollectionSimplyId: z.string().min(1).max(100),
    mapping: z.array(mappingEntry).min(1, 'map at least one column to a field').max(MAX_MAPPINGS),
    mode: z.enum(IMPORT_MODES, { message: `must be one of ${IMPORT_MODES.join(', ')}` }).default('CREATE'),
    matchFieldSimplyId: z.string().min(1).max(100).optional(),
    dryRun: z.boolean().default(false),
    hasHeaderRow: z.boolean().default(true),
    delimiter: z.enum([',', ';', '\t', '|'], { message: 'must be one of ",", ";", "|" or a tab' }).default(','),
    encoding: z.literal('utf-8', { message: 'only utf-8 is read' }).default('utf-8'),
    blankCells: z.enum(['IGNORE', 'CLEAR'], { message: 'must be IGNORE or CLEAR' }).default('IGNORE'),
    // a collection's CSV import token (docs/api/data-collections.md "Import tokens"): used once here, never stored with the task
    importToken: z.string().min(1).max(200).optional(),
  })
  .strict()
  .superRefine((q, ctx) => {
    if (q.mode !== 'CREATE' && !q.matchFieldSimplyId) {
      ctx.addIssue({ code: 'custom', path: ['matchFieldSimplyId'], message: `is required when mode is ${q.mode}` });
    }
    if (q.mode === 'CREATE' && q.matchFieldSimplyId) {
      ctx.addIssue({ code: 'custom', path: ['matchFieldSimplyId'], message: 'is only used with mode UPDATE or UPSERT' });
    }
    if (q.matchFieldSimplyId && !q.mapping.some((m) => m.dataFieldSimplyId === q.matchFieldSimplyId)) {
      ctx.addIssue({ code: 'custom', path: ['matchFieldSimplyId'], message: 'must be one of the mapped fields (its column holds the key)' });
    }
    const seenFields = new Set<string>();
    const seenColumns = new Set<string>();
    q.mapping.forEach((m, i) => {
      if (!q.hasHeaderRow && typeof m.column === 'string') {
        ctx.addIssue({ code: 'custom', path: ['mapping', i, 'column'], message: 'must be a column position (1 = first) when hasHeaderRow is false' });
      }
      if (seenFields.has(m.dataFieldSimplyId)) ctx.addIssue({ code: 'custom', path: ['mapping', i, 'dataFieldSimplyId'], message: 'is mapped more than once' });
      const column = String(m.column);
      if (seenColumns.has(column)) ctx.addIssue({ code: 'custom', path: ['mapping', i, 'column'], message: 'is mapped more than once' });
      seenFields.add(m.dataFieldSimplyId);
      seenColumns.add(column);
    });
  });

export type ImportQueueData = z.output<typeof queueData>;

/** The validated queueData (defaults filled in) or a 400 VALIDATION_ERROR with one detail per problem. */
export function parseImportQueueData(raw: unknown): ImportQueueData {
  return parseInput(z.object({ queueData }), { queueData: raw }, 'Invalid queueData for BULK_DATA_IMPORT').queueData;
}
