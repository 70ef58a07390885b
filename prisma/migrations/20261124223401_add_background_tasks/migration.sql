-- CreateTable
CREATE TABLE "BackgroundTask" (
    "id" BIGSERIAL NOT NULL,
    "simplyId" TEXT NOT NULL,
    "teamId" BIGINT NOT NULL,
    "taskType" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'QUEUED',
    "userId" BIGINT,
    "teamIntegrationSimplyId" TEXT,
    "queueData" JSONB NOT NULL,
    "progress" JSONB NOT NULL DEFAULT '{}',
    "result" JSONB,
    "internal" JSONB NOT NULL DEFAULT '{}',
    "hasResultFile" BOOLEAN NOT NULL DEFAULT false,
    "errorCount" INTEGER NOT NULL DEFAULT 0,
    "unacknowledgedErrorCount" INTEGER NOT NULL DEFAULT 0,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "cancelRequestedAt" TIMESTAMP(3),
    "cancelledByUserId" BIGINT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" TIMESTAMP(3),
    "completedAt" TIMESTAMP(3),
    "lastUpdatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "clearedAt" TIMESTAMP(3),

    CONSTRAINT "BackgroundTask_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "BackgroundTaskError" (
    "id" BIGSERIAL NOT NULL,
    "simplyId" TEXT NOT NULL,
    "teamId" BIGINT NOT NULL,
    "taskId" BIGINT NOT NULL,
    "errorType" TEXT NOT NULL,
    "errorMessage" TEXT NOT NULL,
    "errorContext" JSONB NOT NULL DEFAULT '{}',
    "dedupeKey" TEXT,
    "occurredAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "acknowledgedAt" TIMESTAMP(3),

    CONSTRAINT "BackgroundTaskError_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RecordTaskLink" (
    "id" BIGSERIAL NOT NULL,
    "simplyId" TEXT NOT NULL,
    "teamId" BIGINT NOT NULL,
    "taskId" BIGINT NOT NULL,
    "dataRecordId" BIGINT NOT NULL,
    "collectionId" BIGINT,
    "relationType" TEXT NOT NULL DEFAULT 'TARGET',
    "recordStatus" TEXT NOT NULL DEFAULT 'PENDING',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completedAt" TIMESTAMP(3),

    CONSTRAINT "RecordTaskLink_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RecordTaskOutput" (
    "id" BIGSERIAL NOT NULL,
    "simplyId" TEXT NOT NULL,
    "teamId" BIGINT NOT NULL,
    "taskId" BIGINT NOT NULL,
    "linkId" BIGINT NOT NULL,
    "dataRecordId" BIGINT NOT NULL,
    "outputKey" TEXT NOT NULL,
    "outputKind" TEXT NOT NULL DEFAULT 'FILE',
    "status" TEXT NOT NULL DEFAULT 'PENDING',
    "destinationWriteStatus" TEXT NOT NULL DEFAULT 'PENDING',
    "destinationWriteMode" TEXT,
    "destinationFieldSimplyId" TEXT,
    "result" JSONB NOT NULL DEFAULT '{}',
    "fileId" BIGINT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "RecordTaskOutput_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "TaskOutputDefault" (
    "id" BIGSERIAL NOT NULL,
    "simplyId" TEXT NOT NULL,
    "teamId" BIGINT NOT NULL,
    "collectionId" BIGINT NOT NULL,
    "taskType" TEXT NOT NULL,
    "outputKey" TEXT NOT NULL,
    "templateKey" TEXT NOT NULL DEFAULT '',
    "sourceContentTemplateId" BIGINT,
    "dataFieldSimplyId" TEXT NOT NULL,
    "writeMode" TEXT NOT NULL,
    "isEnabled" BOOLEAN NOT NULL DEFAULT true,
    "createdByUserId" BIGINT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "TaskOutputDefault_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "BackgroundTask_teamId_createdAt_id_idx" ON "BackgroundTask"("teamId", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "BackgroundTask_teamId_userId_createdAt_idx" ON "BackgroundTask"("teamId", "userId", "createdAt" DESC);

-- CreateIndex
CREATE INDEX "BackgroundTask_status_lastUpdatedAt_idx" ON "BackgroundTask"("status", "lastUpdatedAt");

-- CreateIndex
CREATE UNIQUE INDEX "BackgroundTask_teamId_simplyId_key" ON "BackgroundTask"("teamId", "simplyId");

-- CreateIndex
CREATE INDEX "BackgroundTaskError_teamId_taskId_acknowledgedAt_id_idx" ON "BackgroundTaskError"("teamId", "taskId", "acknowledgedAt", "id");

-- CreateIndex
CREATE UNIQUE INDEX "BackgroundTaskError_teamId_simplyId_key" ON "BackgroundTaskError"("teamId", "simplyId");

-- CreateIndex
CREATE UNIQUE INDEX "BackgroundTaskError_teamId_taskId_dedupeKey_key" ON "BackgroundTaskError"("teamId", "taskId", "dedupeKey");

-- CreateIndex
CREATE INDEX "RecordTaskLink_teamId_dataRecordId_createdAt_idx" ON "RecordTaskLink"("teamId", "dataRecordId", "createdAt" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "RecordTaskLink_teamId_simplyId_key" ON "RecordTaskLink"("teamId", "simplyId");

-- CreateIndex
CREATE UNIQUE INDEX "RecordTaskLink_teamId_taskId_dataRecordId_key" ON "RecordTaskLink"("teamId", "taskId", "dataRecordId");

-- CreateIndex
CREATE INDEX "RecordTaskOutput_teamId_taskId_idx" ON "RecordTaskOutput"("teamId", "taskId");

-- CreateIndex
CREATE UNIQUE INDEX "RecordTaskOutput_teamId_simplyId_key" ON "RecordTaskOutput"("teamId", "simplyId");

-- CreateIndex
CREATE UNIQUE INDEX "RecordTaskOutput_teamId_linkId_outputKey_key" ON "RecordTaskOutput"("teamId", "linkId", "outputKey");

-- CreateIndex
CREATE UNIQUE INDEX "TaskOutputDefault_teamId_simplyId_key" ON "TaskOutputDefault"("teamId", "simplyId");

-- CreateIndex
CREATE UNIQUE INDEX "TaskOutputDefault_teamId_collectionId_taskType_outputKey_te_key" ON "TaskOutputDefault"("teamId", "collectionId", "taskType", "outputKey", "templateKey");
