// CSV export and import of action tags (docs/api/action-tags.md "CSV import and export"; Document 3
// §4.3, §8): the 500 band. The import reads every row through the tag service's own checks (the
// body schemas, the type and plan rules of checkShape, the status transitions, the capacity), so a
// row is refused exactly when the same change through the API would be. A dry run reports every
// row's problems and writes nothing; an apply is all or nothing in one transaction and needs an
// Idempotency-Key: the same key with the same body answers the first apply again, the same key with
// another body is refused (409 IDEMPOTENCY_KEY_REUSED). Applied keys are kept for 24 hours.
import { createHash } from 'node:crypto';
import { CsvError } from 'csv-parse';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import type { RequestContext } from '../../app/context.ts';
import { ApiError, type ErrorDetail, ValidationError } from '../../app/errors.ts';
import { requireTeam } from '../../app/require-team.ts';
import { runTransaction, type Tx } from '../../app/transaction.ts';
import { issueDetails } from '../../app/validate.ts';
import { advisoryLock } from '../../db/advisory-locks.ts';
import type { ActionTag, Prisma } from '../../generated/prisma/client.ts';
import { type ActionTagPlan, requireBand500, teamActionTagPlan } from './action-tag-plan.ts';
import { ARCHIVED_STATUSES, canMove, INITIAL_STATUSES } from './action-tag-status.ts';
import { emitActionTagEvents, eventOf, type ActionTagEvent } from './action-tag-events.ts';
import { CSV_COLUMNS, CSV_LIMITS, READ_ONLY_COLUMNS, rowBody, tagRow, WRITABLE_COLUMNS, type WritableColumn } from './action-tag-csv.format.ts';
import { ActionTagCapacityError } from './action-tags.errors.ts';
import { actionTagId } from './action-tags.ids.ts';
import { type ActionTagStatus, type ActionType, createActionTagInput, type CreateActionTagInput, updateActionTagInput } from './action-tags.input.ts';
import { checkShape, createdColumns, lockTeamTags, publicUrlOf, updatedColumns } from './action-tags.service.ts';

const KEY_HOURS = 24;
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,200}$/;

export type CsvRowAction = 'CREATE' | 'UPDATE' | 'UNCHANGED' | 'ERROR';

export interface CsvRowResult {
  /** 1 is the first row under the header */
  rowNumber: number;
  action: CsvRowAction;
  /** the tag the row updates, or (applied) the one it created */
  simplyActionTagSimplyId: string | null;
  errors: ErrorDetail[];
}

export interface CsvImportResult {
  dryRun: boolean;
  applied: boolean;
  /** the stored answer of an earlier apply with the same Idempotency-Key and body */
  replayed: boolean;
  rowCount: number;
  createCount: number;
  updateCount: number;
  unchangedCount: number;
  errorCount: number;
  /** problems of the file as a whole (the plan's capacity) */
  fileErrors: ErrorDetail[];
  rows: CsvRowResult[];
}

export interface CsvImportRequest {
  csv: string;
  dryRun?: boolean | null;
  idempotencyKey?: string | null;
}

/** The same Idempotency-Key again with another body: a key stands for one import. */
export class CsvIdempotencyKeyReusedError extends ApiError {
  constructor() {
    super(409, 'IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was used for another CSV body; send a new key for a new import', {
      details: [{ field: 'Idempotency-Key', message: 'was used with another body' }],
    });
  }
}

function fileError(field: string, message: string): ValidationError {
  return new ValidationError(`${field} ${message}`, [{ field, message }]);
}

export async function exportActionTagsCsv(ctx: RequestContext): Promise<string> {
  await requireBand500(ctx, 'CSV export');
  const team = requireTeam(ctx);
  const tags = await ctx.services.prisma.actionTag.findMany({ where: { teamId: team.id }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
  return stringify([[...CSV_COLUMNS], ...tags.map((t) => tagRow(t, publicUrlOf(ctx, t.simplyId)))], { record_delimiter: 'windows' });
}

interface ParsedFile {
  columns: WritableColumn[];
  /** index in the file's row of each writable column */
  positions: number[];
  width: number;
  rows: { rowNumber: number; cells: string[] }[];
}

/** The header and rows, or a 400 for the file as a whole (unreadable, unknown columns, too many rows). */
function parseFile(csv: string): ParsedFile {
  if (Buffer.byteLength(csv) > CSV_LIMITS.bytes) throw fileError('body', `is larger than ${CSV_LIMITS.bytes} bytes (5 MB)`);
  let records: string[][];
  try {
    records = parse(csv, { bom: true, relax_column_count: true, skip_empty_lines: true });
  } catch (error) {
    if (error instanceof CsvError) throw fileError('body', `is not readable as CSV (RFC 4180): ${error.message}`);
    throw error;
  }
  const [header, ...data] = records;
  if (!header) throw fileError('body', 'is empty: the first row must name the columns');
  if (data.length > CSV_LIMITS.rows) throw fileError('body', `has ${data.length} rows; at most ${CSV_LIMITS.rows}`);
  const names = header.map((h) => h.trim());
  const details: ErrorDetail[] = [];
  const seen = new Set<string>();
  const columns: WritableColumn[] = [];
  const positions: number[] = [];
  names.forEach((name, i) => {
    if (seen.has(name)) details.push({ field: `header.${name}`, message: 'is named twice' });
    seen.add(name);
    if ((WRITABLE_COLUMNS as readonly string[]).includes(name)) {
      columns.push(name as WritableColumn);
      positions.push(i);
    } else if (!(READ_ONLY_COLUMNS as readonly string[]).includes(name)) {
      details.push({ field: `header.${name || `column ${i + 1}`}`, message: `is not a column of action tags (${CSV_COLUMNS.join(', ')})` });
    }
  });
  if (!seen.has('name') && !seen.has('simplyActionTagSimplyId')) details.push({ field: 'header', message: 'must have a name column (or simplyActionTagSimplyId, for updates only)' });
  if (details.length > 0) throw new ValidationError('The CSV header is not one of action tags', details);
  return { columns, positions, width: header.length, rows: data.map((cells, i) => ({ rowNumber: i + 1, cells })) };
}

interface PlannedCreate {
  kind: 'create';
  row: CsvRowResult;
  simplyId: string;
  data: Prisma.ActionTagCreateManyInput;
}

interface PlannedUpdate {
  kind: 'update';
  row: CsvRowResult;
  tag: ActionTag;
  data: Prisma.ActionTagUpdateInput;
  to: ActionTagStatus;
}

type Planned = PlannedCreate | PlannedUpdate | { kind: 'none'; row: CsvRowResult };

const nullable = <T>(v: T | null | undefined, fallback: T | null): T | null => (v === undefined ? fallback : v);

/** JSON with object keys in order: PostgreSQL's jsonb does not keep the order they were written in. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** Whether an applied change would alter the tag, compared field by field. */
function differs(tag: ActionTag, data: Prisma.ActionTagUpdateInput): boolean {
  return Object.entries(data).some(([k, v]) => canonical((tag as Record<string, unknown>)[k]) !== canonical(v));
}

/**
 * Checks every row as the API would and plans its write; nothing is written. `db` is the apply's
 * transaction (so the checks see what the writes will), or the client for a dry run.
 */
async function planRows(ctx: RequestContext, db: Tx, plan: ActionTagPlan, file: ParsedFile): Promise<{ planned: Planned[]; fileErrors: ErrorDetail[] }> {
  const team = requireTeam(ctx);
  const idAt = file.columns.indexOf('simplyActionTagSimplyId');
  const idOf = (cells: string[]) => (idAt >= 0 ? (cells[file.positions[idAt]!] ?? '').trim() : '');
  const ids = [...new Set(file.rows.map((r) => idOf(r.cells)).filter((id) => actionTagId.is(id)))];
  const existing = new Map((ids.length ? await db.actionTag.findMany({ where: { teamId: team.id, simplyId: { in: ids } } }) : []).map((t) => [t.simplyId, t]));
  const claimed = new Set<string>();
  const planned: Planned[] = [];
  for (const { rowNumber, cells } of file.rows) {
    const row: CsvRowResult = { rowNumber, action: 'ERROR', simplyActionTagSimplyId: null, errors: [] };
    planned.push(await planRow(ctx, db, plan, file, { rowNumber, cells, row, id: idOf(cells), existing, claimed }));
  }
  // the capacity, for the file as a whole: the tags it leaves outside the archive
  const inUse = await db.actionTag.count({ where: { teamId: team.id, status: { notIn: [...ARCHIVED_STATUSES] } } });
  let change = 0;
  for (const p of planned) {
    if (p.kind === 'create') change += ARCHIVED_STATUSES.includes(p.data.status as ActionTagStatus) ? 0 : 1;
    if (p.kind === 'update') change += Number(!ARCHIVED_STATUSES.includes(p.to)) - Number(!ARCHIVED_STATUSES.includes(p.tag.status as ActionTagStatus));
  }
  const fileErrors: ErrorDetail[] =
    change > 0 && inUse + change > plan.managedCapacity
      ? [{ field: 'body', message: `would leave ${inUse + change} action tags outside the archive; the plan manages at most ${plan.managedCapacity}` }]
      : [];
  return { planned, fileErrors };
}

async function planRow(
  ctx: RequestContext,
  db: Tx,
  plan: ActionTagPlan,
  file: ParsedFile,
  r: { rowNumber: number; cells: string[]; row: CsvRowResult; id: string; existing: Map<string, ActionTag>; claimed: Set<string> },
): Promise<Planned> {
  const { row } = r;
  const fail = (details: ErrorDetail[]): Planned => {
    row.errors.push(...details);
    return { kind: 'none', row };
  };
  if (r.cells.length !== file.width) return fail([{ field: 'row', message: `has ${r.cells.length} cells; the header has ${file.width}` }]);
  const isUpdate = r.id !== '';
  const cells = file.positions.map((p) => r.cells[p] ?? '');
  const { body, problems } = rowBody(file.columns, cells, isUpdate);
  if (problems.length) return fail(problems);
  const team = requireTeam(ctx);
  try {
    if (!isUpdate) {
      const parsed = createActionTagInput.safeParse(body);
      if (!parsed.success) return fail(issueDetails(parsed.error));
      const input: CreateActionTagInput = parsed.data;
      const status = input.status ?? 'DRAFT';
      if (!INITIAL_STATUSES.includes(status)) return fail([{ field: 'status', message: 'a new tag starts as DRAFT, ACTIVE or INACTIVE' }]);
      const actionType = input.actionType ?? (input.linkPageSettings ? 'LINK_PAGE' : 'URL');
      const shape = await checkShape(ctx, db, plan, input, {
        actionType,
        actionUrl: input.actionUrl ?? null,
        linkPageSettings: input.linkPageSettings ?? null,
        dataWizardSimplyId: input.dataWizardSimplyId ?? null,
        dataRecordSimplyId: input.dataRecordSimplyId ?? null,
      });
      const simplyId = actionTagId.create();
      row.action = 'CREATE';
      return {
        kind: 'create',
        row,
        simplyId,
        data: createdColumns(ctx, team.id, simplyId, input, { status, actionType }, shape),
      };
    }
    row.simplyActionTagSimplyId = r.id;
    if (!actionTagId.is(r.id)) return fail([{ field: 'simplyActionTagSimplyId', message: 'must be an action tag simplyId (atag-XXXX-XXXX-XXXX), or empty to create a tag' }]);
    const tag = r.existing.get(r.id);
    // another team's tag is as unknown as one that does not exist
    if (!tag) return fail([{ field: 'simplyActionTagSimplyId', message: 'is not an action tag of this team' }]);
    if (r.claimed.has(r.id)) return fail([{ field: 'simplyActionTagSimplyId', message: 'is on an earlier row of this file too' }]);
    r.claimed.add(r.id);
    const parsed = updateActionTagInput.safeParse(body);
    if (!parsed.success) return fail(issueDetails(parsed.error));
    const input = parsed.data;
    const actionType = (input.actionType ?? tag.actionType) as ActionType;
    const shape = await checkShape(ctx, db, plan, input, {
      actionType,
      actionUrl: nullable(input.actionUrl, tag.actionUrl),
      linkPageSettings: nullable<unknown>(input.linkPageSettings, tag.linkPageSettings),
      dataWizardSimplyId: nullable(input.dataWizardSimplyId, tag.dataWizardSimplyId),
      dataRecordSimplyId: nullable(input.dataRecordSimplyId, tag.dataRecordSimplyId),
    });
    const from = tag.status as ActionTagStatus;
    const to = input.status ?? from;
    if (to === 'ARCHIVED_BY_DOWNGRADE' && from !== to) return fail([{ field: 'status', message: 'ARCHIVED_BY_DOWNGRADE is set by a plan change, not by an import' }]);
    if (!canMove(from, to)) return fail([{ field: 'status', message: `cannot change from ${from} to ${to}` }]);
    const data = updatedColumns(input, shape);
    if (!differs(tag, data)) {
      row.action = 'UNCHANGED';
      return { kind: 'none', row };
    }
    row.action = 'UPDATE';
    return { kind: 'update', row, tag, data, to };
  } catch (error) {
    if (error instanceof ValidationError) return fail(error.details ?? [{ field: 'row', message: error.message }]);
    throw error;
  }
}

function summary(rows: CsvRowResult[], fileErrors: ErrorDetail[], flags: Pick<CsvImportResult, 'dryRun' | 'applied' | 'replayed'>): CsvImportResult {
  const count = (a: CsvRowAction) => rows.filter((r) => r.action === a).length;
  return {
    ...flags,
    rowCount: rows.length,
    createCount: count('CREATE'),
    updateCount: count('UPDATE'),
    unchangedCount: count('UNCHANGED'),
    errorCount: count('ERROR'),
    fileErrors,
    rows,
  };
}

const json = (v: unknown) => (v == null ? null : JSON.stringify(v));

/**
 * The new tags in one statement (createManyAndReturn took seconds for a full file: Prisma builds
 * and maps every row; unnest hands PostgreSQL one array per column).
 */
function insertTags(tx: Tx, rows: Prisma.ActionTagCreateManyInput[]): Promise<ActionTag[]> {
  const column = <T>(pick: (r: Prisma.ActionTagCreateManyInput) => T) => rows.map(pick);
  return tx.$queryRawUnsafe<ActionTag[]>(
    `INSERT INTO "ActionTag" ("simplyId", "teamId", name, notes, status, "actionType", "actionUrl", "destinationDomain", "linkPageSettings", "qrCodeSettings",
       "labelSimplyIds", "dataWizardSimplyId", "dataRecordSimplyId", "dataCollectionSimplyId", "requireFreshScan", "createdByUserId", "updatedAt")
     SELECT u.sid, u.team, u.name, u.notes, u.status, u.type, u.url, u.domain, u.page::jsonb, u.qr::jsonb,
            ARRAY(SELECT jsonb_array_elements_text(u.labels::jsonb)), u.wizard, u.record, u.collection, u.fresh, u.creator, now()
       FROM unnest($1::text[], $2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[],
                   $11::text[], $12::text[], $13::text[], $14::text[], $15::boolean[], $16::bigint[])
         WITH ORDINALITY AS u(sid, team, name, notes, status, type, url, domain, page, qr, labels, wizard, record, collection, fresh, creator, n)
      ORDER BY u.n
     RETURNING *`,
    column((r) => r.simplyId),
    column((r) => String(r.teamId)),
    column((r) => r.name),
    column((r) => r.notes ?? null),
    column((r) => r.status ?? 'DRAFT'),
    column((r) => r.actionType ?? 'URL'),
    column((r) => r.actionUrl ?? null),
    column((r) => r.destinationDomain ?? null),
    column((r) => json(r.linkPageSettings)),
    column((r) => json(r.qrCodeSettings)),
    column((r) => JSON.stringify(r.labelSimplyIds ?? [])),
    column((r) => r.dataWizardSimplyId ?? null),
    column((r) => r.dataRecordSimplyId ?? null),
    column((r) => r.dataCollectionSimplyId ?? null),
    column((r) => r.requireFreshScan ?? false),
    column((r) => (r.createdByUserId == null ? null : String(r.createdByUserId))),
  );
}

/** Writes the planned rows in the caller's transaction, with their lifecycle events. */
async function applyPlanned(ctx: RequestContext, tx: Tx, planned: Planned[]): Promise<void> {
  const team = requireTeam(ctx);
  const creates = planned.filter((p): p is PlannedCreate => p.kind === 'create');
  const updates = planned.filter((p): p is PlannedUpdate => p.kind === 'update');
  const events: ActionTagEvent[] = [];
  if (creates.length > 0) {
    const made = await insertTags(tx, creates.map((c) => c.data));
    for (const tag of made) events.push(eventOf(ctx.services, { type: 'CREATED', tag }));
    for (const c of creates) c.row.simplyActionTagSimplyId = c.simplyId;
  }
  for (const u of updates) {
    const updated = await tx.actionTag.update({ where: { id: u.tag.id, teamId: team.id }, data: u.data });
    events.push(eventOf(ctx.services, { type: 'UPDATED', tag: updated, previous: u.tag }));
    if (updated.status !== u.tag.status) events.push(eventOf(ctx.services, { type: 'STATUS_CHANGED', tag: updated, previous: u.tag }));
  }
  await emitActionTagEvents(tx, ctx.services, team.id, events);
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

export async function importActionTagsCsv(ctx: RequestContext, request: CsvImportRequest): Promise<CsvImportResult> {
  const team = requireTeam(ctx);
  const dryRun = request.dryRun === true;
  // the plan's gate first: a team below the band learns nothing about its input
  await requireBand500(ctx, 'CSV import');
  const key = request.idempotencyKey?.trim() ?? '';
  if (!dryRun) {
    if (!key) throw fileError('Idempotency-Key', 'is required to apply an import (run it with dryRun=true first)');
    if (!IDEMPOTENCY_KEY.test(key)) throw fileError('Idempotency-Key', 'must be 1-200 visible ASCII characters');
  }
  const file = parseFile(request.csv);
  const { prisma } = ctx.services;
  if (dryRun) {
    const plan = await teamActionTagPlan(ctx);
    const { planned, fileErrors } = await planRows(ctx, prisma as unknown as Tx, plan, file);
    return summary(
      planned.map((p) => p.row),
      fileErrors,
      { dryRun: true, applied: false, replayed: false },
    );
  }
  const bodySha256 = sha256(request.csv);
  return runTransaction(prisma, async (tx) => {
    // one apply of the team at a time: a key is looked up and claimed without a race
    const lock = advisoryLock('actionTagCsvImports', String(team.id));
    await tx.$executeRawUnsafe(lock.text, ...lock.values);
    await tx.actionTagCsvImport.deleteMany({ where: { teamId: team.id, createdAt: { lt: new Date(Date.now() - KEY_HOURS * 3_600_000) } } });
    const earlier = await tx.actionTagCsvImport.findUnique({ where: { teamId_idempotencyKey: { teamId: team.id, idempotencyKey: key } } });
    if (earlier) {
      if (earlier.bodySha256 !== bodySha256) throw new CsvIdempotencyKeyReusedError();
      return { ...(earlier.response as unknown as CsvImportResult), replayed: true };
    }
    await lockTeamTags(tx, team.id);
    const plan = await teamActionTagPlan(ctx, tx);
    const { planned, fileErrors } = await planRows(ctx, tx, plan, file);
    const rowErrors = planned.flatMap((p) => p.row.errors.map((e) => ({ field: `rows[${p.row.rowNumber}].${e.field ?? 'row'}`, message: e.message })));
    if (rowErrors.length > 0) throw new ValidationError(`The import was not applied: ${rowErrors.length} problem(s) in the rows (see details, or run it with dryRun=true)`, rowErrors);
    if (fileErrors.length > 0) throw new ActionTagCapacityError(plan.managedCapacity);
    await applyPlanned(ctx, tx, planned);
    const result = summary(
      planned.map((p) => p.row),
      [],
      { dryRun: false, applied: true, replayed: false },
    );
    await tx.actionTagCsvImport.create({ data: { teamId: team.id, idempotencyKey: key, bodySha256, response: result as never } });
    return result;
  });
}
