// The feed's hot statements: one query per page and index-friendly counts (a person's feed is read
// on every app start and badge refresh), and the bulk writes whose RETURNING feeds the realtime
// event. Reads go straight to the pool; writes run in the caller's Prisma transaction so the event
// published there commits with them.
import type pg from 'pg';
import type { Tx } from '../../app/transaction.ts';
import type { LocalizedText } from '../../app/localized-text.ts';

/** A notification as the feed shows it (a Prisma UserNotification row fits too). */
export interface NotificationView {
  simplyId: string;
  notificationType: string;
  category: string;
  title: LocalizedText | null;
  body: LocalizedText | null;
  iconType: string | null;
  actionUrl: string | null;
  referenceEntityType: string | null;
  referenceEntityId: string | null;
  readAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

const COLUMNS = `"simplyId", "notificationType", category, title, body, "iconType", "actionUrl", "referenceEntityType",
  "referenceEntityId", "readAt", "createdAt", "updatedAt"`;

/** Whose feed, and what of it: the filters every read shares. */
export interface FeedFilter {
  teamId: bigint;
  userId: bigint;
  /** categories the asking device turned off */
  hiddenCategories: readonly string[];
  isRead?: boolean | null;
  notificationType?: string | null;
}

function where(filter: FeedFilter): { text: string; values: unknown[] } {
  const values: unknown[] = [filter.teamId, filter.userId];
  const parts = ['"teamId" = $1', '"userId" = $2', '"deletedAt" IS NULL'];
  if (filter.isRead === true) parts.push('"readAt" IS NOT NULL');
  if (filter.isRead === false) parts.push('"readAt" IS NULL');
  if (filter.notificationType) parts.push(`"notificationType" = $${values.push(filter.notificationType)}`);
  if (filter.hiddenCategories.length > 0) parts.push(`category <> ALL($${values.push(filter.hiddenCategories)}::text[])`);
  return { text: parts.join(' AND '), values };
}

/** One page, newest first; the partial feed index (teamId, userId, createdAt DESC, id DESC) gives the order without a sort. */
export async function feedPage(pool: pg.Pool, filter: FeedFilter, paging: { limit: number; offset: number }): Promise<NotificationView[]> {
  const w = where(filter);
  // the offset is skipped in the index alone (an index-only scan when no filter needs the row), and
  // only the page's rows are read from the table
  const { rows } = await pool.query<NotificationView>(
    `SELECT ${COLUMNS} FROM "UserNotification"
      WHERE "teamId" = $1 AND id IN (
        SELECT id FROM "UserNotification" WHERE ${w.text}
         ORDER BY "createdAt" DESC, id DESC LIMIT $${w.values.length + 1} OFFSET $${w.values.length + 2})
      ORDER BY "createdAt" DESC, id DESC`,
    [...w.values, paging.limit, paging.offset],
  );
  return rows;
}

/**
 * How many notifications the filter selects, from the per-type counters the database keeps
 * (UserNotificationCount, kept by triggers): a few rows, however long the feed.
 */
export async function feedCount(db: pg.Pool | pg.PoolClient, filter: FeedFilter): Promise<number> {
  const values: unknown[] = [filter.teamId, filter.userId];
  const parts = ['"teamId" = $1', '"userId" = $2'];
  if (filter.notificationType) parts.push(`"notificationType" = $${values.push(filter.notificationType)}`);
  if (filter.hiddenCategories.length > 0) parts.push(`category <> ALL($${values.push(filter.hiddenCategories)}::text[])`);
  const measure = filter.isRead === false ? 'unread' : filter.isRead === true ? 'live - unread' : 'live';
  const { rows } = await db.query<{ n: number }>(`SELECT coalesce(sum(${measure}), 0)::int AS n FROM "UserNotificationCount" WHERE ${parts.join(' AND ')}`, values);
  return rows[0]!.n;
}

/** Unread, not deleted, not hidden. */
export function unreadCount(pool: pg.Pool, teamId: bigint, userId: bigint, hiddenCategories: readonly string[]): Promise<number> {
  return feedCount(pool, { teamId, userId, hiddenCategories, isRead: false });
}

export async function findOwn(pool: pg.Pool, teamId: bigint, userId: bigint, simplyId: string): Promise<NotificationView | null> {
  const { rows } = await pool.query<NotificationView>(
    `SELECT ${COLUMNS} FROM "UserNotification" WHERE "teamId" = $1 AND "simplyId" = $2 AND "userId" = $3 AND "deletedAt" IS NULL`,
    [teamId, simplyId, userId],
  );
  return rows[0] ?? null;
}

/**
 * Marks one notification read unless it already is (the first readAt stays). Returns the row as it
 * is after the call and whether this call changed it; null when it is not the person's or deleted.
 */
export async function markOneRead(tx: Tx, teamId: bigint, userId: bigint, simplyId: string, at: Date): Promise<{ row: NotificationView; changed: boolean } | null> {
  const changed = await tx.$queryRawUnsafe<NotificationView[]>(
    `UPDATE "UserNotification" SET "readAt" = $4, "updatedAt" = $4
      WHERE "teamId" = $1 AND "simplyId" = $2 AND "userId" = $3 AND "deletedAt" IS NULL AND "readAt" IS NULL
      RETURNING ${COLUMNS}`,
    teamId, simplyId, userId, at,
  );
  if (changed[0]) return { row: changed[0], changed: true };
  const [row] = await tx.$queryRawUnsafe<NotificationView[]>(
    `SELECT ${COLUMNS} FROM "UserNotification" WHERE "teamId" = $1 AND "simplyId" = $2 AND "userId" = $3 AND "deletedAt" IS NULL`,
    teamId, simplyId, userId,
  );
  return row ? { row, changed: false } : null;
}

/** Marks every unread notification of the person read, except hidden categories; returns what it touched. */
export function markAllRead(tx: Tx, teamId: bigint, userId: bigint, hiddenCategories: readonly string[], at: Date): Promise<{ simplyId: string; category: string }[]> {
  return tx.$queryRawUnsafe(
    `UPDATE "UserNotification" SET "readAt" = $3, "updatedAt" = $3
      WHERE "teamId" = $1 AND "userId" = $2 AND "readAt" IS NULL AND "deletedAt" IS NULL AND category <> ALL($4::text[])
      RETURNING "simplyId", category`,
    teamId, userId, at, hiddenCategories,
  );
}

/** Soft-deletes one notification of the person; null when it is not theirs or already deleted. */
export async function softDelete(tx: Tx, teamId: bigint, userId: bigint, simplyId: string, at: Date): Promise<{ category: string } | null> {
  const [row] = await tx.$queryRawUnsafe<{ category: string }[]>(
    `UPDATE "UserNotification" SET "deletedAt" = $4, "updatedAt" = $4
      WHERE "teamId" = $1 AND "simplyId" = $2 AND "userId" = $3 AND "deletedAt" IS NULL
      RETURNING category`,
    teamId, simplyId, userId, at,
  );
  return row ?? null;
}
