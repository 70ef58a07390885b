-- CreateTable
CREATE TABLE "Conversation" (
    "id" BIGSERIAL NOT NULL,
    "simplyId" TEXT NOT NULL,
    "teamId" BIGINT NOT NULL,
    "subject" TEXT,
    "channel" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'OPEN',
    "priority" TEXT NOT NULL DEFAULT 'NORMAL',
    "assignedUserId" BIGINT,
    "assignedAt" TIMESTAMP(3),
    "aiHandling" BOOLEAN NOT NULL DEFAULT false,
    "resolvedAt" TIMESTAMP(3),
    "visitorName" TEXT,
    "visitorEmail" TEXT,
    "visitorEmailKey" TEXT,
    "visitorPhone" TEXT,
    "dataRecordId" BIGINT,
    "dataRecordSimplyId" TEXT,
    "recordLinkSource" TEXT,
    "lastMessageAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastMessagePreview" TEXT,
    "lastMessageAuthorType" TEXT,
    "lastEndUserMessageAt" TIMESTAMP(3),
    "firstResponseAt" TIMESTAMP(3),
    "messageCount" INTEGER NOT NULL DEFAULT 0,
    "searchText" TEXT NOT NULL DEFAULT '',
    "snoozedUntil" TIMESTAMP(3),
    "mergedIntoId" BIGINT,
    "mergedAt" TIMESTAMP(3),
    "replyToken" TEXT NOT NULL,
    "createdByKind" TEXT NOT NULL,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Conversation_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ConversationMessage" (
    "id" BIGSERIAL NOT NULL,
    "simplyId" TEXT NOT NULL,
    "teamId" BIGINT NOT NULL,
    "conversationId" BIGINT NOT NULL,
    "channel" TEXT NOT NULL,
    "authorType" TEXT NOT NULL,
    "authorUserId" BIGINT,
    "authorCredentialKind" TEXT NOT NULL,
    "authorCredentialId" TEXT,
    "content" TEXT NOT NULL,
    "contentType" TEXT NOT NULL DEFAULT 'TEXT',
    "deliveryStatus" TEXT,
    "deliveryError" TEXT,
    "deliverySimplyId" TEXT,
    "emailMessageId" TEXT,
    "emailInReplyTo" TEXT,
    "emailReferences" TEXT,
    "mentionedUserIds" BIGINT[] DEFAULT ARRAY[]::BIGINT[],
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ConversationMessage_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ConversationReadMarker" (
    "teamId" BIGINT NOT NULL,
    "conversationId" BIGINT NOT NULL,
    "userId" BIGINT NOT NULL,
    "lastReadMessageId" BIGINT,
    "readThroughAt" TIMESTAMP(3) NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ConversationReadMarker_pkey" PRIMARY KEY ("teamId","conversationId","userId")
);

-- CreateTable
CREATE TABLE "ConversationFollower" (
    "teamId" BIGINT NOT NULL,
    "conversationId" BIGINT NOT NULL,
    "userId" BIGINT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ConversationFollower_pkey" PRIMARY KEY ("teamId","conversationId","userId")
);

-- CreateTable
CREATE TABLE "ConversationMerge" (
    "id" BIGSERIAL NOT NULL,
    "simplyId" TEXT NOT NULL,
    "teamId" BIGINT NOT NULL,
    "sourceId" BIGINT NOT NULL,
    "targetId" BIGINT NOT NULL,
    "targetBefore" JSONB NOT NULL DEFAULT '{}',
    "mergedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "mergedByKind" TEXT NOT NULL,
    "mergedById" TEXT,
    "unmergedAt" TIMESTAMP(3),
    "unmergedByKind" TEXT,
    "unmergedById" TEXT,

    CONSTRAINT "ConversationMerge_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "Conversation_replyToken_key" ON "Conversation"("replyToken");

-- CreateIndex
CREATE INDEX "Conversation_teamId_lastMessageAt_id_idx" ON "Conversation"("teamId", "lastMessageAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "Conversation_teamId_status_lastMessageAt_id_idx" ON "Conversation"("teamId", "status", "lastMessageAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "Conversation_teamId_assignedUserId_lastMessageAt_id_idx" ON "Conversation"("teamId", "assignedUserId", "lastMessageAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "Conversation_teamId_dataRecordId_lastMessageAt_idx" ON "Conversation"("teamId", "dataRecordId", "lastMessageAt" DESC);

-- CreateIndex
CREATE INDEX "Conversation_teamId_visitorEmailKey_idx" ON "Conversation"("teamId", "visitorEmailKey");

-- CreateIndex
CREATE INDEX "Conversation_teamId_visitorPhone_idx" ON "Conversation"("teamId", "visitorPhone");

-- CreateIndex
CREATE INDEX "Conversation_teamId_mergedIntoId_idx" ON "Conversation"("teamId", "mergedIntoId");

-- CreateIndex
CREATE INDEX "Conversation_snoozedUntil_idx" ON "Conversation"("snoozedUntil");

-- CreateIndex
CREATE INDEX "Conversation_searchText_idx" ON "Conversation" USING GIN ("searchText" gin_trgm_ops);

-- CreateIndex
CREATE UNIQUE INDEX "Conversation_teamId_simplyId_key" ON "Conversation"("teamId", "simplyId");

-- CreateIndex
CREATE UNIQUE INDEX "Conversation_teamId_id_key" ON "Conversation"("teamId", "id");

-- CreateIndex
CREATE INDEX "ConversationMessage_teamId_conversationId_createdAt_id_idx" ON "ConversationMessage"("teamId", "conversationId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "ConversationMessage_teamId_emailMessageId_idx" ON "ConversationMessage"("teamId", "emailMessageId");

-- CreateIndex
CREATE UNIQUE INDEX "ConversationMessage_teamId_simplyId_key" ON "ConversationMessage"("teamId", "simplyId");

-- CreateIndex
CREATE UNIQUE INDEX "ConversationMessage_teamId_id_key" ON "ConversationMessage"("teamId", "id");

-- CreateIndex
CREATE INDEX "ConversationReadMarker_teamId_userId_idx" ON "ConversationReadMarker"("teamId", "userId");

-- CreateIndex
CREATE INDEX "ConversationFollower_teamId_userId_idx" ON "ConversationFollower"("teamId", "userId");

-- CreateIndex
CREATE INDEX "ConversationMerge_teamId_sourceId_idx" ON "ConversationMerge"("teamId", "sourceId");

-- CreateIndex
CREATE INDEX "ConversationMerge_teamId_targetId_idx" ON "ConversationMerge"("teamId", "targetId");

-- CreateIndex
CREATE UNIQUE INDEX "ConversationMerge_teamId_simplyId_key" ON "ConversationMerge"("teamId", "simplyId");

-- AddForeignKey
ALTER TABLE "Conversation" ADD CONSTRAINT "Conversation_assignedUserId_fkey" FOREIGN KEY ("assignedUserId") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Conversation" ADD CONSTRAINT "Conversation_teamId_mergedIntoId_fkey" FOREIGN KEY ("teamId", "mergedIntoId") REFERENCES "Conversation"("teamId", "id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ConversationMessage" ADD CONSTRAINT "ConversationMessage_teamId_conversationId_fkey" FOREIGN KEY ("teamId", "conversationId") REFERENCES "Conversation"("teamId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ConversationMessage" ADD CONSTRAINT "ConversationMessage_authorUserId_fkey" FOREIGN KEY ("authorUserId") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ConversationReadMarker" ADD CONSTRAINT "ConversationReadMarker_teamId_conversationId_fkey" FOREIGN KEY ("teamId", "conversationId") REFERENCES "Conversation"("teamId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ConversationReadMarker" ADD CONSTRAINT "ConversationReadMarker_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ConversationFollower" ADD CONSTRAINT "ConversationFollower_teamId_conversationId_fkey" FOREIGN KEY ("teamId", "conversationId") REFERENCES "Conversation"("teamId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ConversationFollower" ADD CONSTRAINT "ConversationFollower_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ConversationMerge" ADD CONSTRAINT "ConversationMerge_teamId_sourceId_fkey" FOREIGN KEY ("teamId", "sourceId") REFERENCES "Conversation"("teamId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ConversationMerge" ADD CONSTRAINT "ConversationMerge_teamId_targetId_fkey" FOREIGN KEY ("teamId", "targetId") REFERENCES "Conversation"("teamId", "id") ON DELETE CASCADE ON UPDATE CASCADE;
