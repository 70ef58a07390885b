-- CreateTable
CREATE TABLE "ConversationWidget" (
    "id" BIGSERIAL NOT NULL,
    "simplyId" TEXT NOT NULL,
    "teamId" BIGINT NOT NULL,
    "name" TEXT NOT NULL,
    "allowedOrigins" TEXT[],
    "appearance" JSONB NOT NULL,
    "identityVerification" TEXT NOT NULL DEFAULT 'OPTIONAL',
    "identitySecretCiphertext" BYTEA NOT NULL,
    "identitySecretHint" TEXT NOT NULL,
    "identitySecretRotatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "defaultPriority" TEXT NOT NULL DEFAULT 'NORMAL',
    "defaultAssignedUserId" BIGINT,
    "isEnabled" BOOLEAN NOT NULL DEFAULT true,
    "createdByKind" TEXT NOT NULL,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ConversationWidget_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ConversationWidgetVisitor" (
    "id" BIGSERIAL NOT NULL,
    "simplyId" TEXT NOT NULL,
    "teamId" BIGINT NOT NULL,
    "widgetId" BIGINT NOT NULL,
    "externalId" TEXT,
    "isVerified" BOOLEAN NOT NULL DEFAULT false,
    "isSimulated" BOOLEAN NOT NULL DEFAULT false,
    "name" TEXT,
    "email" TEXT,
    "resumeSecretHash" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastSeenAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ConversationWidgetVisitor_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ConversationWidgetToken" (
    "id" BIGSERIAL NOT NULL,
    "teamId" BIGINT NOT NULL,
    "widgetId" BIGINT NOT NULL,
    "visitorId" BIGINT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ConversationWidgetToken_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ConversationWidgetSignatureUse" (
    "teamId" BIGINT NOT NULL,
    "widgetId" BIGINT NOT NULL,
    "signatureHash" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ConversationWidgetSignatureUse_pkey" PRIMARY KEY ("teamId","widgetId","signatureHash")
);

-- CreateTable
CREATE TABLE "ConversationWidgetThread" (
    "teamId" BIGINT NOT NULL,
    "conversationId" BIGINT NOT NULL,
    "widgetId" BIGINT NOT NULL,
    "visitorId" BIGINT NOT NULL,
    "isSimulated" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ConversationWidgetThread_pkey" PRIMARY KEY ("teamId","conversationId")
);

-- CreateIndex
CREATE INDEX "ConversationWidget_teamId_createdAt_idx" ON "ConversationWidget"("teamId", "createdAt");

-- CreateIndex
CREATE INDEX "ConversationWidget_simplyId_idx" ON "ConversationWidget"("simplyId");

-- CreateIndex
CREATE UNIQUE INDEX "ConversationWidget_teamId_simplyId_key" ON "ConversationWidget"("teamId", "simplyId");

-- CreateIndex
CREATE UNIQUE INDEX "ConversationWidget_teamId_id_key" ON "ConversationWidget"("teamId", "id");

-- CreateIndex
CREATE UNIQUE INDEX "ConversationWidgetVisitor_teamId_simplyId_key" ON "ConversationWidgetVisitor"("teamId", "simplyId");

-- CreateIndex
CREATE UNIQUE INDEX "ConversationWidgetVisitor_teamId_id_key" ON "ConversationWidgetVisitor"("teamId", "id");

-- CreateIndex
CREATE UNIQUE INDEX "ConversationWidgetVisitor_teamId_widgetId_externalId_key" ON "ConversationWidgetVisitor"("teamId", "widgetId", "externalId");

-- CreateIndex
CREATE UNIQUE INDEX "ConversationWidgetToken_tokenHash_key" ON "ConversationWidgetToken"("tokenHash");

-- CreateIndex
CREATE INDEX "ConversationWidgetToken_teamId_widgetId_expiresAt_idx" ON "ConversationWidgetToken"("teamId", "widgetId", "expiresAt");

-- CreateIndex
CREATE INDEX "ConversationWidgetToken_expiresAt_idx" ON "ConversationWidgetToken"("expiresAt");

-- CreateIndex
CREATE INDEX "ConversationWidgetSignatureUse_expiresAt_idx" ON "ConversationWidgetSignatureUse"("expiresAt");

-- CreateIndex
CREATE INDEX "ConversationWidgetThread_teamId_visitorId_createdAt_idx" ON "ConversationWidgetThread"("teamId", "visitorId", "createdAt");

-- CreateIndex
CREATE INDEX "ConversationWidgetThread_teamId_widgetId_idx" ON "ConversationWidgetThread"("teamId", "widgetId");

-- AddForeignKey
ALTER TABLE "ConversationWidgetVisitor" ADD CONSTRAINT "ConversationWidgetVisitor_teamId_widgetId_fkey" FOREIGN KEY ("teamId", "widgetId") REFERENCES "ConversationWidget"("teamId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ConversationWidgetToken" ADD CONSTRAINT "ConversationWidgetToken_teamId_widgetId_fkey" FOREIGN KEY ("teamId", "widgetId") REFERENCES "ConversationWidget"("teamId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ConversationWidgetToken" ADD CONSTRAINT "ConversationWidgetToken_teamId_visitorId_fkey" FOREIGN KEY ("teamId", "visitorId") REFERENCES "ConversationWidgetVisitor"("teamId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ConversationWidgetThread" ADD CONSTRAINT "ConversationWidgetThread_teamId_conversationId_fkey" FOREIGN KEY ("teamId", "conversationId") REFERENCES "Conversation"("teamId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ConversationWidgetThread" ADD CONSTRAINT "ConversationWidgetThread_teamId_widgetId_fkey" FOREIGN KEY ("teamId", "widgetId") REFERENCES "ConversationWidget"("teamId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ConversationWidgetThread" ADD CONSTRAINT "ConversationWidgetThread_teamId_visitorId_fkey" FOREIGN KEY ("teamId", "visitorId") REFERENCES "ConversationWidgetVisitor"("teamId", "id") ON DELETE CASCADE ON UPDATE CASCADE;
