// The SQL of history reads. A page is one range scan of the index (teamId, dataRecordId,
// createdAt DESC, id DESC) starting after the cursor's row: its cost does not grow with how deep
// the page is. Every statement is scoped by teamId first.
import type pg from 'pg';
import { recordStandingSql } from '../../kernel/index.ts';
import type { SentAttachment } from './record-delivery.ts';

/** One history row as the service reads it; `id` never leaves the service. */
export interface DeliveryRow {
  id: string;
  simplyId: string;
  outgoingMessageSimplyId: string | null;
  sourceType: string;
  sourceSimplyId: string | null;
  channelId: string;
  currentStateId: string;
  completeness: string;
  completenessGapReason: string | null;
  sensitivity: string;
  hasProtectedContent: boolean;
  attachmentCount: number;
  createdAt: Date;
  stateChangedAt: Date;
}

/** The protected snapshot of a row, for signed-in team users only. */
export interface ProtectedDeliveryRow extends DeliveryRow {
  destination: string | null;
  senderAddress: string | null;
  renderedSubject: string | null;
  renderedText: string | null;
  renderedHtml: string | null;
  attachments: SentAttachment[];
}

export interface PageQuery {
  teamId: bigint;
  dataRecordSimplyId: string;
  /** the delivery the cursor continues after, or null for the first page */
  after: string | null;
  channelId: string | null;
  currentStateId: string | null;
  /** rows to read: the page's limit plus one, which tells whether another page follows */
  take: number;
  /** the protected snapshot columns too */
  snapshot: boolean;
}

/** The record a history belongs to (deleted ones included: their history stays). */
export interface HistoryRecord {
  collectionId: bigint;
  deleted: boolean;
  archived: boolean;
  /** whether the cursor's delivery is in this record's history (true without a cursor) */
  cursorFound: boolean;
}

// the integration-safe columns; the snapshot adds the protected ones
// the outgoing message by a scalar subquery: one unique-index probe per row whatever the table's statistics
const SAFE = `d.id, d."simplyId",
  (SELECT o."simplyId" FROM "OutgoingMessage" o WHERE o."teamId" = d."teamId" AND o.id = d."outgoingMessageId") AS "outgoingMessageSimplyId", d."sourceType", d."sourceSimplyId", d."channelId",
  d."currentStateId", d.completeness, d."completenessGapReason", d.sensitivity, d."hasProtectedContent", d."attachmentCount",
  d."createdAt", d."stateChangedAt"`;
const SNAPSHOT = `, d.destination, d."senderAddress", d."renderedSubject", d."renderedText", d."renderedHtml", d.attachments`;

/** The statement of one page (the bench explains it). */
export function historyPageStatement(q: PageQuery): { name: string; text: string; values: unknown[] } {
  const values: unknown[] = [q.teamId, q.dataRecordSimplyId, q.after, q.take];
  const where = [`d."teamId" = rec."teamId"`, `d."dataRecordId" = rec.id`];
  // a row comparison on the index's trailing columns: the scan starts right after the cursor's row
  if (q.after !== null) where.push(`(d."createdAt", d.id) < (rec."afterCreatedAt", rec."afterId")`);
  if (q.channelId !== null) where.push(`d."channelId" = $${values.push(q.channelId)}`);
  if (q.currentStateId !== null) where.push(`d."currentStateId" = $${values.push(q.currentStateId)}`);
  const shape = [q.after !== null, q.channelId !== null, q.currentStateId !== null, q.snapshot].map((b) => (b ? 1 : 0)).join('');
  return {
    name: `svc_history_page_${shape}`,
    // the record's standing comes from the kernel; the cursor row and the page are this area's
    text: `WITH rec AS (
             SELECT std.*, c."createdAt" AS "afterCreatedAt", c.id AS "afterId"
               FROM (${recordStandingSql('$1', '$2')}) std
               LEFT JOIN "ConstituentMessageDelivery" c ON c."teamId" = std."teamId" AND c."simplyId" = $3::text AND c."dataRecordId" = std.id
           )
           SELECT rec."collectionId" AS "recordCollectionId", rec.deleted AS "recordDeleted", rec.archived AS "recordArchived",
                  ($3::text IS NULL OR rec."afterId" IS NOT NULL) AS "cursorFound", p.*
             FROM rec
             LEFT JOIN LATERAL (
               SELECT ${SAFE}${q.snapshot ? SNAPSHOT : ''}
                 FROM "ConstituentMessageDelivery" d
                WHERE ${where.join(' AND ')}
                ORDER BY d."createdAt" DESC, d.id DESC
                LIMIT $4
             ) p ON true`,
    values,
  };
}

/**
 * The record and one page of its history in one round trip, as a named statement per shape (with
 * or without cursor, filters, snapshot): each pooled connection plans a shape once. The record
 * comes first, each page row joined to it; a record without (matching) deliveries is one row of
 * record facts. Whether the caller may read the record is the service's to decide before it uses
 * the rows.
 */
export async function findHistoryPage(db: pg.Pool, q: PageQuery): Promise<{ record: HistoryRecord; rows: ProtectedDeliveryRow[] } | null> {
  const { rows } = await db.query(historyPageStatement(q));
  const first = rows[0];
  if (!first) return null;
  const record: HistoryRecord = {
    collectionId: BigInt(first.recordCollectionId),
    deleted: first.recordDeleted,
    archived: first.recordArchived,
    cursorFound: first.cursorFound,
  };
  const page = rows
    .filter((row) => row.id !== null)
    .map(({ recordCollectionId: _c, recordDeleted: _d, recordArchived: _a, cursorFound: _f, ...row }) => ({ ...row, id: String(row.id), attachments: row.attachments ?? [] }) as ProtectedDeliveryRow);
  return { record, rows: page };
}

export interface DeliveryEventRow {
  deliveryId: string;
  stateId: string;
  detail: string | null;
  occurredAt: Date;
}

/** The lifecycle events of the given deliveries, in the order they happened. */
export async function findDeliveryEvents(db: pg.Pool, teamId: bigint, deliveryIds: readonly string[]): Promise<DeliveryEventRow[]> {
  if (deliveryIds.length === 0) return [];
  const { rows } = await db.query(
    `SELECT "deliveryId", "stateId", detail, "occurredAt"
       FROM "ConstituentMessageDeliveryEvent"
      WHERE "teamId" = $1 AND "deliveryId" = ANY($2::bigint[])
      ORDER BY "deliveryId", "occurredAt", id`,
    [teamId, deliveryIds],
  );
  return rows.map((row) => ({ ...row, deliveryId: String(row.deliveryId) }));
}
