// What a DOCUMENT_GENERATION task takes (docs/api/background-tasks.md "Document generation"): a
// document template, the collection and its records (listed, or a record-search filter), the
// outputKey and, optionally, where the documents go (else the output default). Checked with zod so
// a malformed queueData is a 400 naming `queueData.<path>`.
import { z } from 'zod';
import { parseInput } from '../../../app/validate.ts';
import { MAX_FILTERS } from '../../../kernel/index.ts';
import { contentTemplateId } from '../../content-templates/index.ts';
import { dataSimplyId, DEFAULT_OUTPUT_KEY, outputKey, writeMode, type WriteMode } from '../record-outputs.input.ts';

/** the most records one task renders (one PDF each) */
export const MAX_DOCUMENT_RECORDS = 500;

const destination = z
  .object({
    dataFieldSimplyId: z.string({ message: 'must be a field simplyId' }).min(1).max(100),
    writeMode: writeMode.default('REPLACE'),
  })
  .strict();

const queueData = z
  .object({
    contentTemplateSimplyId: z.string({ message: 'is required' }).regex(contentTemplateId.pattern, 'must be a content template simplyId (ctpl-XXXX-XXXX-XXXX)'),
    dataCollectionSimplyId: dataSimplyId('collection'),
    dataRecordSimplyIds: z
      .array(dataSimplyId('record'))
      .min(1, 'list at least one record')
      .max(MAX_DOCUMENT_RECORDS, `at most ${MAX_DOCUMENT_RECORDS} records per task`)
      .optional(),
    requestFilter: z.array(z.unknown(), { message: 'must be an array of { field, operator, value } (the record-search filters)' }).max(MAX_FILTERS, `at most ${MAX_FILTERS} filters`).optional(),
    outputKey: outputKey.default(DEFAULT_OUTPUT_KEY),
    destination: destination.optional(),
  })
  .strict()
  .superRefine((q, ctx) => {
    if ((q.dataRecordSimplyIds === undefined) === (q.requestFilter === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['dataRecordSimplyIds'], message: 'give exactly one of dataRecordSimplyIds and requestFilter' });
    }
    const seen = new Set<string>();
    q.dataRecordSimplyIds?.forEach((id, i) => {
      if (seen.has(id)) ctx.addIssue({ code: 'custom', path: ['dataRecordSimplyIds', i], message: 'is listed more than once' });
      seen.add(id);
    });
  });

export type DocumentGenerationInput = z.output<typeof queueData>;

/** The validated queueData (defaults filled in) or a 400 VALIDATION_ERROR with one detail per problem. */
export function parseDocumentQueueData(raw: unknown): DocumentGenerationInput {
  return parseInput(z.object({ queueData }), { queueData: raw }, 'Invalid queueData for DOCUMENT_GENERATION').queueData;
}

/** What the task stores: the records resolved and the destination decided at creation. */
export interface DocumentGenerationQueueData {
  contentTemplateSimplyId: string;
  dataCollectionSimplyId: string;
  /** the records, in the order they are rendered (a filter is resolved when the task is created) */
  dataRecordSimplyIds: string[];
  requestFilter: unknown[] | null;
  outputKey: string;
  destination: { dataFieldSimplyId: string; writeMode: WriteMode; outputDefaultSimplyId: string | null };
}
