-- CreateTable
CREATE TABLE "ActionTagDomain" (
    "id" BIGSERIAL NOT NULL,
    "simplyId" TEXT NOT NULL,
    "teamId" BIGINT NOT NULL,
    "domain" TEXT NOT NULL,
    "verificationToken" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'PENDING',
    "verifiedAt" TIMESTAMP(3),
    "certificateStatus" TEXT NOT NULL DEFAULT 'UNCHECKED',
    "certificateExpiresAt" TIMESTAMP(3),
    "certificateError" TEXT,
    "lastCheckedAt" TIMESTAMP(3),
    "lastCheckError" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ActionTagDomain_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ActionTagCsvImport" (
    "id" BIGSERIAL NOT NULL,
    "teamId" BIGINT NOT NULL,
    "idempotencyKey" TEXT NOT NULL,
    "bodySha256" TEXT NOT NULL,
    "response" JSONB NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ActionTagCsvImport_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ActionTagDomain_domain_idx" ON "ActionTagDomain"("domain");

-- CreateIndex
CREATE UNIQUE INDEX "ActionTagDomain_teamId_simplyId_key" ON "ActionTagDomain"("teamId", "simplyId");

-- CreateIndex
CREATE UNIQUE INDEX "ActionTagDomain_teamId_domain_key" ON "ActionTagDomain"("teamId", "domain");

-- CreateIndex
CREATE INDEX "ActionTagCsvImport_createdAt_idx" ON "ActionTagCsvImport"("createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "ActionTagCsvImport_teamId_idempotencyKey_key" ON "ActionTagCsvImport"("teamId", "idempotencyKey");

-- A host serves one team's tags: only one team may hold a name VERIFIED (not modelled in Prisma)
CREATE UNIQUE INDEX "ActionTagDomain_verified_domain_key" ON "ActionTagDomain"("domain") WHERE "status" = 'VERIFIED';
