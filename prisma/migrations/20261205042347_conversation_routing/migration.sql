-- CreateTable
CREATE TABLE "ConversationAssignmentRule" (
    "id" BIGSERIAL NOT NULL,
    "simplyId" TEXT NOT NULL,
    "teamId" BIGINT NOT NULL,
    "name" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "isEnabled" BOOLEAN NOT NULL DEFAULT true,
    "conditions" JSONB NOT NULL DEFAULT '{}',
    "actionType" TEXT NOT NULL,
    "poolUserIds" BIGINT[] DEFAULT ARRAY[]::BIGINT[],
    "poolTeamRoleId" BIGINT,
    "agentUserId" BIGINT,
    "maxOpenPerAgent" INTEGER,
    "slaPolicyId" BIGINT,
    "createdByKind" TEXT NOT NULL,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ConversationAssignmentRule_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ConversationRouting" (
    "teamId" BIGINT NOT NULL,
    "conversationId" BIGINT NOT NULL,
    "state" TEXT NOT NULL,
    "ruleId" BIGINT,
    "ruleDecided" BOOLEAN NOT NULL DEFAULT false,
    "queuedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "decidedAt" TIMESTAMP(3),

    CONSTRAINT "ConversationRouting_pkey" PRIMARY KEY ("teamId","conversationId")
);

-- CreateTable
CREATE TABLE "ConversationAgentPresence" (
    "teamId" BIGINT NOT NULL,
    "userId" BIGINT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'OFFLINE',
    "lastHeartbeatAt" TIMESTAMP(3),
    "maxOpenConversations" INTEGER,
    "lastAssignedAt" TIMESTAMP(3),
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ConversationAgentPresence_pkey" PRIMARY KEY ("teamId","userId")
);

-- CreateTable
CREATE TABLE "ConversationSlaPolicy" (
    "id" BIGSERIAL NOT NULL,
    "simplyId" TEXT NOT NULL,
    "teamId" BIGINT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "isDefault" BOOLEAN NOT NULL DEFAULT false,
    "timeZone" TEXT NOT NULL DEFAULT 'UTC',
    "targets" JSONB NOT NULL,
    "businessHours" JSONB NOT NULL DEFAULT '[]',
    "holidays" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "warningPercent" INTEGER NOT NULL DEFAULT 80,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ConversationSlaPolicy_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ConversationSla" (
    "teamId" BIGINT NOT NULL,
    "conversationId" BIGINT NOT NULL,
    "policyId" BIGINT NOT NULL,
    "appliedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "nextCheckAt" TIMESTAMP(3),

    CONSTRAINT "ConversationSla_pkey" PRIMARY KEY ("teamId","conversationId")
);

-- CreateTable
CREATE TABLE "ConversationSlaEvent" (
    "id" BIGSERIAL NOT NULL,
    "teamId" BIGINT NOT NULL,
    "conversationId" BIGINT NOT NULL,
    "policyId" BIGINT NOT NULL,
    "clock" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "dueAt" TIMESTAMP(3) NOT NULL,
    "occurredAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ConversationSlaEvent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ConversationCannedResponseUse" (
    "teamId" BIGINT NOT NULL,
    "contentTemplateSimplyId" TEXT NOT NULL,
    "useCount" INTEGER NOT NULL DEFAULT 0,
    "lastUsedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ConversationCannedResponseUse_pkey" PRIMARY KEY ("teamId","contentTemplateSimplyId")
);

-- CreateIndex
CREATE INDEX "ConversationAssignmentRule_teamId_position_idx" ON "ConversationAssignmentRule"("teamId", "position");

-- CreateIndex
CREATE UNIQUE INDEX "ConversationAssignmentRule_teamId_simplyId_key" ON "ConversationAssignmentRule"("teamId", "simplyId");

-- CreateIndex
CREATE INDEX "ConversationRouting_teamId_state_queuedAt_idx" ON "ConversationRouting"("teamId", "state", "queuedAt");

-- CreateIndex
CREATE INDEX "ConversationAgentPresence_teamId_status_lastHeartbeatAt_idx" ON "ConversationAgentPresence"("teamId", "status", "lastHeartbeatAt");

-- CreateIndex
CREATE UNIQUE INDEX "ConversationSlaPolicy_teamId_simplyId_key" ON "ConversationSlaPolicy"("teamId", "simplyId");

-- CreateIndex
CREATE INDEX "ConversationSla_nextCheckAt_idx" ON "ConversationSla"("nextCheckAt");

-- CreateIndex
CREATE INDEX "ConversationSla_teamId_policyId_idx" ON "ConversationSla"("teamId", "policyId");

-- CreateIndex
CREATE UNIQUE INDEX "ConversationSlaEvent_teamId_conversationId_clock_kind_dueAt_key" ON "ConversationSlaEvent"("teamId", "conversationId", "clock", "kind", "dueAt");
