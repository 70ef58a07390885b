-- CreateTable
CREATE TABLE "WebsiteBackup" (
    "id" BIGSERIAL NOT NULL,
    "simplyId" TEXT NOT NULL,
    "teamId" BIGINT NOT NULL,
    "websiteId" BIGINT NOT NULL,
    "kind" TEXT NOT NULL,
    "summary" TEXT,
    "content" JSONB NOT NULL,
    "pageCount" INTEGER NOT NULL,
    "byteSize" INTEGER NOT NULL,
    "createdByUserId" BIGINT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WebsiteBackup_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "WebsiteBackup_teamId_websiteId_id_idx" ON "WebsiteBackup"("teamId", "websiteId", "id");

-- CreateIndex
CREATE UNIQUE INDEX "WebsiteBackup_teamId_simplyId_key" ON "WebsiteBackup"("teamId", "simplyId");

-- AddForeignKey
ALTER TABLE "WebsiteBackup" ADD CONSTRAINT "WebsiteBackup_teamId_websiteId_fkey" FOREIGN KEY ("teamId", "websiteId") REFERENCES "Website"("teamId", "id") ON DELETE CASCADE ON UPDATE CASCADE;
