-- CreateTable
CREATE TABLE "SpaceSourceConnection" (
    "id" BIGSERIAL NOT NULL,
    "simplyId" TEXT NOT NULL,
    "teamId" BIGINT NOT NULL,
    "name" TEXT NOT NULL,
    "mapping" JSONB,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "SpaceSourceConnection_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SpaceBookingChannel" (
    "id" BIGSERIAL NOT NULL,
    "simplyId" TEXT NOT NULL,
    "teamId" BIGINT NOT NULL,
    "connectionId" BIGINT NOT NULL,
    "name" TEXT NOT NULL,
    "config" JSONB NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "SpaceBookingChannel_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SpaceBookingLink" (
    "id" BIGSERIAL NOT NULL,
    "simplyId" TEXT NOT NULL,
    "teamId" BIGINT NOT NULL,
    "channelId" BIGINT NOT NULL,
    "name" TEXT NOT NULL,
    "audience" TEXT NOT NULL,
    "paymentPolicy" TEXT NOT NULL DEFAULT 'NONE',
    "policy" JSONB NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SpaceBookingLink_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "SpaceSourceConnection_teamId_simplyId_key" ON "SpaceSourceConnection"("teamId", "simplyId");

-- CreateIndex
CREATE INDEX "SpaceBookingChannel_connectionId_idx" ON "SpaceBookingChannel"("connectionId");

-- CreateIndex
CREATE UNIQUE INDEX "SpaceBookingChannel_teamId_simplyId_key" ON "SpaceBookingChannel"("teamId", "simplyId");

-- CreateIndex
CREATE UNIQUE INDEX "SpaceBookingLink_simplyId_key" ON "SpaceBookingLink"("simplyId");

-- CreateIndex
CREATE UNIQUE INDEX "SpaceBookingLink_tokenHash_key" ON "SpaceBookingLink"("tokenHash");

-- CreateIndex
CREATE INDEX "SpaceBookingLink_channelId_idx" ON "SpaceBookingLink"("channelId");

-- AddForeignKey
ALTER TABLE "SpaceBookingChannel" ADD CONSTRAINT "SpaceBookingChannel_connectionId_fkey" FOREIGN KEY ("connectionId") REFERENCES "SpaceSourceConnection"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SpaceBookingLink" ADD CONSTRAINT "SpaceBookingLink_channelId_fkey" FOREIGN KEY ("channelId") REFERENCES "SpaceBookingChannel"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The last line against double booking (written by hand; Prisma can neither express nor describe
-- it, so it lives in a schema of its own): the time each booking occupies per space, and two claims
-- of one space never overlap, whatever the application checked before inserting. bookingRecordSimplyId
-- is null only between the record's commit and the statement naming it (both in one transaction
-- when the kernel allows; see src/modules/space-bookings/booking-claims.sql.ts).
CREATE SCHEMA IF NOT EXISTS space_bookings;
CREATE EXTENSION IF NOT EXISTS btree_gist SCHEMA space_bookings;
CREATE TABLE space_bookings.claims (
  id bigserial PRIMARY KEY,
  "teamId" bigint NOT NULL,
  "channelId" bigint NOT NULL REFERENCES "SpaceBookingChannel"(id) ON DELETE CASCADE,
  "spaceRecordSimplyId" text NOT NULL,
  "bookingRecordSimplyId" text,
  "claimKey" text NOT NULL UNIQUE,
  "startsAt" timestamptz(3) NOT NULL,
  "endsAt" timestamptz(3) NOT NULL,
  "createdAt" timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT claims_range CHECK ("endsAt" > "startsAt"),
  CONSTRAINT claims_no_overlap EXCLUDE USING gist ("teamId" WITH =, "spaceRecordSimplyId" WITH =, tstzrange("startsAt", "endsAt", '[)') WITH &&)
);
CREATE INDEX claims_booking ON space_bookings.claims ("teamId", "bookingRecordSimplyId");
