-- CreateTable
CREATE TABLE "DataFieldAdminSetting" (
    "id" BIGSERIAL NOT NULL,
    "teamId" BIGINT NOT NULL,
    "collectionId" BIGINT NOT NULL,
    "fieldId" BIGINT NOT NULL,
    "display" JSONB NOT NULL DEFAULT '{}',
    "description" JSONB,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "DataFieldAdminSetting_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "DataCollectionImportToken" (
    "id" BIGSERIAL NOT NULL,
    "teamId" BIGINT NOT NULL,
    "collectionId" BIGINT NOT NULL,
    "userId" BIGINT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "usedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "DataCollectionImportToken_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "DataFieldAdminSetting_teamId_fieldId_idx" ON "DataFieldAdminSetting"("teamId", "fieldId");

-- CreateIndex
CREATE UNIQUE INDEX "DataFieldAdminSetting_teamId_collectionId_fieldId_key" ON "DataFieldAdminSetting"("teamId", "collectionId", "fieldId");

-- CreateIndex
CREATE UNIQUE INDEX "DataCollectionImportToken_tokenHash_key" ON "DataCollectionImportToken"("tokenHash");

-- CreateIndex
CREATE INDEX "DataCollectionImportToken_teamId_collectionId_idx" ON "DataCollectionImportToken"("teamId", "collectionId");

-- CreateIndex
CREATE INDEX "DataCollectionImportToken_expiresAt_idx" ON "DataCollectionImportToken"("expiresAt");

-- AddForeignKey
ALTER TABLE "DataFieldAdminSetting" ADD CONSTRAINT "DataFieldAdminSetting_teamId_collectionId_fkey" FOREIGN KEY ("teamId", "collectionId") REFERENCES "DataCollection"("teamId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DataFieldAdminSetting" ADD CONSTRAINT "DataFieldAdminSetting_teamId_fieldId_fkey" FOREIGN KEY ("teamId", "fieldId") REFERENCES "DataField"("teamId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DataCollectionImportToken" ADD CONSTRAINT "DataCollectionImportToken_teamId_collectionId_fkey" FOREIGN KEY ("teamId", "collectionId") REFERENCES "DataCollection"("teamId", "id") ON DELETE CASCADE ON UPDATE CASCADE;
