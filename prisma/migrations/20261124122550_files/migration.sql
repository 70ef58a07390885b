-- CreateTable
CREATE TABLE "FileFolder" (
    "id" BIGSERIAL NOT NULL,
    "simplyId" TEXT NOT NULL,
    "teamId" BIGINT NOT NULL,
    "parentId" BIGINT,
    "name" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "FileFolder_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "StoredFile" (
    "id" BIGSERIAL NOT NULL,
    "simplyId" TEXT NOT NULL,
    "teamId" BIGINT NOT NULL,
    "folderId" BIGINT,
    "filename" TEXT NOT NULL,
    "fileType" TEXT NOT NULL,
    "mimeType" TEXT NOT NULL,
    "fileSizeBytes" BIGINT NOT NULL,
    "checksumSha256" TEXT NOT NULL,
    "storageKey" TEXT NOT NULL,
    "width" INTEGER,
    "height" INTEGER,
    "altText" TEXT,
    "currentVersionNumber" INTEGER NOT NULL DEFAULT 1,
    "nameKey" TEXT NOT NULL DEFAULT '',
    "createdByKind" TEXT NOT NULL,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "deletedAt" TIMESTAMP(3),

    CONSTRAINT "StoredFile_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "FileVersion" (
    "id" BIGSERIAL NOT NULL,
    "teamId" BIGINT NOT NULL,
    "fileId" BIGINT NOT NULL,
    "versionNumber" INTEGER NOT NULL,
    "filename" TEXT NOT NULL,
    "mimeType" TEXT NOT NULL,
    "fileSizeBytes" BIGINT NOT NULL,
    "checksumSha256" TEXT NOT NULL,
    "storageKey" TEXT NOT NULL,
    "width" INTEGER,
    "height" INTEGER,
    "createdByKind" TEXT NOT NULL,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "FileVersion_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "FileVariant" (
    "id" BIGSERIAL NOT NULL,
    "simplyId" TEXT NOT NULL,
    "teamId" BIGINT NOT NULL,
    "fileId" BIGINT NOT NULL,
    "versionNumber" INTEGER NOT NULL,
    "variantType" TEXT NOT NULL,
    "format" TEXT NOT NULL,
    "width" INTEGER NOT NULL,
    "height" INTEGER NOT NULL,
    "fileSizeBytes" BIGINT NOT NULL,
    "storageKey" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "FileVariant_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "FileUpload" (
    "id" BIGSERIAL NOT NULL,
    "simplyId" TEXT NOT NULL,
    "teamId" BIGINT NOT NULL,
    "credentialKind" TEXT NOT NULL,
    "credentialId" TEXT NOT NULL,
    "filename" TEXT NOT NULL,
    "contentType" TEXT NOT NULL,
    "fileSizeBytes" BIGINT NOT NULL,
    "checksumSha256" TEXT NOT NULL,
    "folderId" BIGINT,
    "replacesFileId" BIGINT,
    "expectedVersionNumber" INTEGER,
    "storageKey" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'CREATED',
    "rejectionReason" TEXT,
    "rejectionMessage" TEXT,
    "fileId" BIGINT,
    "versionNumber" INTEGER,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "completeRequestedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "FileUpload_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "TeamLabel" (
    "id" BIGSERIAL NOT NULL,
    "simplyId" TEXT NOT NULL,
    "teamId" BIGINT NOT NULL,
    "name" TEXT NOT NULL,
    "color" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "TeamLabel_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "FileLabelLink" (
    "teamId" BIGINT NOT NULL,
    "fileId" BIGINT NOT NULL,
    "labelId" BIGINT NOT NULL,

    CONSTRAINT "FileLabelLink_pkey" PRIMARY KEY ("fileId","labelId")
);

-- CreateTable
CREATE TABLE "TeamStorageQuota" (
    "teamId" BIGINT NOT NULL,
    "quotaBytes" BIGINT NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "TeamStorageQuota_pkey" PRIMARY KEY ("teamId")
);

-- CreateIndex
CREATE INDEX "FileFolder_teamId_parentId_idx" ON "FileFolder"("teamId", "parentId");

-- CreateIndex
CREATE UNIQUE INDEX "FileFolder_teamId_simplyId_key" ON "FileFolder"("teamId", "simplyId");

-- CreateIndex
CREATE INDEX "StoredFile_teamId_createdAt_id_idx" ON "StoredFile"("teamId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "StoredFile_teamId_deletedAt_idx" ON "StoredFile"("teamId", "deletedAt");

-- CreateIndex
CREATE INDEX "StoredFile_teamId_folderId_createdAt_idx" ON "StoredFile"("teamId", "folderId", "createdAt");

-- CreateIndex
CREATE INDEX "StoredFile_teamId_filename_idx" ON "StoredFile"("teamId", "filename");

-- CreateIndex
CREATE INDEX "StoredFile_nameKey_idx" ON "StoredFile" USING GIN ("nameKey" gin_trgm_ops);

-- CreateIndex
CREATE UNIQUE INDEX "StoredFile_teamId_simplyId_key" ON "StoredFile"("teamId", "simplyId");

-- CreateIndex
CREATE UNIQUE INDEX "StoredFile_teamId_id_key" ON "StoredFile"("teamId", "id");

-- CreateIndex
CREATE INDEX "FileVersion_teamId_idx" ON "FileVersion"("teamId");

-- CreateIndex
CREATE UNIQUE INDEX "FileVersion_fileId_versionNumber_key" ON "FileVersion"("fileId", "versionNumber");

-- CreateIndex
CREATE INDEX "FileVariant_teamId_idx" ON "FileVariant"("teamId");

-- CreateIndex
CREATE UNIQUE INDEX "FileVariant_teamId_simplyId_key" ON "FileVariant"("teamId", "simplyId");

-- CreateIndex
CREATE UNIQUE INDEX "FileVariant_fileId_versionNumber_variantType_format_key" ON "FileVariant"("fileId", "versionNumber", "variantType", "format");

-- CreateIndex
CREATE INDEX "FileUpload_status_expiresAt_idx" ON "FileUpload"("status", "expiresAt");

-- CreateIndex
CREATE UNIQUE INDEX "FileUpload_teamId_simplyId_key" ON "FileUpload"("teamId", "simplyId");

-- CreateIndex
CREATE UNIQUE INDEX "TeamLabel_teamId_simplyId_key" ON "TeamLabel"("teamId", "simplyId");

-- CreateIndex
CREATE UNIQUE INDEX "TeamLabel_teamId_name_key" ON "TeamLabel"("teamId", "name");

-- CreateIndex
CREATE INDEX "FileLabelLink_teamId_labelId_idx" ON "FileLabelLink"("teamId", "labelId");

-- AddForeignKey
ALTER TABLE "FileFolder" ADD CONSTRAINT "FileFolder_parentId_fkey" FOREIGN KEY ("parentId") REFERENCES "FileFolder"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "StoredFile" ADD CONSTRAINT "StoredFile_folderId_fkey" FOREIGN KEY ("folderId") REFERENCES "FileFolder"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FileVersion" ADD CONSTRAINT "FileVersion_fileId_fkey" FOREIGN KEY ("fileId") REFERENCES "StoredFile"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FileVariant" ADD CONSTRAINT "FileVariant_fileId_fkey" FOREIGN KEY ("fileId") REFERENCES "StoredFile"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FileLabelLink" ADD CONSTRAINT "FileLabelLink_fileId_fkey" FOREIGN KEY ("fileId") REFERENCES "StoredFile"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FileLabelLink" ADD CONSTRAINT "FileLabelLink_labelId_fkey" FOREIGN KEY ("labelId") REFERENCES "TeamLabel"("id") ON DELETE CASCADE ON UPDATE CASCADE;
