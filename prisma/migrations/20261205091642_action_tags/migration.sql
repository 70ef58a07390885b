-- CreateTable
CREATE TABLE "ActionTag" (
    "id" BIGSERIAL NOT NULL,
    "simplyId" TEXT NOT NULL,
    "teamId" BIGINT NOT NULL,
    "name" TEXT NOT NULL,
    "notes" TEXT,
    "status" TEXT NOT NULL DEFAULT 'DRAFT',
    "actionType" TEXT NOT NULL DEFAULT 'URL',
    "actionUrl" TEXT,
    "destinationDomain" TEXT,
    "linkPageSettings" JSONB,
    "qrCodeSettings" JSONB,
    "dataWizardSimplyId" TEXT,
    "dataRecordSimplyId" TEXT,
    "dataCollectionSimplyId" TEXT,
    "requireFreshScan" BOOLEAN NOT NULL DEFAULT false,
    "labelSimplyIds" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "lifetimeScans" INTEGER NOT NULL DEFAULT 0,
    "lastScannedAt" TIMESTAMP(3),
    "createdByUserId" BIGINT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ActionTag_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ActionTagTeamPlan" (
    "teamId" BIGINT NOT NULL,
    "contract" TEXT NOT NULL DEFAULT 'STANDALONE',
    "billing" TEXT NOT NULL DEFAULT 'FREE',
    "band" INTEGER NOT NULL DEFAULT 500,
    "managedCapacity" INTEGER NOT NULL DEFAULT 500,
    "detailRetentionDays" INTEGER NOT NULL DEFAULT 30,
    "domainAllowance" INTEGER NOT NULL DEFAULT 0,
    "updatedByUserId" BIGINT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ActionTagTeamPlan_pkey" PRIMARY KEY ("teamId")
);

-- CreateTable
CREATE TABLE "ActionTagScan" (
    "id" BIGSERIAL NOT NULL,
    "teamId" BIGINT NOT NULL,
    "actionTagId" BIGINT NOT NULL,
    "scannedAt" TIMESTAMP(3) NOT NULL,
    "resolveStatus" TEXT NOT NULL,
    "resolvedDestination" TEXT,
    "interactionSource" TEXT NOT NULL,
    "trafficClass" TEXT NOT NULL,
    "countedAsInteraction" BOOLEAN NOT NULL DEFAULT true,
    "city" TEXT,
    "region" TEXT,
    "country" TEXT,
    "referrer" TEXT,
    "userAgent" TEXT,
    "userAgentMaskedAt" TIMESTAMP(3),
    "abuseHash" TEXT,

    CONSTRAINT "ActionTagScan_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ActionTagDailyStat" (
    "id" BIGSERIAL NOT NULL,
    "teamId" BIGINT NOT NULL,
    "actionTagId" BIGINT NOT NULL,
    "day" DATE NOT NULL,
    "interactionSource" TEXT NOT NULL,
    "trafficClass" TEXT NOT NULL,
    "resolveStatus" TEXT NOT NULL,
    "country" TEXT NOT NULL DEFAULT '',
    "region" TEXT NOT NULL DEFAULT '',
    "city" TEXT NOT NULL DEFAULT '',
    "scans" INTEGER NOT NULL DEFAULT 0,
    "interactions" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "ActionTagDailyStat_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "ActionTag_simplyId_key" ON "ActionTag"("simplyId");

-- CreateIndex
CREATE INDEX "ActionTag_teamId_status_id_idx" ON "ActionTag"("teamId", "status", "id");

-- CreateIndex
CREATE INDEX "ActionTag_teamId_createdAt_idx" ON "ActionTag"("teamId", "createdAt");

-- CreateIndex
CREATE INDEX "ActionTag_teamId_lastScannedAt_idx" ON "ActionTag"("teamId", "lastScannedAt");

-- CreateIndex
CREATE UNIQUE INDEX "ActionTag_teamId_simplyId_key" ON "ActionTag"("teamId", "simplyId");

-- CreateIndex
CREATE INDEX "ActionTagScan_teamId_actionTagId_scannedAt_id_idx" ON "ActionTagScan"("teamId", "actionTagId", "scannedAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "ActionTagScan_scannedAt_idx" ON "ActionTagScan"("scannedAt");

-- CreateIndex
CREATE INDEX "ActionTagDailyStat_teamId_day_idx" ON "ActionTagDailyStat"("teamId", "day");

-- CreateIndex
CREATE UNIQUE INDEX "ActionTagDailyStat_teamId_actionTagId_day_interactionSource_key" ON "ActionTagDailyStat"("teamId", "actionTagId", "day", "interactionSource", "trafficClass", "resolveStatus", "country", "region", "city");

-- AddForeignKey
ALTER TABLE "ActionTagScan" ADD CONSTRAINT "ActionTagScan_actionTagId_fkey" FOREIGN KEY ("actionTagId") REFERENCES "ActionTag"("id") ON DELETE CASCADE ON UPDATE CASCADE;
