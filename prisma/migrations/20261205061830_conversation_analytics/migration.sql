-- CreateTable
CREATE TABLE "ConversationAnalyticsState" (
    "teamId" BIGINT NOT NULL,
    "conversationId" BIGINT NOT NULL,
    "createdDay" DATE NOT NULL,
    "channel" TEXT NOT NULL,
    "agentUserId" BIGINT NOT NULL DEFAULT 0,
    "status" TEXT NOT NULL,
    "firstResponseAt" TIMESTAMP(3),
    "resolvedAt" TIMESTAMP(3),
    "resolvedDay" DATE,
    "resolvedAgentUserId" BIGINT,
    "resolutionBucket" INTEGER,
    "slaFirstResponse" TEXT,
    "slaResolution" TEXT,
    "slaResolutionDay" DATE,
    "slaResolutionAgentUserId" BIGINT,

    CONSTRAINT "ConversationAnalyticsState_pkey" PRIMARY KEY ("teamId","conversationId")
);

-- CreateTable
CREATE TABLE "ConversationAnalyticsDay" (
    "teamId" BIGINT NOT NULL,
    "day" DATE NOT NULL,
    "channel" TEXT NOT NULL,
    "agentUserId" BIGINT NOT NULL,
    "statusOpen" INTEGER NOT NULL DEFAULT 0,
    "statusPending" INTEGER NOT NULL DEFAULT 0,
    "statusEscalated" INTEGER NOT NULL DEFAULT 0,
    "statusResolved" INTEGER NOT NULL DEFAULT 0,
    "statusClosed" INTEGER NOT NULL DEFAULT 0,
    "statusMerged" INTEGER NOT NULL DEFAULT 0,
    "assigned" INTEGER NOT NULL DEFAULT 0,
    "firstResponses" INTEGER NOT NULL DEFAULT 0,
    "resolutions" INTEGER NOT NULL DEFAULT 0,
    "firstResponseMet" INTEGER NOT NULL DEFAULT 0,
    "firstResponseBreached" INTEGER NOT NULL DEFAULT 0,
    "resolutionMet" INTEGER NOT NULL DEFAULT 0,
    "resolutionBreached" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "ConversationAnalyticsDay_pkey" PRIMARY KEY ("teamId","day","channel","agentUserId")
);

-- CreateTable
CREATE TABLE "ConversationAnalyticsBucket" (
    "teamId" BIGINT NOT NULL,
    "day" DATE NOT NULL,
    "channel" TEXT NOT NULL,
    "agentUserId" BIGINT NOT NULL,
    "metric" SMALLINT NOT NULL,
    "bucket" SMALLINT NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "ConversationAnalyticsBucket_pkey" PRIMARY KEY ("teamId","day","channel","agentUserId","metric","bucket")
);

-- CreateIndex
CREATE INDEX "ConversationAnalyticsState_teamId_status_agentUserId_idx" ON "ConversationAnalyticsState"("teamId", "status", "agentUserId");
