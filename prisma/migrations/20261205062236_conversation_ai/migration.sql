-- AlterTable
ALTER TABLE "Conversation" ADD COLUMN     "visitorLanguage" TEXT;

-- CreateTable
CREATE TABLE "ConversationAiReply" (
    "id" BIGSERIAL NOT NULL,
    "teamId" BIGINT NOT NULL,
    "conversationId" BIGINT NOT NULL,
    "messageId" BIGINT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'PENDING',
    "replyMessageId" BIGINT,
    "confidence" DOUBLE PRECISION,
    "reason" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "decidedAt" TIMESTAMP(3),

    CONSTRAINT "ConversationAiReply_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ConversationAiState" (
    "teamId" BIGINT NOT NULL,
    "conversationId" BIGINT NOT NULL,
    "consecutiveReplies" INTEGER NOT NULL DEFAULT 0,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ConversationAiState_pkey" PRIMARY KEY ("teamId","conversationId")
);

-- CreateTable
CREATE TABLE "ConversationContentGap" (
    "id" BIGSERIAL NOT NULL,
    "teamId" BIGINT NOT NULL,
    "questionKey" TEXT NOT NULL,
    "sampleQuestion" TEXT NOT NULL,
    "askedCount" INTEGER NOT NULL DEFAULT 1,
    "firstAskedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastAskedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "sampleConversationSimplyId" TEXT NOT NULL,
    "language" TEXT,

    CONSTRAINT "ConversationContentGap_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ConversationAiReply_teamId_conversationId_state_idx" ON "ConversationAiReply"("teamId", "conversationId", "state");

-- CreateIndex
CREATE INDEX "ConversationAiReply_state_createdAt_idx" ON "ConversationAiReply"("state", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "ConversationAiReply_teamId_messageId_key" ON "ConversationAiReply"("teamId", "messageId");

-- CreateIndex
CREATE INDEX "ConversationContentGap_teamId_askedCount_lastAskedAt_idx" ON "ConversationContentGap"("teamId", "askedCount" DESC, "lastAskedAt" DESC);

-- CreateIndex
CREATE INDEX "ConversationContentGap_teamId_lastAskedAt_idx" ON "ConversationContentGap"("teamId", "lastAskedAt");

-- CreateIndex
CREATE UNIQUE INDEX "ConversationContentGap_teamId_questionKey_key" ON "ConversationContentGap"("teamId", "questionKey");
