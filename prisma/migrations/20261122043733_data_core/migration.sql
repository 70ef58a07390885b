-- Trigram index support for contains searches on record names (pg_trgm ships with PostgreSQL contrib).
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- CreateEnum
CREATE TYPE "FieldAccessLevel" AS ENUM ('NONE', 'READ', 'EDIT');

-- CreateEnum
CREATE TYPE "DataCollectionType" AS ENUM ('STANDARD', 'SMART', 'CUSTOM_LIST');

-- CreateEnum
CREATE TYPE "MembershipState" AS ENUM ('ACTIVE', 'ARCHIVED', 'DELETED');

-- CreateEnum
CREATE TYPE "DataViewType" AS ENUM ('LIST', 'DETAIL', 'CALENDAR', 'TABLE', 'MAP', 'PIVOT', 'CHART', 'STATS');

-- CreateTable
CREATE TABLE "TeamRoleFieldPermission" (
    "id" BIGSERIAL NOT NULL,
    "teamId" BIGINT NOT NULL,
    "teamRoleId" BIGINT NOT NULL,
    "dataFieldSimplyId" TEXT NOT NULL,
    "level" "FieldAccessLevel" NOT NULL,

    CONSTRAINT "TeamRoleFieldPermission_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "DataCollection" (
    "id" BIGSERIAL NOT NULL,
    "simplyId" TEXT NOT NULL,
    "teamId" BIGINT NOT NULL,
    "name" JSONB NOT NULL,
    "singularName" JSONB,
    "pluralName" JSONB,
    "archetype" TEXT,
    "type" "DataCollectionType" NOT NULL DEFAULT 'STANDARD',
    "parentId" BIGINT,
    "calculatedNameFormula" TEXT,
    "filterCriteria" JSONB,
    "isArchived" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "DataCollection_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "DataField" (
    "id" BIGSERIAL NOT NULL,
    "simplyId" TEXT NOT NULL,
    "teamId" BIGINT NOT NULL,
    "collectionId" BIGINT NOT NULL,
    "title" JSONB NOT NULL,
    "columnName" TEXT NOT NULL,
    "dataType" TEXT NOT NULL,
    "isRequired" BOOLEAN NOT NULL DEFAULT false,
    "sortOrder" INTEGER NOT NULL DEFAULT 0,
    "config" JSONB NOT NULL DEFAULT '{}',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "DataField_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "DataRecord" (
    "id" BIGSERIAL NOT NULL,
    "simplyId" TEXT NOT NULL,
    "teamId" BIGINT NOT NULL,
    "collectionId" BIGINT NOT NULL,
    "values" JSONB NOT NULL DEFAULT '{}',
    "calculatedName" TEXT NOT NULL DEFAULT '',
    "nameKey" TEXT NOT NULL DEFAULT '',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deletedAt" TIMESTAMP(3),

    CONSTRAINT "DataRecord_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "DataRecordMembership" (
    "teamId" BIGINT NOT NULL,
    "collectionId" BIGINT NOT NULL,
    "recordId" BIGINT NOT NULL,
    "state" "MembershipState" NOT NULL DEFAULT 'ACTIVE',
    "recordCreatedAt" TIMESTAMP(3) NOT NULL,
    "recordUpdatedAt" TIMESTAMP(3) NOT NULL,
    "nameSort" BYTEA NOT NULL,

    CONSTRAINT "DataRecordMembership_pkey" PRIMARY KEY ("teamId","collectionId","recordId")
);

-- CreateTable
CREATE TABLE "DataRecordKey" (
    "id" BIGSERIAL NOT NULL,
    "teamId" BIGINT NOT NULL,
    "fieldId" BIGINT NOT NULL,
    "recordId" BIGINT NOT NULL,
    "textKey" TEXT,
    "prefix" BYTEA,
    "numKey" DECIMAL(65,30),

    CONSTRAINT "DataRecordKey_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "DataView" (
    "id" BIGSERIAL NOT NULL,
    "simplyId" TEXT NOT NULL,
    "teamId" BIGINT NOT NULL,
    "collectionId" BIGINT NOT NULL,
    "name" JSONB NOT NULL,
    "description" TEXT,
    "viewType" "DataViewType" NOT NULL,
    "isPublished" BOOLEAN NOT NULL DEFAULT false,
    "config" JSONB NOT NULL DEFAULT '{}',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "DataView_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "TeamSchemaVersion" (
    "id" BIGSERIAL NOT NULL,
    "teamId" BIGINT NOT NULL,
    "version" INTEGER NOT NULL,
    "snapshot" JSONB NOT NULL,
    "summary" TEXT NOT NULL,
    "actorKind" TEXT NOT NULL,
    "actorId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "TeamSchemaVersion_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AuditLogEntry" (
    "id" BIGSERIAL NOT NULL,
    "teamId" BIGINT NOT NULL,
    "entityType" TEXT NOT NULL,
    "entitySimplyId" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "changes" JSONB NOT NULL,
    "actorKind" TEXT NOT NULL,
    "actorCredentialId" TEXT,
    "actorUserSimplyId" TEXT,
    "source" TEXT NOT NULL,
    "requestId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AuditLogEntry_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "DomainEvent" (
    "id" BIGSERIAL NOT NULL,
    "teamId" BIGINT NOT NULL,
    "eventId" TEXT NOT NULL,
    "eventType" TEXT NOT NULL,
    "collectionId" BIGINT,
    "payload" JSONB NOT NULL,
    "occurredAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "dispatchedAt" TIMESTAMP(3),

    CONSTRAINT "DomainEvent_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "TeamRoleFieldPermission_teamId_teamRoleId_dataFieldSimplyId_key" ON "TeamRoleFieldPermission"("teamId", "teamRoleId", "dataFieldSimplyId");

-- CreateIndex
CREATE UNIQUE INDEX "DataCollection_teamId_simplyId_key" ON "DataCollection"("teamId", "simplyId");

-- CreateIndex
CREATE UNIQUE INDEX "DataCollection_teamId_id_key" ON "DataCollection"("teamId", "id");

-- CreateIndex
CREATE INDEX "DataField_teamId_collectionId_sortOrder_idx" ON "DataField"("teamId", "collectionId", "sortOrder");

-- CreateIndex
CREATE UNIQUE INDEX "DataField_teamId_simplyId_key" ON "DataField"("teamId", "simplyId");

-- CreateIndex
CREATE UNIQUE INDEX "DataField_teamId_id_key" ON "DataField"("teamId", "id");

-- CreateIndex
CREATE UNIQUE INDEX "DataField_teamId_collectionId_columnName_key" ON "DataField"("teamId", "collectionId", "columnName");

-- CreateIndex
CREATE INDEX "DataRecord_nameKey_idx" ON "DataRecord" USING GIN ("nameKey" gin_trgm_ops);

-- CreateIndex
CREATE UNIQUE INDEX "DataRecord_teamId_simplyId_key" ON "DataRecord"("teamId", "simplyId");

-- CreateIndex
CREATE UNIQUE INDEX "DataRecord_teamId_id_key" ON "DataRecord"("teamId", "id");

-- CreateIndex
CREATE INDEX "DataRecordMembership_teamId_collectionId_state_recordCreate_idx" ON "DataRecordMembership"("teamId", "collectionId", "state", "recordCreatedAt", "recordId");

-- CreateIndex
CREATE INDEX "DataRecordMembership_teamId_collectionId_state_recordUpdate_idx" ON "DataRecordMembership"("teamId", "collectionId", "state", "recordUpdatedAt", "recordId");

-- CreateIndex
CREATE INDEX "DataRecordMembership_teamId_collectionId_state_nameSort_rec_idx" ON "DataRecordMembership"("teamId", "collectionId", "state", "nameSort", "recordId");

-- CreateIndex
CREATE INDEX "DataRecordMembership_teamId_recordId_idx" ON "DataRecordMembership"("teamId", "recordId");

-- CreateIndex
CREATE INDEX "DataRecordKey_teamId_fieldId_prefix_recordId_idx" ON "DataRecordKey"("teamId", "fieldId", "prefix", "recordId");

-- CreateIndex
CREATE INDEX "DataRecordKey_teamId_fieldId_numKey_recordId_idx" ON "DataRecordKey"("teamId", "fieldId", "numKey", "recordId");

-- CreateIndex
CREATE INDEX "DataRecordKey_teamId_recordId_fieldId_idx" ON "DataRecordKey"("teamId", "recordId", "fieldId");

-- CreateIndex
CREATE INDEX "DataView_teamId_collectionId_idx" ON "DataView"("teamId", "collectionId");

-- CreateIndex
CREATE UNIQUE INDEX "DataView_teamId_simplyId_key" ON "DataView"("teamId", "simplyId");

-- CreateIndex
CREATE UNIQUE INDEX "TeamSchemaVersion_teamId_version_key" ON "TeamSchemaVersion"("teamId", "version");

-- CreateIndex
CREATE INDEX "AuditLogEntry_teamId_entityType_entitySimplyId_createdAt_id_idx" ON "AuditLogEntry"("teamId", "entityType", "entitySimplyId", "createdAt", "id");

-- CreateIndex
CREATE UNIQUE INDEX "DomainEvent_eventId_key" ON "DomainEvent"("eventId");

-- CreateIndex
CREATE INDEX "DomainEvent_dispatchedAt_id_idx" ON "DomainEvent"("dispatchedAt", "id");

-- CreateIndex
CREATE INDEX "DomainEvent_teamId_occurredAt_idx" ON "DomainEvent"("teamId", "occurredAt");

-- AddForeignKey
ALTER TABLE "TeamRoleFieldPermission" ADD CONSTRAINT "TeamRoleFieldPermission_teamId_teamRoleId_fkey" FOREIGN KEY ("teamId", "teamRoleId") REFERENCES "TeamRole"("teamId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DataCollection" ADD CONSTRAINT "DataCollection_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DataCollection" ADD CONSTRAINT "DataCollection_teamId_parentId_fkey" FOREIGN KEY ("teamId", "parentId") REFERENCES "DataCollection"("teamId", "id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DataField" ADD CONSTRAINT "DataField_teamId_collectionId_fkey" FOREIGN KEY ("teamId", "collectionId") REFERENCES "DataCollection"("teamId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DataView" ADD CONSTRAINT "DataView_teamId_collectionId_fkey" FOREIGN KEY ("teamId", "collectionId") REFERENCES "DataCollection"("teamId", "id") ON DELETE CASCADE ON UPDATE CASCADE;
