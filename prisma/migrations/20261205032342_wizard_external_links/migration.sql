-- CreateTable
CREATE TABLE "DataWizardExternalLink" (
    "id" BIGSERIAL NOT NULL,
    "simplyId" TEXT NOT NULL,
    "teamId" BIGINT NOT NULL,
    "wizardId" BIGINT NOT NULL,
    "recordId" BIGINT NOT NULL,
    "label" TEXT,
    "tokenHash" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "maxUses" INTEGER,
    "useCount" INTEGER NOT NULL DEFAULT 0,
    "createdByKind" TEXT NOT NULL,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revokedAt" TIMESTAMP(3),
    "lastUsedAt" TIMESTAMP(3),

    CONSTRAINT "DataWizardExternalLink_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "DataWizardExternalLink_teamId_wizardId_createdAt_idx" ON "DataWizardExternalLink"("teamId", "wizardId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "DataWizardExternalLink_teamId_simplyId_key" ON "DataWizardExternalLink"("teamId", "simplyId");

-- CreateIndex
CREATE UNIQUE INDEX "DataWizardExternalLink_tokenHash_key" ON "DataWizardExternalLink"("tokenHash");

-- AddForeignKey
ALTER TABLE "DataWizardExternalLink" ADD CONSTRAINT "DataWizardExternalLink_teamId_wizardId_fkey" FOREIGN KEY ("teamId", "wizardId") REFERENCES "DataWizard"("teamId", "id") ON DELETE CASCADE ON UPDATE CASCADE;
