-- AlterTable
ALTER TABLE "Website" ADD COLUMN     "customDomain" TEXT;

-- CreateTable
CREATE TABLE "WebsiteRendering" (
    "id" BIGSERIAL NOT NULL,
    "teamId" BIGINT NOT NULL,
    "websiteId" BIGINT NOT NULL,
    "pageId" BIGINT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "html" TEXT,
    "etag" TEXT,
    "policy" TEXT,
    "byteSize" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "renderMs" INTEGER NOT NULL DEFAULT 0,
    "freshUntil" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WebsiteRendering_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "WebsiteRendering_teamId_pageId_id_idx" ON "WebsiteRendering"("teamId", "pageId", "id");

-- CreateIndex
CREATE UNIQUE INDEX "WebsiteRendering_pageId_fingerprint_key" ON "WebsiteRendering"("pageId", "fingerprint");

-- CreateIndex
CREATE UNIQUE INDEX "Website_customDomain_key" ON "Website"("customDomain");

-- AddForeignKey
ALTER TABLE "WebsiteRendering" ADD CONSTRAINT "WebsiteRendering_teamId_pageId_fkey" FOREIGN KEY ("teamId", "pageId") REFERENCES "WebsitePage"("teamId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Every instance keeps the served pages it answered in memory (serve-cache.ts) and forgets a site's
-- pages when anything they show changes: these triggers NOTIFY the site's id on the commit of any
-- change of what a served page is made of, whichever code path made it (publishing, settings,
-- moves, restores, deletes). Draft edits do not notify. PostgreSQL folds the identical
-- notifications of one transaction into one.
CREATE FUNCTION website_served_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('svc_website_served', (CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END)."websiteId"::text);
  RETURN NULL;
END $$;

CREATE FUNCTION website_settings_served_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('svc_website_served', (CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END).id::text);
  RETURN NULL;
END $$;

CREATE TRIGGER "WebsitePage_served_insert_delete" AFTER INSERT OR DELETE ON "WebsitePage"
  FOR EACH ROW EXECUTE FUNCTION website_served_notify();
CREATE TRIGGER "WebsitePage_served_update" AFTER UPDATE ON "WebsitePage"
  FOR EACH ROW WHEN (
    OLD."publishedRevision" IS DISTINCT FROM NEW."publishedRevision" OR OLD."publishedAt" IS DISTINCT FROM NEW."publishedAt"
    OR OLD.slug IS DISTINCT FROM NEW.slug OR OLD."parentId" IS DISTINCT FROM NEW."parentId" OR OLD.position IS DISTINCT FROM NEW.position
    OR OLD."isHomePage" IS DISTINCT FROM NEW."isHomePage" OR OLD.title IS DISTINCT FROM NEW.title
    OR OLD."metaTitle" IS DISTINCT FROM NEW."metaTitle" OR OLD."metaDescription" IS DISTINCT FROM NEW."metaDescription"
  ) EXECUTE FUNCTION website_served_notify();
CREATE TRIGGER "Website_served_delete" AFTER DELETE ON "Website"
  FOR EACH ROW EXECUTE FUNCTION website_settings_served_notify();
CREATE TRIGGER "Website_served_update" AFTER UPDATE ON "Website"
  FOR EACH ROW WHEN (
    OLD.slug IS DISTINCT FROM NEW.slug OR OLD."isPublished" IS DISTINCT FROM NEW."isPublished" OR OLD.name IS DISTINCT FROM NEW.name
    OR OLD."metaTitle" IS DISTINCT FROM NEW."metaTitle" OR OLD."metaDescription" IS DISTINCT FROM NEW."metaDescription"
    OR OLD."socialImageUrl" IS DISTINCT FROM NEW."socialImageUrl" OR OLD."faviconFileSimplyId" IS DISTINCT FROM NEW."faviconFileSimplyId"
    OR OLD."navigationJson"::text IS DISTINCT FROM NEW."navigationJson"::text OR OLD."themeSettings"::text IS DISTINCT FROM NEW."themeSettings"::text
    OR OLD."headerFooterPublishedAt" IS DISTINCT FROM NEW."headerFooterPublishedAt" OR OLD."campaignChromePublishedAt" IS DISTINCT FROM NEW."campaignChromePublishedAt"
    OR OLD."publishedHeaderDesignJson"::text IS DISTINCT FROM NEW."publishedHeaderDesignJson"::text
    OR OLD."publishedFooterDesignJson"::text IS DISTINCT FROM NEW."publishedFooterDesignJson"::text
    OR OLD."publishedCampaignChromeConfig"::text IS DISTINCT FROM NEW."publishedCampaignChromeConfig"::text
    OR OLD."defaultLanguageTagId" IS DISTINCT FROM NEW."defaultLanguageTagId" OR OLD."customDomain" IS DISTINCT FROM NEW."customDomain"
    OR OLD.restricted IS DISTINCT FROM NEW.restricted
  ) EXECUTE FUNCTION website_settings_served_notify();
