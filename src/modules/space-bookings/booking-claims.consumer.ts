// A booking record deleted through any face frees its time with the delete itself while its
// collection is mapped (booking-time-guard.ts). This is the backstop for the rest (a record of a
// collection a connection no longer maps, claims written before the guard): the claims of a
// deleted record are dropped in the outbox dispatch that hands its DATA_RECORD_DELETED event on.
import type { DomainEventConsumer } from '../../app/outbox.ts';
import { RECORD_EVENT_TYPES } from '../../kernel/index.ts';

export const releaseDeletedBookings: DomainEventConsumer = async (events, db) => {
  const deleted = events.filter((e) => e.eventType === RECORD_EVENT_TYPES.DELETED);
  if (deleted.length === 0) return;
  const teams = deleted.map((e) => e.teamId);
  const records = deleted.map((e) => String(e.payload.data.dataRecordSimplyId ?? ''));
  await db.query(
    `DELETE FROM space_bookings.claims c USING unnest($1::bigint[], $2::text[]) AS d("teamId", record)
      WHERE c."teamId" = d."teamId" AND c."bookingRecordSimplyId" = d.record`,
    [teams, records],
  );
};
