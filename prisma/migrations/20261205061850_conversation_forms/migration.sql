-- CreateTable
CREATE TABLE "ConversationFormSubmission" (
    "id" BIGSERIAL NOT NULL,
    "teamId" BIGINT NOT NULL,
    "eventId" TEXT NOT NULL,
    "dataWizardInstanceSimplyId" TEXT NOT NULL,
    "dataWizardSimplyId" TEXT NOT NULL,
    "dataRecordId" BIGINT NOT NULL,
    "conversationId" BIGINT,
    "messageId" BIGINT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ConversationFormSubmission_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ConversationFormSubmission_teamId_dataRecordId_dataWizardSi_idx" ON "ConversationFormSubmission"("teamId", "dataRecordId", "dataWizardSimplyId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "ConversationFormSubmission_teamId_dataWizardInstanceSimplyI_key" ON "ConversationFormSubmission"("teamId", "dataWizardInstanceSimplyId");
