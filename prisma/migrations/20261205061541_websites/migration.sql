-- CreateTable
CREATE TABLE "Website" (
    "id" BIGSERIAL NOT NULL,
    "simplyId" TEXT NOT NULL,
    "teamId" BIGINT NOT NULL,
    "name" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "isPublished" BOOLEAN NOT NULL DEFAULT false,
    "firstPublishedAt" TIMESTAMP(3),
    "metaTitle" TEXT,
    "metaDescription" TEXT,
    "socialImageUrl" TEXT,
    "faviconFileSimplyId" TEXT,
    "themeSettings" JSONB,
    "navigationJson" JSONB,
    "headerDesignJson" JSONB,
    "footerDesignJson" JSONB,
    "publishedHeaderDesignJson" JSONB,
    "publishedFooterDesignJson" JSONB,
    "headerFooterPublishedAt" TIMESTAMP(3),
    "campaignChromeConfig" JSONB,
    "publishedCampaignChromeConfig" JSONB,
    "campaignChromePublishedAt" TIMESTAMP(3),
    "googleAnalyticsMeasurementId" TEXT,
    "defaultLanguageTagId" TEXT,
    "availableLanguageTagIds" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "redirectSettings" JSONB,
    "restricted" BOOLEAN NOT NULL DEFAULT false,
    "createdByUserId" BIGINT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Website_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebsiteMember" (
    "id" BIGSERIAL NOT NULL,
    "teamId" BIGINT NOT NULL,
    "websiteId" BIGINT NOT NULL,
    "userId" BIGINT NOT NULL,
    "role" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WebsiteMember_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebsitePage" (
    "id" BIGSERIAL NOT NULL,
    "simplyId" TEXT NOT NULL,
    "teamId" BIGINT NOT NULL,
    "websiteId" BIGINT NOT NULL,
    "parentId" BIGINT,
    "position" INTEGER NOT NULL DEFAULT 0,
    "title" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "isHomePage" BOOLEAN NOT NULL DEFAULT false,
    "metaTitle" TEXT,
    "metaDescription" TEXT,
    "draftDesign" JSONB NOT NULL,
    "draftRevision" INTEGER NOT NULL DEFAULT 1,
    "publishedDesign" JSONB,
    "publishedRevision" INTEGER,
    "publishedAt" TIMESTAMP(3),
    "reviewState" TEXT NOT NULL DEFAULT 'NONE',
    "createdByUserId" BIGINT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "WebsitePage_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "Website_slug_key" ON "Website"("slug");

-- CreateIndex
CREATE INDEX "Website_teamId_createdAt_idx" ON "Website"("teamId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "Website_teamId_simplyId_key" ON "Website"("teamId", "simplyId");

-- CreateIndex
CREATE UNIQUE INDEX "Website_teamId_id_key" ON "Website"("teamId", "id");

-- CreateIndex
CREATE UNIQUE INDEX "WebsiteMember_teamId_websiteId_userId_key" ON "WebsiteMember"("teamId", "websiteId", "userId");

-- CreateIndex
CREATE INDEX "WebsitePage_teamId_websiteId_parentId_position_idx" ON "WebsitePage"("teamId", "websiteId", "parentId", "position");

-- CreateIndex
CREATE UNIQUE INDEX "WebsitePage_teamId_simplyId_key" ON "WebsitePage"("teamId", "simplyId");

-- CreateIndex
CREATE UNIQUE INDEX "WebsitePage_teamId_id_key" ON "WebsitePage"("teamId", "id");

-- AddForeignKey
ALTER TABLE "WebsiteMember" ADD CONSTRAINT "WebsiteMember_teamId_websiteId_fkey" FOREIGN KEY ("teamId", "websiteId") REFERENCES "Website"("teamId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebsitePage" ADD CONSTRAINT "WebsitePage_teamId_websiteId_fkey" FOREIGN KEY ("teamId", "websiteId") REFERENCES "Website"("teamId", "id") ON DELETE CASCADE ON UPDATE CASCADE;
