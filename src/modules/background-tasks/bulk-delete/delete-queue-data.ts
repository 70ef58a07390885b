// What a BULK_DELETE task takes (docs/api/background-tasks.md "Bulk delete"): the collection and
// exactly one selection, record ids or the record-search filters. Checked with zod so a
// malformed queueData is a 400 naming `queueData.<path>`.
import { z } from 'zod';
import { isSimplyId } from '../../../app/ids.ts';
import { parseInput } from '../../../app/validate.ts';
import { MAX_FILTERS } from '../../../kernel/index.ts';

/** the most records one bulk delete takes (ids given, or matches of a filter) */
export const MAX_DELETE_RECORDS = 10_000;

const queueData = z
  .object({
    dataCollectionSimplyId: z.string().min(1).max(100),
    dataRecordSimplyIds: z
      .array(z.string().refine(isSimplyId, 'must be a record simplyId (XXXX-XXXX-XXXX)'))
      .min(1, 'name at least one record')
      .max(MAX_DELETE_RECORDS, `at most ${MAX_DELETE_RECORDS} records; use requestFilter or several tasks`)
      .optional(),
    requestFilter: z
      .array(z.unknown(), { message: 'must be an array of { field, operator, value } (the record-search filters)' })
      .max(MAX_FILTERS, `at most ${MAX_FILTERS} filters`)
      .optional(),
  })
  .strict()
  .superRefine((q, ctx) => {
    if ((q.dataRecordSimplyIds === undefined) === (q.requestFilter === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['dataRecordSimplyIds'], message: 'give exactly one of dataRecordSimplyIds and requestFilter' });
    }
  });

export type DeleteQueueData = z.output<typeof queueData>;

/** The validated queueData (ids deduplicated, in their order) or a 400 VALIDATION_ERROR with details. */
export function parseDeleteQueueData(raw: unknown): DeleteQueueData {
  const q = parseInput(z.object({ queueData }), { queueData: raw }, 'Invalid queueData for BULK_DELETE').queueData;
  return q.dataRecordSimplyIds ? { ...q, dataRecordSimplyIds: [...new Set(q.dataRecordSimplyIds)] } : q;
}
