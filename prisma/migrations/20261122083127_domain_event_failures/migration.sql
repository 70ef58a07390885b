-- CreateTable
CREATE TABLE "DomainEventFailure" (
    "id" BIGSERIAL NOT NULL,
    "teamId" BIGINT NOT NULL,
    "eventRowId" BIGINT NOT NULL,
    "eventId" TEXT NOT NULL,
    "consumer" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 1,
    "lastError" TEXT NOT NULL,
    "nextAttemptAt" TIMESTAMP(3),
    "resolvedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "DomainEventFailure_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "DomainEventFailure_nextAttemptAt_idx" ON "DomainEventFailure"("nextAttemptAt");

-- CreateIndex
CREATE INDEX "DomainEventFailure_teamId_createdAt_idx" ON "DomainEventFailure"("teamId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "DomainEventFailure_eventRowId_consumer_key" ON "DomainEventFailure"("eventRowId", "consumer");
