// The columns of an export CSV: a header in the starter's language and one cell per record, typed
// per data type (docs/api/background-tasks.md "Data export"). Cells a spreadsheet would read as a
// formula (=, +, -, @, tab, CR first) get a leading apostrophe; numbers of NUMBER, DECIMAL and
// MONEY fields are written as plain numbers even when negative, because the typed value layer
// guarantees they are numbers, which no spreadsheet runs as a formula.
import { decodeValue, type FieldDefinition, toDisplayText } from '../../../kernel/index.ts';
import type { SystemColumn } from './export-input.ts';
import type { ExportRecordRow } from './export-records.sql.ts';

export interface ExportColumn {
  header: string;
  cell(row: ExportRecordRow): string;
}

const FORMULA_START = /^[=+\-@\t\r]/;

/** Text a spreadsheet takes as text: a leading apostrophe before a formula's first character. */
export function formulaSafe(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

const NUMERIC_TYPES: ReadonlySet<string> = new Set(['NUMBER', 'DECIMAL', 'MONEY']);
/** values of these types are fixed shapes that never start with a formula character */
const SAFE_SHAPED_TYPES: ReadonlySet<string> = new Set(['DATE', 'DATE_TIME', 'BOOLEAN', 'SINGLE_DATA_RECORD', 'MULTI_DATA_RECORD', 'SINGLE_FILE', 'MULTI_FILE', 'SINGLE_IMAGE', 'MULTI_IMAGE']);
const LIST_SEPARATOR = '; ';

/** One field's cell: the value in its wire form (docs/api/data-types.md), written as CSV text. */
export function fieldCell(field: FieldDefinition, stored: unknown): string {
  if (stored === null || stored === undefined) return '';
  if (field.dataType === 'PHYSICAL_ADDRESS') return formulaSafe(toDisplayText(field, stored));
  const value = decodeValue(field, stored);
  if (value === null || value === undefined) return '';
  let text: string;
  if (Array.isArray(value)) text = value.map(String).join(LIST_SEPARATOR);
  else if (typeof value === 'object') text = JSON.stringify(value);
  else text = String(value);
  if (NUMERIC_TYPES.has(field.dataType) || SAFE_SHAPED_TYPES.has(field.dataType)) return text;
  return formulaSafe(text);
}

/** The text of a localized title for `language`: that tag, its base language, English, then any. */
export function localized(text: unknown, language: string | null): string {
  if (typeof text === 'string') return text;
  if (!text || typeof text !== 'object') return '';
  const texts = text as Record<string, string>;
  const base = language?.split('-')[0];
  return (language && texts[language]) || (base && texts[base]) || texts.en || Object.values(texts)[0] || '';
}

const SYSTEM_HEADERS: Record<SystemColumn, string> = {
  CALCULATED_NAME: 'Name',
  RECORD_SIMPLY_ID: 'Record ID',
  CREATED_AT: 'Created at',
  UPDATED_AT: 'Updated at',
};

const SYSTEM_CELLS: Record<SystemColumn, (row: ExportRecordRow) => string> = {
  CALCULATED_NAME: (row) => formulaSafe(row.calculatedName),
  RECORD_SIMPLY_ID: (row) => row.simplyId,
  CREATED_AT: (row) => row.createdAt,
  UPDATED_AT: (row) => row.updatedAt,
};

/**
 * The built-in columns first (in the order asked for), then the fields. Headers are made unique
 * ("Email", "Email (2)") so a spreadsheet or an import can tell them apart.
 */
export function exportColumns(systemColumns: readonly SystemColumn[], fields: readonly FieldDefinition[], language: string | null): ExportColumn[] {
  const columns: ExportColumn[] = [
    ...systemColumns.map((c) => ({ header: SYSTEM_HEADERS[c], cell: SYSTEM_CELLS[c] })),
    ...fields.map((f) => ({
      header: localized(f.title, language).trim() || f.dataFieldSimplyId,
      cell: (row: ExportRecordRow) => fieldCell(f, row.values[f.dataFieldSimplyId]),
    })),
  ];
  const used = new Set<string>();
  for (const column of columns) {
    let header = column.header;
    for (let n = 2; used.has(header.toLowerCase()); n++) header = `${column.header} (${n})`;
    used.add(header.toLowerCase());
    column.header = formulaSafe(header);
  }
  return columns;
}

/** `<collection name>-<yyyymmdd-hhmm>.csv` (UTC), without characters a file system or header would mind. */
export function exportFilename(collectionName: string, at: Date): string {
  const name =
    collectionName
      .normalize('NFC')
      .replace(/[^\p{L}\p{N} _.-]+/gu, ' ')
      .replace(/\s+/g, ' ')
      .trim()
      .replace(/^\.+/, '')
      .slice(0, 80)
      .trim() || 'export';
  const iso = at.toISOString();
  return `${name}-${iso.slice(0, 10).replaceAll('-', '')}-${iso.slice(11, 16).replace(':', '')}.csv`;
}
