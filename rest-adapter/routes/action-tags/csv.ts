// /v1/action-tags/exports/csv and /v1/action-tags/imports/csv → src/modules/action-tags/action-tag-csv.schema.ts
// (docs/api/action-tags.md "CSV import and export"). The import's body is the CSV file itself
// (text/csv, at most 5 MB); the export answers the file, not the JSON envelope.
import { operation } from '../../../src/app/graphql/fragments.ts';
import { CSV_EXAMPLE, CSV_LIMITS, CSV_MEDIA_TYPES, importCsvBody, importCsvQuery } from '../../../src/modules/action-tags/action-tag-csv.input.ts';
import { route, type Responder } from '../../route.ts';

const WHO = 'TEAM_ADMIN_SVC_TAGS; the 500 band or higher';
const ROW = 'rowNumber action simplyActionTagSimplyId errors { field message }';

const csvFile: Responder<string> = {
  map: (csv) => ({
    data: null,
    raw: {
      contentType: 'text/csv; charset=utf-8',
      body: csv,
      headers: { 'cache-control': 'no-store', 'content-disposition': 'attachment; filename="action-tags.csv"' },
    },
  }),
  schema: () => ({ data: { type: 'string', description: 'the CSV file (text/csv)' } }),
};

export const actionTagCsvRoutes = [
  route({
    method: 'GET',
    path: '/v1/action-tags/exports/csv',
    summary: 'Export action tags as CSV',
    description: `Every tag of the team as a CSV file (RFC 4180, UTF-8, CRLF), in the layout the import reads; cells a spreadsheet would run as a formula start with an apostrophe (${WHO}, view)`,
    operation: operation`query ActionTagsCsvExport { actionTagsCsvExport }`,
    respond: csvFile,
  }),
  route<Record<string, string>, { dryRun?: 'true' | 'false' }, string | undefined>({
    method: 'POST',
    path: '/v1/action-tags/imports/csv',
    summary: 'Import action tags from CSV',
    description: `The body is the CSV file (Content-Type: text/csv; at most 5 MB and ${CSV_LIMITS.rows} rows). A row without simplyActionTagSimplyId creates a tag, a row with one updates it. dryRun=true reports every row's problems and writes nothing; an apply writes all rows or none and needs the Idempotency-Key header: the same key and body answer the first apply again (replayed: true), the same key with another body is 409 IDEMPOTENCY_KEY_REUSED (${WHO}, edit)`,
    operation: operation([
      `mutation ImportActionTagsCsv($csv: String!, $dryRun: Boolean, $idempotencyKey: String) { importActionTagsCsv(csv: $csv, dryRun: $dryRun, idempotencyKey: $idempotencyKey) {
        dryRun applied replayed rowCount createCount updateCount unchangedCount errorCount fileErrors { field message } rows { ${ROW} } } }`,
    ]),
    rawBody: { mediaTypes: CSV_MEDIA_TYPES, maxBytes: CSV_LIMITS.bytes },
    query: importCsvQuery,
    body: importCsvBody,
    example: CSV_EXAMPLE,
    variables: ({ body, query, headers }) => {
      const key = headers?.['idempotency-key'];
      return { csv: body ?? '', dryRun: query.dryRun === 'true', idempotencyKey: Array.isArray(key) ? key[0] : (key ?? null) };
    },
  }),
];
