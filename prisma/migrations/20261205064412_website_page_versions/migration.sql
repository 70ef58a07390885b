-- CreateTable
CREATE TABLE "WebsitePageVersion" (
    "id" BIGSERIAL NOT NULL,
    "simplyId" TEXT NOT NULL,
    "teamId" BIGINT NOT NULL,
    "pageId" BIGINT NOT NULL,
    "number" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "label" TEXT,
    "note" TEXT,
    "design" JSONB NOT NULL,
    "draftRevision" INTEGER NOT NULL,
    "createdByUserId" BIGINT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WebsitePageVersion_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "WebsitePageVersion_teamId_pageId_id_idx" ON "WebsitePageVersion"("teamId", "pageId", "id");

-- CreateIndex
CREATE UNIQUE INDEX "WebsitePageVersion_teamId_simplyId_key" ON "WebsitePageVersion"("teamId", "simplyId");

-- CreateIndex
CREATE UNIQUE INDEX "WebsitePageVersion_pageId_number_key" ON "WebsitePageVersion"("pageId", "number");

-- AddForeignKey
ALTER TABLE "WebsitePageVersion" ADD CONSTRAINT "WebsitePageVersion_teamId_pageId_fkey" FOREIGN KEY ("teamId", "pageId") REFERENCES "WebsitePage"("teamId", "id") ON DELETE CASCADE ON UPDATE CASCADE;
