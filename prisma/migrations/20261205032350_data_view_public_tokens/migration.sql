-- CreateEnum
CREATE TYPE "DataViewTokenType" AS ENUM ('EMBED', 'ICS_FEED');

-- CreateTable
CREATE TABLE "DataViewPublicToken" (
    "id" BIGSERIAL NOT NULL,
    "teamId" BIGINT NOT NULL,
    "viewId" BIGINT NOT NULL,
    "tokenType" "DataViewTokenType" NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "tokenHint" TEXT NOT NULL,
    "allowedOrigins" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "createdByKind" TEXT NOT NULL,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUsedAt" TIMESTAMP(3),

    CONSTRAINT "DataViewPublicToken_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "DataViewPublicToken_tokenHash_key" ON "DataViewPublicToken"("tokenHash");

-- CreateIndex
CREATE UNIQUE INDEX "DataViewPublicToken_teamId_viewId_tokenType_key" ON "DataViewPublicToken"("teamId", "viewId", "tokenType");

-- CreateIndex
CREATE UNIQUE INDEX "DataView_teamId_id_key" ON "DataView"("teamId", "id");

-- AddForeignKey
ALTER TABLE "DataViewPublicToken" ADD CONSTRAINT "DataViewPublicToken_teamId_viewId_fkey" FOREIGN KEY ("teamId", "viewId") REFERENCES "DataView"("teamId", "id") ON DELETE CASCADE ON UPDATE CASCADE;
