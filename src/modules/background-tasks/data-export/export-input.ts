// DATA_EXPORT queueData (Document 3 §4.2 rule 2), checked before anything is read: exactly one of
// a collection and a view, the fields as an explicit list, optional built-in columns, a filter in
// the record-search language and a record selection. Everything physical (table and column names,
// headers, output types, buckets, object keys, file names) is the service's choice: such keys are
// refused by name, so a caller learns why instead of seeing them ignored.
import { z } from 'zod';
import { type ErrorDetail, ValidationError } from '../../../app/errors.ts';
import { simplyIdPattern } from '../../../app/ids.ts';
import { issueDetails } from '../../../app/validate.ts';
import { dataFieldId, MAX_FILTERS } from '../../../kernel/index.ts';
import { dataViewId } from '../../views/index.ts';

export const SYSTEM_COLUMNS = ['CALCULATED_NAME', 'RECORD_SIMPLY_ID', 'CREATED_AT', 'UPDATED_AT', 'APPROVAL_STATUS'] as const;
export type SystemColumn = Exclude<(typeof SYSTEM_COLUMNS)[number], 'APPROVAL_STATUS'>;

export const MAX_EXPORT_FIELDS = 500;
export const MAX_SELECTED_RECORDS = 10_000;

export interface ExportQueueData {
  dataCollectionSimplyId: string | null;
  dataViewSimplyId: string | null;
  dataFieldSimplyIds: string[];
  systemColumns: SystemColumn[];
  /** search filters `[{ field, operator, value }]` as given (validated against the collection at creation) */
  requestFilter: unknown[];
  /** null: every record of the collection or view */
  dataRecordSimplyIds: string[] | null;
}

const ALLOWED_KEYS = ['dataCollectionSimplyId', 'dataViewSimplyId', 'dataFieldSimplyIds', 'systemColumns', 'requestFilter', 'dataRecordSimplyIds'];

/** Names (lower-cased, without `_` and `-`) of what the service chooses itself. */
const SERVICE_CHOSEN = new Set([
  'table',
  'tables',
  'tablename',
  'tablenames',
  'column',
  'columns',
  'columnname',
  'columnnames',
  'header',
  'headers',
  'headernames',
  'headerrow',
  'outputtype',
  'outputtypes',
  'outputdatatype',
  'outputdatatypes',
  'datatype',
  'datatypes',
  'types',
  'bucket',
  'bucketname',
  'objectkey',
  'key',
  'storagekey',
  'path',
  'filepath',
  'filename',
  'contenttype',
]);

const id = z.string().regex(simplyIdPattern(), 'must be a simplyId (XXXX-XXXX-XXXX)');
const fieldId = z.string().regex(dataFieldId.pattern, 'must be a field simplyId (fld-XXXX-XXXX-XXXX)');
const viewId = z.string().regex(dataViewId.pattern, 'must be a data view simplyId (view-XXXX-XXXX-XXXX)');

const shape = z.object({
  dataCollectionSimplyId: id.nullish(),
  dataViewSimplyId: viewId.nullish(),
  dataFieldSimplyIds: z
    .array(fieldId, { message: 'is required: an array of the field simplyIds to export, in column order' })
    .min(1, 'name at least one field')
    .max(MAX_EXPORT_FIELDS, `at most ${MAX_EXPORT_FIELDS} fields`),
  systemColumns: z
    .array(z.enum(SYSTEM_COLUMNS, { message: `must be one of ${SYSTEM_COLUMNS.join(', ')}` }))
    .max(SYSTEM_COLUMNS.length)
    .nullish(),
  requestFilter: z.array(z.unknown(), { message: 'must be an array of { field, operator, value } (the record-search filters)' }).max(MAX_FILTERS, `at most ${MAX_FILTERS} filters`).nullish(),
  dataRecordSimplyIds: z
    .array(id)
    .min(1, 'name at least one record, or leave dataRecordSimplyIds out to export every record')
    .max(MAX_SELECTED_RECORDS, `at most ${MAX_SELECTED_RECORDS} records`)
    .nullish(),
});

const at = (detail: ErrorDetail): ErrorDetail => ({ ...detail, field: detail.field ? `queueData.${detail.field}` : 'queueData' });

function duplicates(values: readonly string[]): string[] {
  const seen = new Set<string>();
  return [...new Set(values.filter((v) => seen.size === seen.add(v).size))];
}

/** Validates the shape of DATA_EXPORT queueData; every problem is reported (400 VALIDATION_ERROR). */
export function parseExportQueueData(raw: unknown): ExportQueueData {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new ValidationError('queueData must be an object for DATA_EXPORT tasks', [{ field: 'queueData', message: 'must be an object { dataCollectionSimplyId | dataViewSimplyId, dataFieldSimplyIds, … }' }]);
  }
  const details: ErrorDetail[] = [];
  for (const key of Object.keys(raw)) {
    if (ALLOWED_KEYS.includes(key)) continue;
    if (SERVICE_CHOSEN.has(key.toLowerCase().replace(/[_-]/g, ''))) {
      details.push({
        field: `queueData.${key}`,
        message: 'not accepted: the service chooses table and column names, headers, output types, file names and storage locations itself; name fields with dataFieldSimplyIds and built-in columns with systemColumns',
      });
    } else details.push({ field: `queueData.${key}`, message: `unknown key; allowed: ${ALLOWED_KEYS.join(', ')}` });
  }
  const parsed = shape.safeParse(raw);
  if (!parsed.success) details.push(...issueDetails(parsed.error).map(at));
  const value = parsed.success ? parsed.data : null;
  const input = raw as Record<string, unknown>;
  const hasCollection = input.dataCollectionSimplyId !== undefined && input.dataCollectionSimplyId !== null;
  const hasView = input.dataViewSimplyId !== undefined && input.dataViewSimplyId !== null;
  if (hasCollection === hasView) {
    const message = hasCollection ? 'give only one of dataCollectionSimplyId and dataViewSimplyId' : 'give exactly one of dataCollectionSimplyId and dataViewSimplyId';
    details.push({ field: 'queueData.dataCollectionSimplyId', message }, { field: 'queueData.dataViewSimplyId', message });
  }
  if (value) {
    for (const dup of duplicates(value.dataFieldSimplyIds)) details.push({ field: 'queueData.dataFieldSimplyIds', message: `${dup} is listed more than once` });
    const system = value.systemColumns ?? [];
    for (const dup of duplicates(system)) details.push({ field: 'queueData.systemColumns', message: `${dup} is listed more than once` });
    if (system.includes('APPROVAL_STATUS')) {
      details.push({
        field: 'queueData.systemColumns',
        message: 'APPROVAL_STATUS is not available: records on this platform have no approval workflow, so there is no approval status to export',
      });
    }
  }
  if (details.length > 0 || !value) throw new ValidationError('Invalid queueData for a DATA_EXPORT task', details);
  return {
    dataCollectionSimplyId: value.dataCollectionSimplyId ?? null,
    dataViewSimplyId: value.dataViewSimplyId ?? null,
    dataFieldSimplyIds: value.dataFieldSimplyIds,
    systemColumns: (value.systemColumns ?? []) as SystemColumn[],
    requestFilter: value.requestFilter ?? [],
    dataRecordSimplyIds: value.dataRecordSimplyIds ? [...new Set(value.dataRecordSimplyIds)] : null,
  };
}
