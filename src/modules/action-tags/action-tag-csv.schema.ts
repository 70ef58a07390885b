// GraphQL face of the CSV export and import of action tags (docs/api/action-tags.md "CSV import and
// export"). REST: rest-adapter/routes/action-tags/csv.ts, where the CSV is the raw request body (up
// to 5 MB); through GraphQL it is a String argument within the request body limit. Privileged
// TEAM_ADMIN_SVC_TAGS (view to export, edit to import); the 500 band, in the service.
import { tier } from '../../app/auth/tiers.ts';
import { builder } from '../../app/builder.ts';
import type { ErrorDetail } from '../../app/errors.ts';
import { exportActionTagsCsv, importActionTagsCsv, type CsvImportResult, type CsvRowResult } from './action-tag-csv.service.ts';

const ActionTagCsvProblemRef = builder.objectRef<ErrorDetail>('ActionTagCsvProblem').implement({
  description: 'One problem of a row or of the file: the column (or row, body, header) and what is wrong.',
  fields: (t) => ({
    field: t.string({ nullable: true, resolve: (p) => p.field ?? null }),
    message: t.string({ resolve: (p) => p.message }),
  }),
});

const ActionTagCsvRowActionEnum = builder.enumType('ActionTagCsvRowAction', {
  description: 'CREATE (no simplyActionTagSimplyId), UPDATE, UNCHANGED (the row matches the tag), ERROR (see errors)',
  values: ['CREATE', 'UPDATE', 'UNCHANGED', 'ERROR'] as const,
});

const ActionTagCsvRowRef = builder.objectRef<CsvRowResult>('ActionTagCsvImportRow').implement({
  fields: (t) => ({
    rowNumber: t.int({ description: '1 is the first row under the header', resolve: (r) => r.rowNumber }),
    action: t.field({ type: ActionTagCsvRowActionEnum, resolve: (r) => r.action }),
    simplyActionTagSimplyId: t.string({ nullable: true, description: 'the tag the row updates, or (once applied) the one it created', resolve: (r) => r.simplyActionTagSimplyId }),
    errors: t.field({ type: [ActionTagCsvProblemRef], resolve: (r) => r.errors }),
  }),
});

const ActionTagCsvImportResultRef = builder.objectRef<CsvImportResult>('ActionTagCsvImportResult').implement({
  description: 'What a dry run found, or what an apply wrote (all rows or none).',
  fields: (t) => ({
    dryRun: t.boolean({ resolve: (r) => r.dryRun }),
    applied: t.boolean({ resolve: (r) => r.applied }),
    replayed: t.boolean({ description: 'the first answer of the same Idempotency-Key and body', resolve: (r) => r.replayed }),
    rowCount: t.int({ resolve: (r) => r.rowCount }),
    createCount: t.int({ resolve: (r) => r.createCount }),
    updateCount: t.int({ resolve: (r) => r.updateCount }),
    unchangedCount: t.int({ resolve: (r) => r.unchangedCount }),
    errorCount: t.int({ description: 'rows with errors (an apply with any is refused)', resolve: (r) => r.errorCount }),
    fileErrors: t.field({ type: [ActionTagCsvProblemRef], description: 'problems of the file as a whole (the plan’s capacity)', resolve: (r) => r.fileErrors }),
    rows: t.field({ type: [ActionTagCsvRowRef], resolve: (r) => r.rows }),
  }),
});

builder.queryFields((t) => ({
  actionTagsCsvExport: t.string({
    description: 'Every tag of the team as CSV (RFC 4180, formula-safe), in the layout the import reads (TEAM_ADMIN_SVC_TAGS view; 500 band).',
    authScopes: tier.privileged('TEAM_ADMIN_SVC_TAGS', 'VIEW'),
    resolve: (_root, _args, ctx) => exportActionTagsCsv(ctx),
  }),
}));

builder.mutationFields((t) => ({
  importActionTagsCsv: t.field({
    type: ActionTagCsvImportResultRef,
    description:
      'Creates (no id) and updates (simplyActionTagSimplyId) tags from CSV: dryRun reports every row’s problems; an apply is all or nothing and needs idempotencyKey (TEAM_ADMIN_SVC_TAGS edit; 500 band).',
    authScopes: tier.privileged('TEAM_ADMIN_SVC_TAGS', 'EDIT'),
    args: {
      csv: t.arg.string({ required: true, description: 'the file: a header row, then at most 5000 rows' }),
      dryRun: t.arg.boolean({ description: 'check only, write nothing' }),
      idempotencyKey: t.arg.string({ description: 'required to apply: the same key and body answer the first apply again' }),
    },
    resolve: (_root, args, ctx) => importActionTagsCsv(ctx, args),
  }),
}));
