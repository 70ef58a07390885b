// Fixed-window request counters kept in PostgreSQL (the RateLimitCounter table), so a limit holds
// over every instance together: one upsert per request adds one to the bucket's current window and
// answers the new count. Windows start at multiples of their length on the database's clock (one
// clock for all instances). A fixed window lets a client spend a full limit at the end of one window
// and again at the start of the next; for limits this small that is accepted.
import type pg from 'pg';
import { RateLimitError } from '../../app/errors.ts';

export interface WindowLimit {
  /** e.g. "constituent-auth:initiate:ip:203.0.113.7" */
  bucket: string;
  limit: number;
  windowSeconds: number;
}

/** Windows older than this are deleted (longer than every window in use). */
const KEEP_SECONDS = 24 * 3600;
/** about one request in this many also deletes old windows: no job, and the table stays small */
const CLEANUP_EVERY = 200;

/** Counts one request; past the limit, throws 429 RATE_LIMIT_EXCEEDED with Retry-After (seconds to the window's end). */
export async function takeFromWindow(pool: pg.Pool, { bucket, limit, windowSeconds }: WindowLimit): Promise<void> {
  const { rows } = await pool.query<{ count: number; retry: number }>(
    `WITH now AS (SELECT (clock_timestamp() AT TIME ZONE 'UTC') AS t)
     INSERT INTO "RateLimitCounter" (bucket, "windowStart", count)
     SELECT $1, to_timestamp(floor(extract(epoch FROM now.t) / $2::int) * $2::int) AT TIME ZONE 'UTC', 1 FROM now
     ON CONFLICT (bucket, "windowStart") DO UPDATE SET count = "RateLimitCounter".count + 1
     RETURNING count, ceil(extract(epoch FROM "windowStart" + make_interval(secs => $2::int) - (clock_timestamp() AT TIME ZONE 'UTC')))::int AS retry`,
    [bucket, windowSeconds],
  );
  if (Math.random() * CLEANUP_EVERY < 1) void deleteOldWindows(pool).catch(() => undefined);
  const row = rows[0]!;
  if (row.count > limit) throw new RateLimitError(Math.max(1, row.retry));
}

export async function deleteOldWindows(pool: pg.Pool): Promise<number> {
  const result = await pool.query(`DELETE FROM "RateLimitCounter" WHERE "windowStart" < (now() AT TIME ZONE 'UTC') - make_interval(secs => $1::int)`, [KEEP_SECONDS]);
  return result.rowCount ?? 0;
}
