// Booking records written outside the booking routes (/v1/data-records, batches, imports, wizards,
// automations) claim their time too, in the write's own transaction: the claims table's exclusion
// constraint then refuses a second booking of a space for an overlapping time whichever face wrote
// it. Such writes are the team's own data work, so the channel's policy (opening hours, lead time,
// buffers, prices) is not applied; only double booking is refused. The booking routes claim under
// the channel's lock themselves (booking-writes.service.ts) and are skipped here.
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { Services } from '../../app/context.ts';
import { NotifiedCache } from '../../app/pubsub/notified-cache.ts';
import type { RecordChange, RecordWriteGuard } from '../../kernel/index.ts';
import { insertClaims, releaseClaims } from './booking-claims.sql.ts';
import { type BookingFields, type RecordTime, recordTime, timeFieldIds } from './booking-record-time.ts';
import { CHANNELS_CHANNEL } from './channel-cache.ts';
import { BookingRefusedError } from './space-bookings.errors.ts';
import type { Mapping } from './space-bookings.input.ts';

export const BOOKING_ROUTES_SOURCE = 'SVC_SPACES';

/** booking collection simplyId → its mapped fields (the oldest connection's, when several map one collection) */
type BookingCollections = Map<string, BookingFields>;

async function readBookingCollections(db: pg.PoolClient, teamId: bigint): Promise<BookingCollections> {
  const { rows } = await db.query<{ mapping: Mapping }>(`SELECT mapping FROM "SpaceSourceConnection" WHERE "teamId" = $1 AND mapping IS NOT NULL ORDER BY id DESC`, [teamId]);
  return new Map(rows.map((r) => [r.mapping.bookings.dataCollectionSimplyId, r.mapping.bookings]));
}

function wantedTime(change: RecordChange, m: BookingFields): RecordTime | null {
  if (change.kind === 'DELETED') return null;
  const time = recordTime(change.fields, change.record.values, m);
  if (time === 'INVERTED') {
    throw new BookingRefusedError([{ code: 'INVALID_BOOKING_TIME_RANGE', message: `Booking ${change.record.simplyId} ends before it starts`, path: m.endsAtFieldSimplyId }]);
  }
  return time;
}

const touchesTime = (change: RecordChange, m: BookingFields) => change.kind !== 'UPDATED' || change.changedFields.some((f) => timeFieldIds(m).includes(f.dataFieldSimplyId));

export function bookingTimeGuard(services: Services): RecordWriteGuard {
  // which collections hold bookings, per team, dropped when a connection of the team changes
  const known = new NotifiedCache<BookingCollections>(services.notifier, { channel: CHANNELS_CHANNEL, maxAgeMs: 60_000, maxEntries: 10_000 });
  let listening: Promise<void> | null = null;
  const bookingCollections = async (db: pg.PoolClient, teamId: bigint) => {
    listening ??= known.start().catch((err: unknown) => services.logger.warn({ err }, 'booking collections are not kept in memory'));
    const cached = known.get(String(teamId));
    if (cached) return cached;
    const generation = known.current;
    const read = await readBookingCollections(db, teamId);
    known.put(String(teamId), String(teamId), read, generation);
    return read;
  };

  return async (db, actor, changes) => {
    if (actor.source === BOOKING_ROUTES_SOURCE) return;
    const collections = await bookingCollections(db, actor.teamId);
    if (collections.size === 0) return;
    for (const change of changes) {
      const m = collections.get(change.collection.simplyId);
      if (!m || !touchesTime(change, m)) continue;
      const wanted = wantedTime(change, m);
      const channelId = await releaseClaims(db, actor.teamId, change.record.simplyId);
      if (!wanted) continue;
      const claimed = await insertClaims(db, { teamId: actor.teamId, channelId, claimKey: randomUUID(), bookingRecordSimplyId: change.record.simplyId, spaces: wanted.spaces, startsAt: wanted.startsAt, endsAt: wanted.endsAt });
      if (!claimed) {
        throw new BookingRefusedError([
          { code: 'BOOKING_SPACE_UNAVAILABLE', message: `Booking ${change.record.simplyId}: a space it names is already booked for part of this time`, path: m.startsAtFieldSimplyId },
        ]);
      }
    }
  };
}
