-- CreateTable
CREATE TABLE "WebsiteAccessArea" (
    "id" BIGSERIAL NOT NULL,
    "simplyId" TEXT NOT NULL,
    "teamId" BIGINT NOT NULL,
    "websiteId" BIGINT NOT NULL,
    "name" TEXT NOT NULL,
    "rootPageSimplyIds" TEXT[],
    "admits" JSONB NOT NULL,
    "signInMessage" TEXT,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "createdByUserId" BIGINT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "WebsiteAccessArea_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "WebsiteAccessArea_teamId_websiteId_id_idx" ON "WebsiteAccessArea"("teamId", "websiteId", "id");

-- CreateIndex
CREATE UNIQUE INDEX "WebsiteAccessArea_teamId_simplyId_key" ON "WebsiteAccessArea"("teamId", "simplyId");

-- AddForeignKey
ALTER TABLE "WebsiteAccessArea" ADD CONSTRAINT "WebsiteAccessArea_teamId_websiteId_fkey" FOREIGN KEY ("teamId", "websiteId") REFERENCES "Website"("teamId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Every instance keeps which pages are gated in memory (served-gates.ts) and forgets a site's when
-- its areas change: the same notification the served pages' cache listens to (website_renderings).
CREATE TRIGGER "WebsiteAccessArea_served_notify" AFTER INSERT OR UPDATE OR DELETE ON "WebsiteAccessArea"
  FOR EACH ROW EXECUTE FUNCTION website_served_notify();
