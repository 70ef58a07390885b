-- CreateTable
CREATE TABLE "WebsiteImport" (
    "id" BIGSERIAL NOT NULL,
    "teamId" BIGINT NOT NULL,
    "backgroundTaskSimplyId" TEXT NOT NULL,
    "websiteId" BIGINT,
    "sourceUrl" TEXT NOT NULL,
    "suggestions" JSONB NOT NULL DEFAULT '[]',
    "markers" JSONB NOT NULL DEFAULT '{}',
    "reviewedAt" TIMESTAMP(3),
    "reviewedByUserId" BIGINT,
    "createdByUserId" BIGINT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "WebsiteImport_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "WebsiteImport_teamId_websiteId_idx" ON "WebsiteImport"("teamId", "websiteId");

-- CreateIndex
CREATE UNIQUE INDEX "WebsiteImport_teamId_backgroundTaskSimplyId_key" ON "WebsiteImport"("teamId", "backgroundTaskSimplyId");
