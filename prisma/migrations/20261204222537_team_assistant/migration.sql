-- CreateTable
CREATE TABLE "AssistantSession" (
    "id" BIGSERIAL NOT NULL,
    "simplyId" TEXT NOT NULL,
    "teamId" BIGINT NOT NULL,
    "userId" BIGINT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'ACTIVE',
    "title" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "archivedAt" TIMESTAMP(3),

    CONSTRAINT "AssistantSession_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AssistantMessage" (
    "id" BIGSERIAL NOT NULL,
    "simplyId" TEXT NOT NULL,
    "teamId" BIGINT NOT NULL,
    "sessionId" BIGINT NOT NULL,
    "role" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "sourceRefs" JSONB NOT NULL DEFAULT '[]',
    "uiIntents" JSONB NOT NULL DEFAULT '[]',
    "toolCalls" JSONB NOT NULL DEFAULT '[]',
    "proposalIds" JSONB NOT NULL DEFAULT '[]',
    "controlState" JSONB NOT NULL DEFAULT '{"stateType":"READY"}',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AssistantMessage_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AssistantRun" (
    "id" BIGSERIAL NOT NULL,
    "simplyId" TEXT NOT NULL,
    "teamId" BIGINT NOT NULL,
    "userId" BIGINT NOT NULL,
    "sessionId" BIGINT NOT NULL,
    "idempotencyKey" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'RUNNING',
    "userMessageId" BIGINT NOT NULL,
    "assistantMessageId" BIGINT,
    "contextSnapshot" JSONB,
    "scopes" JSONB,
    "transcript" JSONB NOT NULL DEFAULT '[]',
    "toolResults" JSONB NOT NULL DEFAULT '{}',
    "steps" INTEGER NOT NULL DEFAULT 0,
    "tokensUsed" INTEGER NOT NULL DEFAULT 0,
    "error" JSONB,
    "controlState" JSONB NOT NULL DEFAULT '{"stateType":"READY"}',
    "nextEventSequence" INTEGER NOT NULL DEFAULT 1,
    "cancelRequestedAt" TIMESTAMP(3),
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "startedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completedAt" TIMESTAMP(3),
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "AssistantRun_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AssistantRunEvent" (
    "teamId" BIGINT NOT NULL,
    "runId" BIGINT NOT NULL,
    "sequence" INTEGER NOT NULL,
    "eventType" TEXT NOT NULL,
    "payload" JSONB NOT NULL DEFAULT '{}',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AssistantRunEvent_pkey" PRIMARY KEY ("teamId","runId","sequence")
);

-- CreateTable
CREATE TABLE "AssistantFeedback" (
    "id" BIGSERIAL NOT NULL,
    "simplyId" TEXT NOT NULL,
    "teamId" BIGINT NOT NULL,
    "messageId" BIGINT NOT NULL,
    "userId" BIGINT NOT NULL,
    "rating" TEXT NOT NULL,
    "comment" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "AssistantFeedback_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AssistantSettings" (
    "teamId" BIGINT NOT NULL,
    "knowledgeSources" JSONB NOT NULL DEFAULT '{"mode":"ALL_READABLE","collections":[],"views":[]}',
    "supportScope" JSONB NOT NULL DEFAULT '{"enabled":false,"topics":[],"instructions":null}',
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "AssistantSettings_pkey" PRIMARY KEY ("teamId")
);

-- CreateTable
CREATE TABLE "AiUsage" (
    "id" BIGSERIAL NOT NULL,
    "teamId" BIGINT NOT NULL,
    "feature" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "inputTokens" INTEGER NOT NULL,
    "outputTokens" INTEGER NOT NULL,
    "totalTokens" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AiUsage_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AssistantProposal" (
    "id" BIGSERIAL NOT NULL,
    "simplyId" TEXT NOT NULL,
    "teamId" BIGINT NOT NULL,
    "userId" BIGINT NOT NULL,
    "runId" BIGINT NOT NULL,
    "messageId" BIGINT,
    "tool" TEXT NOT NULL,
    "arguments" JSONB NOT NULL,
    "diff" JSONB NOT NULL DEFAULT '[]',
    "affected" JSONB NOT NULL DEFAULT '[]',
    "riskLevel" TEXT NOT NULL,
    "permissionSummary" TEXT NOT NULL,
    "validationSummary" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'DRAFT',
    "result" JSONB,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "decidedAt" TIMESTAMP(3),
    "executedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "AssistantProposal_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "AssistantSession_teamId_userId_updatedAt_id_idx" ON "AssistantSession"("teamId", "userId", "updatedAt" DESC, "id" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "AssistantSession_teamId_simplyId_key" ON "AssistantSession"("teamId", "simplyId");

-- CreateIndex
CREATE UNIQUE INDEX "AssistantSession_teamId_id_key" ON "AssistantSession"("teamId", "id");

-- CreateIndex
CREATE INDEX "AssistantMessage_teamId_sessionId_createdAt_id_idx" ON "AssistantMessage"("teamId", "sessionId", "createdAt", "id");

-- CreateIndex
CREATE UNIQUE INDEX "AssistantMessage_teamId_simplyId_key" ON "AssistantMessage"("teamId", "simplyId");

-- CreateIndex
CREATE UNIQUE INDEX "AssistantMessage_teamId_id_key" ON "AssistantMessage"("teamId", "id");

-- CreateIndex
CREATE INDEX "AssistantRun_status_updatedAt_idx" ON "AssistantRun"("status", "updatedAt");

-- CreateIndex
CREATE UNIQUE INDEX "AssistantRun_teamId_simplyId_key" ON "AssistantRun"("teamId", "simplyId");

-- CreateIndex
CREATE UNIQUE INDEX "AssistantRun_teamId_id_key" ON "AssistantRun"("teamId", "id");

-- CreateIndex
CREATE UNIQUE INDEX "AssistantRun_teamId_userId_idempotencyKey_key" ON "AssistantRun"("teamId", "userId", "idempotencyKey");

-- CreateIndex
CREATE UNIQUE INDEX "AssistantFeedback_teamId_simplyId_key" ON "AssistantFeedback"("teamId", "simplyId");

-- CreateIndex
CREATE UNIQUE INDEX "AssistantFeedback_teamId_messageId_userId_key" ON "AssistantFeedback"("teamId", "messageId", "userId");

-- CreateIndex
CREATE INDEX "AiUsage_teamId_createdAt_idx" ON "AiUsage"("teamId", "createdAt");

-- CreateIndex
CREATE INDEX "AssistantProposal_teamId_runId_idx" ON "AssistantProposal"("teamId", "runId");

-- CreateIndex
CREATE INDEX "AssistantProposal_status_expiresAt_idx" ON "AssistantProposal"("status", "expiresAt");

-- CreateIndex
CREATE UNIQUE INDEX "AssistantProposal_teamId_simplyId_key" ON "AssistantProposal"("teamId", "simplyId");

-- CreateIndex
CREATE UNIQUE INDEX "AssistantProposal_teamId_id_key" ON "AssistantProposal"("teamId", "id");
