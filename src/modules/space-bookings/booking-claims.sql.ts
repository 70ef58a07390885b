// The time each booking holds per space (space_bookings.claims, created by the area's migration):
// read to answer availability, written in the booking record's own transaction (under the
// channel's advisory lock for the booking routes; by the record-write guard for other faces; for
// the records already there when a collection is mapped). The table's exclusion constraint refuses
// overlapping claims of one space whoever writes them: that refusal is a 409, never a 500.
import type pg from 'pg';
import { advisoryLock } from '../../db/advisory-locks.ts';
import type { BusySpan } from './booking-rules.ts';

const OVERLAP_CONSTRAINT = 'claims_no_overlap';

/** Claims of the spaces that touch [from, to) (padded by the caller for buffers). */
export async function busySpans(db: pg.Pool | pg.PoolClient, teamId: bigint, spaces: readonly string[], from: number, to: number): Promise<BusySpan[]> {
  if (spaces.length === 0) return [];
  const { rows } = await db.query<{ space: string; starts: Date; ends: Date; booking: string | null }>(
    `SELECT "spaceRecordSimplyId" AS space, "startsAt" AS starts, "endsAt" AS ends, "bookingRecordSimplyId" AS booking
       FROM space_bookings.claims
      WHERE "teamId" = $1 AND "spaceRecordSimplyId" = ANY($2::text[]) AND "startsAt" < $4 AND "endsAt" > $3`,
    [teamId, spaces, new Date(from), new Date(to)],
  );
  return rows.map((r) => ({ spaceRecordSimplyId: r.space, startsAt: r.starts.getTime(), endsAt: r.ends.getTime(), bookingRecordSimplyId: r.booking }));
}

/** Serializes the final check and write of one channel until the transaction ends. */
export async function lockChannel(db: pg.PoolClient, channelId: bigint): Promise<void> {
  const lock = advisoryLock('spaceBookingChannels', channelId.toString());
  await db.query(lock.text, lock.values);
}

export interface NewClaim {
  teamId: bigint;
  /** null for a booking record written outside the booking routes (booking-time-guard.ts) */
  channelId: bigint | null;
  claimKey: string;
  bookingRecordSimplyId: string | null;
  spaces: readonly string[];
  startsAt: number;
  endsAt: number;
}

/** Inserts one claim per space; false when the exclusion constraint refused one (nothing inserted). */
export async function insertClaims(db: pg.PoolClient, claim: NewClaim): Promise<boolean> {
  await db.query('SAVEPOINT space_claims');
  try {
    await db.query(
      `INSERT INTO space_bookings.claims ("teamId", "channelId", "spaceRecordSimplyId", "bookingRecordSimplyId", "claimKey", "startsAt", "endsAt")
       SELECT $1, $2, space, $4, $3 || ':' || space, $6, $7 FROM unnest($5::text[]) AS space`,
      [claim.teamId, claim.channelId, claim.claimKey, claim.bookingRecordSimplyId, claim.spaces, new Date(claim.startsAt), new Date(claim.endsAt)],
    );
    await db.query('RELEASE SAVEPOINT space_claims');
    return true;
  } catch (error) {
    await db.query('ROLLBACK TO SAVEPOINT space_claims');
    if ((error as { constraint?: string }).constraint === OVERLAP_CONSTRAINT) return false;
    throw error;
  }
}

/** Frees a booking's time (cancelled, denied, or about to be claimed again by an edit); answers the channel it was booked through, if any. */
export async function releaseClaims(db: pg.Pool | pg.PoolClient, teamId: bigint, bookingRecordSimplyId: string): Promise<bigint | null> {
  const { rows } = await db.query<{ channelId: string | null }>(
    `DELETE FROM space_bookings.claims WHERE "teamId" = $1 AND "bookingRecordSimplyId" = $2 RETURNING "channelId"::text AS "channelId"`,
    [teamId, bookingRecordSimplyId],
  );
  const channelId = rows.find((r) => r.channelId !== null)?.channelId;
  return channelId ? BigInt(channelId) : null;
}

/** The claims of one booking: its spaces and time as last booked. */
export async function claimsOf(db: pg.Pool | pg.PoolClient, teamId: bigint, bookingRecordSimplyId: string): Promise<BusySpan[]> {
  const { rows } = await db.query<{ space: string; starts: Date; ends: Date }>(
    `SELECT "spaceRecordSimplyId" AS space, "startsAt" AS starts, "endsAt" AS ends FROM space_bookings.claims WHERE "teamId" = $1 AND "bookingRecordSimplyId" = $2 ORDER BY id`,
    [teamId, bookingRecordSimplyId],
  );
  return rows.map((r) => ({ spaceRecordSimplyId: r.space, startsAt: r.starts.getTime(), endsAt: r.ends.getTime(), bookingRecordSimplyId }));
}

export interface FoundClaim {
  bookingRecordSimplyId: string;
  spaceRecordSimplyId: string;
  startsAt: number;
  endsAt: number;
}

/**
 * Claims of no channel, in one statement, each only where the exclusion constraint lets it (a claim
 * refused by an earlier row of the same statement included: rows go in the order given). Answers
 * the booking of each claim made, once per claim.
 */
export async function insertClaimsWhereFree(db: pg.PoolClient, teamId: bigint, claims: readonly FoundClaim[]): Promise<string[]> {
  if (claims.length === 0) return [];
  const { rows } = await db.query<{ record: string }>(
    `INSERT INTO space_bookings.claims ("teamId", "spaceRecordSimplyId", "bookingRecordSimplyId", "claimKey", "startsAt", "endsAt")
     SELECT $1, d.space, d.record, gen_random_uuid()::text, d.starts, d.ends
       FROM unnest($2::text[], $3::text[], $4::timestamptz[], $5::timestamptz[]) WITH ORDINALITY AS d(record, space, starts, ends, n)
      ORDER BY d.n
     ON CONFLICT DO NOTHING
     RETURNING "bookingRecordSimplyId" AS record`,
    [teamId, claims.map((c) => c.bookingRecordSimplyId), claims.map((c) => c.spaceRecordSimplyId), claims.map((c) => new Date(c.startsAt)), claims.map((c) => new Date(c.endsAt))],
  );
  return rows.map((r) => r.record);
}

/** Of these booking records, the ones that hold time. */
export async function recordsHoldingTime(db: pg.Pool | pg.PoolClient, teamId: bigint, bookingRecordSimplyIds: readonly string[]): Promise<Set<string>> {
  if (bookingRecordSimplyIds.length === 0) return new Set();
  const { rows } = await db.query<{ record: string }>(
    `SELECT DISTINCT "bookingRecordSimplyId" AS record FROM space_bookings.claims WHERE "teamId" = $1 AND "bookingRecordSimplyId" = ANY($2::text[])`,
    [teamId, bookingRecordSimplyIds],
  );
  return new Set(rows.map((r) => r.record));
}
