-- Booking records written through any face claim their time (src/modules/space-bookings/
-- booking-time-guard.ts): a record written outside the booking routes belongs to no channel, so a
-- claim may name none. Instances keep which collections hold bookings, per team, and drop that on
-- the same notification as the channels: a connection created now counts as a change too.
ALTER TABLE space_bookings.claims ALTER COLUMN "channelId" DROP NOT NULL;

CREATE OR REPLACE FUNCTION space_channels_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('svc_space_channels', (CASE WHEN TG_OP = 'INSERT' THEN NEW."teamId" ELSE OLD."teamId" END)::text);
  RETURN NULL;
END $$;

DROP TRIGGER "SpaceSourceConnection_changed" ON "SpaceSourceConnection";
CREATE TRIGGER "SpaceSourceConnection_changed" AFTER INSERT OR UPDATE OR DELETE ON "SpaceSourceConnection"
  FOR EACH ROW EXECUTE FUNCTION space_channels_notify();
