-- CreateTable
CREATE TABLE "WebsiteTranslation" (
    "id" BIGSERIAL NOT NULL,
    "teamId" BIGINT NOT NULL,
    "websiteId" BIGINT NOT NULL,
    "pageId" BIGINT NOT NULL,
    "languageTagId" TEXT NOT NULL,
    "entries" JSONB NOT NULL DEFAULT '{}',
    "translatedRevision" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "WebsiteTranslation_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "WebsiteTranslation_teamId_websiteId_languageTagId_idx" ON "WebsiteTranslation"("teamId", "websiteId", "languageTagId");

-- CreateIndex
CREATE UNIQUE INDEX "WebsiteTranslation_pageId_languageTagId_key" ON "WebsiteTranslation"("pageId", "languageTagId");

-- AddForeignKey
ALTER TABLE "WebsiteTranslation" ADD CONSTRAINT "WebsiteTranslation_teamId_pageId_fkey" FOREIGN KEY ("teamId", "pageId") REFERENCES "WebsitePage"("teamId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Served pages kept in memory are dropped when a translation changes, or when the languages a site
-- publishes change (website_served_notify and website_settings_served_notify: …_website_renderings).
CREATE TRIGGER "WebsiteTranslation_served" AFTER INSERT OR UPDATE OR DELETE ON "WebsiteTranslation"
  FOR EACH ROW EXECUTE FUNCTION website_served_notify();
CREATE TRIGGER "Website_served_languages" AFTER UPDATE ON "Website"
  FOR EACH ROW WHEN (OLD."availableLanguageTagIds" IS DISTINCT FROM NEW."availableLanguageTagIds")
  EXECUTE FUNCTION website_settings_served_notify();
