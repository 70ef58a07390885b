-- Serving instances keep the booking channels they read in memory (src/modules/space-bookings/
-- channel-cache.ts) and drop a team's channels when any channel or source connection of the team
-- changes or goes: these triggers NOTIFY the team's id on commit, whichever code path made the change.
CREATE FUNCTION space_channels_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('svc_space_channels', OLD."teamId"::text);
  RETURN NULL;
END $$;

CREATE TRIGGER "SpaceBookingChannel_changed" AFTER UPDATE OR DELETE ON "SpaceBookingChannel"
  FOR EACH ROW EXECUTE FUNCTION space_channels_notify();
CREATE TRIGGER "SpaceSourceConnection_changed" AFTER UPDATE OR DELETE ON "SpaceSourceConnection"
  FOR EACH ROW EXECUTE FUNCTION space_channels_notify();
