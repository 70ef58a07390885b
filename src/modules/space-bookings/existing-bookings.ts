// When a connection maps a booking collection, the bookings the collection already holds claim
// their time (as if written now through the records API, booking-time-guard.ts), so availability
// counts them from the first request. Double bookings made before the mapping cannot both hold
// their time: the older record keeps it, and the others are named in the answer for the team to
// sort out (moving or cancelling one claims or frees its time like any write). Records that
// already hold time are left as they are, so mapping again is safe and picks up what a failed
// attempt left.
import type pg from 'pg';
import { type FieldDefinition, scanRecords } from '../../kernel/index.ts';
import { insertClaimsWhereFree, recordsHoldingTime } from './booking-claims.sql.ts';
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
    const held = await recordsHoldingTime(db, teamId, records.map((r) => r.simplyId));
    const times = new Map<string, RecordTime>();
    for (const r of records) {
      const time = held.has(r.simplyId) ? null : recordTime(fields, r.values, m);
      if (time && time !== 'INVERTED') times.set(r.simplyId, time);
    }
    const claims = [...times].flatMap(([record, t]) => t.spaces.map((space) => ({ bookingRecordSimplyId: record, spaceRecordSimplyId: space, startsAt: t.startsAt, endsAt: t.endsAt })));
    const claimedSpaces = new Map<string, number>();
    for (const record of await insertClaimsWhereFree(db, teamId, claims)) claimedSpaces.set(record, (claimedSpaces.get(record) ?? 0) + 1);
    for (const [record, t] of times) {
      if (claimedSpaces.get(record) === t.spaces.length) {
        outcome.claimed++;
      } else {
        outcome.overlappingTotal++;
        if (outcome.overlapping.length < NAMED) outcome.overlapping.push(record);
      }
    }
  }
}
