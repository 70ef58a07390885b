// The CSV form of action tags (docs/api/action-tags.md "CSV import and export"), one layout for
// both directions so an export imports back unchanged. RFC 4180 through csv-parse and
// csv-stringify. Cells a spreadsheet would run as a formula (=, +, -, @, tab, carriage return
// first) are written with an apostrophe in front, and the import takes exactly one such apostrophe
// off again, so a value survives the round trip whatever it starts with.
import type { ErrorDetail } from '../../app/errors.ts';
import type { ActionTag } from '../../generated/prisma/client.ts';

/** the columns an import writes, in export order */
export const WRITABLE_COLUMNS = [
  'simplyActionTagSimplyId',
  'name',
  'notes',
  'status',
  'actionType',
  'actionUrl',
  'linkPageSettings',
  'qrCodeSettings',
  'labelSimplyIds',
  'dataWizardSimplyId',
  'dataRecordSimplyId',
  'requireFreshScan',
] as const;

/** exported for reading, ignored by an import (the platform keeps them) */
export const READ_ONLY_COLUMNS = ['publicUrl', 'destinationDomain', 'lifetimeScans', 'lastScannedAt', 'createdAt', 'updatedAt'] as const;

export const CSV_COLUMNS = [...WRITABLE_COLUMNS, ...READ_ONLY_COLUMNS] as const;
export type WritableColumn = (typeof WRITABLE_COLUMNS)[number];

export const CSV_LIMITS = { bytes: 5 * 1024 * 1024, rows: 5000 } as const;

const FORMULA = /^'*[=+\-@\t\r]/;

/** A cell as written: text, with an apostrophe before anything a spreadsheet would evaluate. */
export function formulaSafe(value: string): string {
  return FORMULA.test(value) ? `'${value}` : value;
}

/** The cell's value as the export meant it (one protecting apostrophe taken off). */
export function unprotect(cell: string): string {
  return cell.startsWith("'") && FORMULA.test(cell) ? cell.slice(1) : cell;
}

const text = (v: unknown): string => (v == null ? '' : v instanceof Date ? v.toISOString() : typeof v === 'object' ? JSON.stringify(v) : String(v));

/** One tag as its CSV row, in CSV_COLUMNS order. */
export function tagRow(tag: ActionTag, publicUrl: string): string[] {
  const values: Record<(typeof CSV_COLUMNS)[number], unknown> = {
    simplyActionTagSimplyId: tag.simplyId,
    name: tag.name,
    notes: tag.notes,
    status: tag.status,
    actionType: tag.actionType,
    actionUrl: tag.actionUrl,
    linkPageSettings: tag.linkPageSettings,
    qrCodeSettings: tag.qrCodeSettings,
    labelSimplyIds: tag.labelSimplyIds.join(';'),
    dataWizardSimplyId: tag.dataWizardSimplyId,
    dataRecordSimplyId: tag.dataRecordSimplyId,
    requireFreshScan: tag.requireFreshScan,
    publicUrl,
    destinationDomain: tag.destinationDomain,
    lifetimeScans: tag.lifetimeScans,
    lastScannedAt: tag.lastScannedAt,
    createdAt: tag.createdAt,
    updatedAt: tag.updatedAt,
  };
  return CSV_COLUMNS.map((c) => formulaSafe(text(values[c])));
}

export type CellProblem = ErrorDetail;

/** Fields an empty cell clears on an update (the others keep their value). */
const CLEARABLE = new Set<WritableColumn>(['notes', 'actionUrl', 'linkPageSettings', 'qrCodeSettings', 'dataWizardSimplyId', 'dataRecordSimplyId']);

/**
 * A row's cells as the body the tag service validates: empty cells are left out on a create, and
 * clear the optional fields on an update; JSON columns and the true/false column are decoded here
 * (what they hold is the service's to judge).
 */
export function rowBody(columns: readonly WritableColumn[], cells: readonly string[], isUpdate: boolean): { body: Record<string, unknown>; problems: CellProblem[] } {
  const body: Record<string, unknown> = {};
  const problems: CellProblem[] = [];
  columns.forEach((column, i) => {
    if (column === 'simplyActionTagSimplyId') return;
    const raw = unprotect(cells[i] ?? '');
    if (raw.trim() === '') {
      if (column === 'labelSimplyIds') body.labelSimplyIds = [];
      else if (isUpdate && CLEARABLE.has(column)) body[column] = null;
      return;
    }
    switch (column) {
      case 'linkPageSettings':
      case 'qrCodeSettings':
        try {
          body[column] = JSON.parse(raw);
        } catch {
          problems.push({ field: column, message: 'must be a JSON object (as the export writes it)' });
        }
        return;
      case 'labelSimplyIds':
        body.labelSimplyIds = raw.split(/[;,\s]+/).filter(Boolean);
        return;
      case 'requireFreshScan': {
        const flag = raw.trim().toLowerCase();
        if (flag === 'true' || flag === 'false') body.requireFreshScan = flag === 'true';
        else problems.push({ field: column, message: 'must be true or false' });
        return;
      }
      case 'status':
      case 'actionType':
        body[column] = raw.trim().toUpperCase();
        return;
      default:
        body[column] = raw;
    }
  });
  return { body, problems };
}
