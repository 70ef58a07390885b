// The CSV routes' inputs (docs/api/action-tags.md "CSV import and export"): the raw text/csv body of
// an import, bounded by the documented 5 MB, and its dryRun query parameter.
import { z } from 'zod';
import { CSV_LIMITS } from './action-tag-csv.format.ts';

export { CSV_LIMITS };

/** the media types an import body may be sent as */
export const CSV_MEDIA_TYPES = ['text/csv', 'application/csv'] as const;

export const importCsvQuery = z.strictObject({
  dryRun: z.enum(['true', 'false'], { message: 'must be true or false' }).optional().describe('true: check every row and write nothing'),
});

export const importCsvBody = z
  .string({ message: 'must be the CSV file (Content-Type: text/csv)' })
  .optional()
  .describe('the CSV file: a header row, then at most 5000 rows');

export const CSV_EXAMPLE = 'simplyActionTagSimplyId,name,status,actionType,actionUrl\r\n,Spring gala poster,ACTIVE,URL,https://example.org/gala\r\n';
