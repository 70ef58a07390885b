// When a connection maps a booking collection, the bookings the collection already holds claim
// their time (as if written now through the records API, booking-time-guard.ts), so availability
// counts them from the first request. Double bookings made before the mapping cannot both hold
// their time: the older record keeps it, and the others are named in the answer for the team to
// sort out (moving or cancelling one claims or frees its time like any write). Records that
// already hold time are left as they are, so mapping again is safe and picks up what a failed
// attempt left.
import type pg from 'pg';
import { type FieldDefinition, scanRecords } from '../../kernel/index.ts';
import { type BookingFields, recordTime, type RecordTime } from './booking-record-time.ts';

/** records read per statement */
const CHUNK = 1_000;
/** records named in the answer at most */
const NAMED = 100;

export interface ExistingBookings {
  /** records that now hold their time */
  claimed: number;
  /** records (oldest first, at most 100) a space of which was already booked for part of their time */
  overlapping: string[];
  overlappingTotal: number;
}

export async function claimExistingBookings(db: pg.PoolClient, teamId: bigint, collectionId: bigint, fields: readonly FieldDefinition[], m: BookingFields): Promise<ExistingBookings> {
  const outcome: ExistingBookings = { claimed: 0, overlapping: [], overlappingTotal: 0 };
  const scan = { teamId, collectionId, filters: [], fieldsById: new Map() };
  for (let after: bigint | undefined; ; ) {
    const records = await scanRecords(db, scan, { after, limit: CHUNK });
    if (records.length === 0) return outcome;
    after = records.at(-1)!.id;
    const times = new Map<string, RecordTime>();
    for (const r of records) {
      const time = recordTime(fields, r.values, m);
      if (time && time !== 'INVERTED') times.set(r.simplyId, time);
    }
    const rows = [...times].flatMap(([record, t]) => t.spaces.map((space) => ({ record, space, t })));
    if (rows.length === 0) continue;
    // one statement a chunk; DO NOTHING skips a claim the exclusion constraint refuses, including
    // one refused by a claim of this same statement (rows go in record order: the older record wins)
    const { rows: inserted } = await db.query<{ record: string }>(
      `INSERT INTO space_bookings.claims ("teamId", "spaceRecordSimplyId", "bookingRecordSimplyId", "claimKey", "startsAt", "endsAt")
       SELECT $1, d.space, d.record, gen_random_uuid()::text, d.starts, d.ends
         FROM unnest($2::text[], $3::text[], $4::timestamptz[], $5::timestamptz[]) WITH ORDINALITY AS d(record, space, starts, ends, n)
        WHERE NOT EXISTS (SELECT 1 FROM space_bookings.claims c WHERE c."teamId" = $1 AND c."bookingRecordSimplyId" = d.record)
        ORDER BY d.n
       ON CONFLICT DO NOTHING
       RETURNING "bookingRecordSimplyId" AS record`,
      [teamId, rows.map((r) => r.record), rows.map((r) => r.space), rows.map((r) => new Date(r.t.startsAt)), rows.map((r) => new Date(r.t.endsAt))],
    );
    const claimedSpaces = new Map<string, number>();
    for (const { record } of inserted) claimedSpaces.set(record, (claimedSpaces.get(record) ?? 0) + 1);
    const alreadyHeld = await heldBefore(db, teamId, [...times.keys()].filter((id) => !claimedSpaces.has(id)));
    for (const [record, t] of times) {
      const got = claimedSpaces.get(record) ?? 0;
      if (got > 0 && got === t.spaces.length) outcome.claimed++;
      else if (got > 0 || !alreadyHeld.has(record)) {
        outcome.overlappingTotal++;
        if (outcome.overlapping.length < NAMED) outcome.overlapping.push(record);
      }
    }
  }
}

/** Of these records, the ones that held time before this mapping (skipped, not refused). */
async function heldBefore(db: pg.PoolClient, teamId: bigint, records: string[]): Promise<Set<string>> {
  if (records.length === 0) return new Set();
  const { rows } = await db.query<{ record: string }>(
    `SELECT DISTINCT "bookingRecordSimplyId" AS record FROM space_bookings.claims WHERE "teamId" = $1 AND "bookingRecordSimplyId" = ANY($2::text[])`,
    [teamId, records],
  );
  return new Set(rows.map((r) => r.record));
}
