-- CreateTable
CREATE TABLE "WebsitePageActivity" (
    "id" BIGSERIAL NOT NULL,
    "teamId" BIGINT NOT NULL,
    "pageId" BIGINT NOT NULL,
    "kind" TEXT NOT NULL,
    "userId" BIGINT,
    "summary" TEXT,
    "revision" INTEGER,
    "details" JSONB,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WebsitePageActivity_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "WebsitePageActivity_teamId_pageId_id_idx" ON "WebsitePageActivity"("teamId", "pageId", "id");

-- AddForeignKey
ALTER TABLE "WebsitePageActivity" ADD CONSTRAINT "WebsitePageActivity_teamId_pageId_fkey" FOREIGN KEY ("teamId", "pageId") REFERENCES "WebsitePage"("teamId", "id") ON DELETE CASCADE ON UPDATE CASCADE;
