-- CreateTable
CREATE TABLE "WebsiteTemplate" (
    "id" BIGSERIAL NOT NULL,
    "simplyId" TEXT NOT NULL,
    "teamId" BIGINT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "sourceWebsiteId" BIGINT,
    "latestReleaseNumber" INTEGER NOT NULL DEFAULT 0,
    "archivedAt" TIMESTAMP(3),
    "createdByUserId" BIGINT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "WebsiteTemplate_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebsiteTemplateRelease" (
    "id" BIGSERIAL NOT NULL,
    "simplyId" TEXT NOT NULL,
    "teamId" BIGINT NOT NULL,
    "templateId" BIGINT NOT NULL,
    "number" INTEGER NOT NULL,
    "releaseNotes" TEXT,
    "content" JSONB NOT NULL,
    "pageCount" INTEGER NOT NULL,
    "applyAutoSites" BOOLEAN NOT NULL DEFAULT true,
    "managedPublish" BOOLEAN NOT NULL DEFAULT false,
    "backgroundTaskSimplyId" TEXT,
    "createdByUserId" BIGINT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WebsiteTemplateRelease_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebsiteTemplateLink" (
    "id" BIGSERIAL NOT NULL,
    "teamId" BIGINT NOT NULL,
    "websiteId" BIGINT NOT NULL,
    "templateId" BIGINT NOT NULL,
    "syncMode" TEXT NOT NULL,
    "enumAppBrandId" TEXT,
    "appliedReleaseNumber" INTEGER,
    "pendingReleaseNumber" INTEGER,
    "appliedSettingsHash" TEXT,
    "connectedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "WebsiteTemplateLink_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebsiteTemplatePage" (
    "id" BIGSERIAL NOT NULL,
    "teamId" BIGINT NOT NULL,
    "websiteId" BIGINT NOT NULL,
    "pageId" BIGINT,
    "templateKey" TEXT NOT NULL,
    "appliedDraftRevision" INTEGER NOT NULL,
    "appliedReleaseNumber" INTEGER NOT NULL,
    "detachedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "WebsiteTemplatePage_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "WebsiteTemplate_teamId_createdAt_idx" ON "WebsiteTemplate"("teamId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "WebsiteTemplate_teamId_simplyId_key" ON "WebsiteTemplate"("teamId", "simplyId");

-- CreateIndex
CREATE UNIQUE INDEX "WebsiteTemplate_teamId_id_key" ON "WebsiteTemplate"("teamId", "id");

-- CreateIndex
CREATE UNIQUE INDEX "WebsiteTemplateRelease_teamId_simplyId_key" ON "WebsiteTemplateRelease"("teamId", "simplyId");

-- CreateIndex
CREATE UNIQUE INDEX "WebsiteTemplateRelease_templateId_number_key" ON "WebsiteTemplateRelease"("templateId", "number");

-- CreateIndex
CREATE INDEX "WebsiteTemplateLink_teamId_templateId_syncMode_idx" ON "WebsiteTemplateLink"("teamId", "templateId", "syncMode");

-- CreateIndex
CREATE UNIQUE INDEX "WebsiteTemplateLink_teamId_websiteId_key" ON "WebsiteTemplateLink"("teamId", "websiteId");

-- CreateIndex
CREATE UNIQUE INDEX "WebsiteTemplatePage_pageId_key" ON "WebsiteTemplatePage"("pageId");

-- CreateIndex
CREATE UNIQUE INDEX "WebsiteTemplatePage_teamId_websiteId_templateKey_key" ON "WebsiteTemplatePage"("teamId", "websiteId", "templateKey");

-- AddForeignKey
ALTER TABLE "WebsiteTemplate" ADD CONSTRAINT "WebsiteTemplate_sourceWebsiteId_fkey" FOREIGN KEY ("sourceWebsiteId") REFERENCES "Website"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebsiteTemplateRelease" ADD CONSTRAINT "WebsiteTemplateRelease_teamId_templateId_fkey" FOREIGN KEY ("teamId", "templateId") REFERENCES "WebsiteTemplate"("teamId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebsiteTemplateLink" ADD CONSTRAINT "WebsiteTemplateLink_teamId_websiteId_fkey" FOREIGN KEY ("teamId", "websiteId") REFERENCES "Website"("teamId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebsiteTemplateLink" ADD CONSTRAINT "WebsiteTemplateLink_teamId_templateId_fkey" FOREIGN KEY ("teamId", "templateId") REFERENCES "WebsiteTemplate"("teamId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebsiteTemplatePage" ADD CONSTRAINT "WebsiteTemplatePage_teamId_websiteId_fkey" FOREIGN KEY ("teamId", "websiteId") REFERENCES "Website"("teamId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebsiteTemplatePage" ADD CONSTRAINT "WebsiteTemplatePage_pageId_fkey" FOREIGN KEY ("pageId") REFERENCES "WebsitePage"("id") ON DELETE SET NULL ON UPDATE CASCADE;
