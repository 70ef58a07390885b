-- CreateTable
CREATE TABLE "WebsiteSavedLayout" (
    "id" BIGSERIAL NOT NULL,
    "simplyId" TEXT NOT NULL,
    "teamId" BIGINT NOT NULL,
    "websiteId" BIGINT NOT NULL,
    "name" TEXT NOT NULL,
    "category" TEXT NOT NULL,
    "description" TEXT,
    "designFormat" TEXT NOT NULL DEFAULT 'GRAPESJS_WEB',
    "syncMode" TEXT NOT NULL DEFAULT 'SNAPSHOT',
    "contentJson" JSONB NOT NULL,
    "contentRevision" INTEGER NOT NULL DEFAULT 1,
    "contentChangedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "archivedAt" TIMESTAMP(3),
    "createdByUserId" BIGINT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "WebsiteSavedLayout_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "WebsiteSavedLayout_teamId_websiteId_syncMode_id_idx" ON "WebsiteSavedLayout"("teamId", "websiteId", "syncMode", "id");

-- CreateIndex
CREATE UNIQUE INDEX "WebsiteSavedLayout_teamId_simplyId_key" ON "WebsiteSavedLayout"("teamId", "simplyId");

-- AddForeignKey
ALTER TABLE "WebsiteSavedLayout" ADD CONSTRAINT "WebsiteSavedLayout_teamId_websiteId_fkey" FOREIGN KEY ("teamId", "websiteId") REFERENCES "Website"("teamId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A SYNCED layout shows on every published page that references it: a change of its content makes
-- every instance forget the site's served pages (serve-cache.ts), as the triggers of
-- …_website_renderings do for the site's other inputs. The rendering's fingerprint holds the
-- site's latest synced-layout change (render-store.ts), so the next request renders again.
CREATE TRIGGER "WebsiteSavedLayout_served_update" AFTER UPDATE ON "WebsiteSavedLayout"
  FOR EACH ROW WHEN (NEW."syncMode" = 'SYNCED' AND OLD."contentRevision" IS DISTINCT FROM NEW."contentRevision")
  EXECUTE FUNCTION website_served_notify();
