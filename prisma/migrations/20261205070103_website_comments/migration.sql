-- CreateTable
CREATE TABLE "WebsiteComment" (
    "id" BIGSERIAL NOT NULL,
    "simplyId" TEXT NOT NULL,
    "teamId" BIGINT NOT NULL,
    "websiteId" BIGINT NOT NULL,
    "pageId" BIGINT NOT NULL,
    "authorUserId" BIGINT,
    "xPercent" DOUBLE PRECISION NOT NULL,
    "yPixels" INTEGER NOT NULL,
    "comment" TEXT NOT NULL,
    "targetDevice" TEXT,
    "grapesComponentId" TEXT,
    "resolved" BOOLEAN NOT NULL DEFAULT false,
    "resolvedAt" TIMESTAMP(3),
    "resolvedByUserId" BIGINT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "WebsiteComment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebsiteCommentReply" (
    "id" BIGSERIAL NOT NULL,
    "simplyId" TEXT NOT NULL,
    "teamId" BIGINT NOT NULL,
    "commentId" BIGINT NOT NULL,
    "authorUserId" BIGINT,
    "comment" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WebsiteCommentReply_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "WebsiteComment_teamId_pageId_id_idx" ON "WebsiteComment"("teamId", "pageId", "id");

-- CreateIndex
CREATE INDEX "WebsiteComment_teamId_websiteId_resolved_id_idx" ON "WebsiteComment"("teamId", "websiteId", "resolved", "id");

-- CreateIndex
CREATE UNIQUE INDEX "WebsiteComment_teamId_simplyId_key" ON "WebsiteComment"("teamId", "simplyId");

-- CreateIndex
CREATE UNIQUE INDEX "WebsiteComment_teamId_id_key" ON "WebsiteComment"("teamId", "id");

-- CreateIndex
CREATE INDEX "WebsiteCommentReply_teamId_commentId_id_idx" ON "WebsiteCommentReply"("teamId", "commentId", "id");

-- CreateIndex
CREATE UNIQUE INDEX "WebsiteCommentReply_teamId_simplyId_key" ON "WebsiteCommentReply"("teamId", "simplyId");

-- AddForeignKey
ALTER TABLE "WebsiteComment" ADD CONSTRAINT "WebsiteComment_teamId_pageId_fkey" FOREIGN KEY ("teamId", "pageId") REFERENCES "WebsitePage"("teamId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebsiteCommentReply" ADD CONSTRAINT "WebsiteCommentReply_teamId_commentId_fkey" FOREIGN KEY ("teamId", "commentId") REFERENCES "WebsiteComment"("teamId", "id") ON DELETE CASCADE ON UPDATE CASCADE;
