// Reads of a constituent's communication history (docs/api/communications.md): the
// integration-safe list (and its deprecated alias) and the protected snapshot. The tier checks
// the credential, `records:read` and CONSTITUENT_MESSAGE_HISTORY_VIEW; here the record: it must be
// one the caller may read (its collection's READ data permission), else 404 as if it did not
// exist. A deleted record keeps its history, readable by team admins only.
import { hasDataAccess } from '../../app/auth/principal.ts';
import type { RequestContext } from '../../app/context.ts';
import { NotFoundError } from '../../app/errors.ts';
import { assertDataSimplyId } from '../../app/ids.ts';
import { requireTeam } from '../../app/require-team.ts';
import { parseInput } from '../../app/validate.ts';
import { requireRecordCredential } from '../../kernel/index.ts';
import { historyArgs, HISTORY_LIMITS } from './communications.input.ts';
import { decodeCursor, encodeCursor, invalidCursor } from './history-cursor.ts';
import {
  findDeliveryEvents,
  findHistoryPage,
  type DeliveryEventRow,
  type DeliveryRow,
  type HistoryRecord,
  type ProtectedDeliveryRow,
} from './communications.sql.ts';

export type RecordState = 'ACTIVE' | 'ARCHIVED' | 'DELETED';

export interface HistoryItem<R extends DeliveryRow = DeliveryRow> {
  row: R;
  /** the record (constituent) whose history this is */
  constituentSimplyId: string;
}

export interface ProtectedHistoryItem extends HistoryItem<ProtectedDeliveryRow> {
  events: DeliveryEventRow[];
}

export interface HistoryPage<T> {
  nodes: T[];
  /** continues after the last node; null when nothing older is left */
  nextCursor: string | null;
  limit: number;
  recordState: RecordState;
  requestedDataRecordSimplyId: string;
  /** the platform does not merge records: always the requested one */
  survivingDataRecordSimplyId: string;
  mergedConstituentSimplyIds: string[];
}

function parseArgs(raw: unknown) {
  const args = parseInput(historyArgs, raw, 'Invalid communication history parameters');
  return { limit: args.limit ?? HISTORY_LIMITS.defaultLimit, cursor: args.cursor ?? null, channelId: args.channelId ?? null, currentStateId: args.currentStateId ?? null };
}

async function mayRead(ctx: RequestContext, record: HistoryRecord): Promise<boolean> {
  const p = ctx.principal;
  if (p.isTeamAdmin || p.isSystemAdmin) return true;
  // a deleted record's history is for team admins only; nobody else learns it existed
  if (record.deleted) return false;
  const schema = await ctx.services.schemas.get(requireTeam(ctx).id);
  const collection = schema.collectionsById.get(record.collectionId);
  return collection !== undefined && hasDataAccess(p, collection.simplyId, 'READ');
}

/** One page of the record's history, if the caller may read it (else 404, as for a missing record). */
async function page<R extends DeliveryRow>(ctx: RequestContext, dataRecordSimplyId: string, raw: unknown, snapshot: boolean): Promise<{ rows: R[]; meta: Omit<HistoryPage<never>, 'nodes'> }> {
  const team = requireTeam(ctx);
  assertDataSimplyId(dataRecordSimplyId, 'dataRecordSimplyId');
  const args = parseArgs(raw);
  const after = args.cursor === null ? null : decodeCursor(args.cursor, dataRecordSimplyId);
  requireRecordCredential(ctx.principal, 'READ');
  const found = await findHistoryPage(ctx.services.pool, {
    teamId: team.id,
    dataRecordSimplyId,
    after,
    channelId: args.channelId,
    currentStateId: args.currentStateId,
    take: args.limit + 1,
    snapshot,
  });
  if (!found || !(await mayRead(ctx, found.record))) throw new NotFoundError('Data record', dataRecordSimplyId);
  if (!found.record.cursorFound) throw invalidCursor();
  const rows = found.rows as unknown as R[];
  const more = rows.length > args.limit;
  if (more) rows.length = args.limit;
  const { record } = found;
  return {
    rows,
    meta: {
      nextCursor: more ? encodeCursor(dataRecordSimplyId, rows.at(-1)!.simplyId) : null,
      limit: args.limit,
      recordState: record.deleted ? 'DELETED' : record.archived ? 'ARCHIVED' : 'ACTIVE',
      requestedDataRecordSimplyId: dataRecordSimplyId,
      survivingDataRecordSimplyId: dataRecordSimplyId,
      mergedConstituentSimplyIds: [],
    },
  };
}

/** The integration-safe list, newest first. */
export async function listCommunications(ctx: RequestContext, dataRecordSimplyId: string, args: unknown): Promise<HistoryPage<HistoryItem>> {
  const { rows, meta } = await page<DeliveryRow>(ctx, dataRecordSimplyId, args, false);
  return { ...meta, nodes: rows.map((row) => ({ row, constituentSimplyId: dataRecordSimplyId })) };
}

/** The protected snapshot (exact addresses, masked content, lifecycle events, attachment manifest), newest first. */
export async function listProtectedCommunications(ctx: RequestContext, dataRecordSimplyId: string, args: unknown): Promise<HistoryPage<ProtectedHistoryItem>> {
  const { rows, meta } = await page<ProtectedDeliveryRow>(ctx, dataRecordSimplyId, args, true);
  const events = await findDeliveryEvents(ctx.services.pool, requireTeam(ctx).id, rows.map((r) => r.id));
  const byDelivery = new Map<string, DeliveryEventRow[]>();
  for (const event of events) byDelivery.set(event.deliveryId, [...(byDelivery.get(event.deliveryId) ?? []), event]);
  return { ...meta, nodes: rows.map((row) => ({ row, constituentSimplyId: dataRecordSimplyId, events: byDelivery.get(row.id) ?? [] })) };
}
