-- AlterTable
ALTER TABLE "MailMessage" ADD COLUMN     "envelopeFrom" TEXT,
ADD COLUMN     "feedbackAt" TIMESTAMP(3),
ADD COLUMN     "feedbackDetail" TEXT,
ADD COLUMN     "feedbackState" TEXT,
ADD COLUMN     "headers" JSONB;

-- CreateTable
CREATE TABLE "OutgoingMessage" (
    "id" BIGSERIAL NOT NULL,
    "simplyId" TEXT NOT NULL,
    "teamId" BIGINT NOT NULL,
    "internalName" TEXT NOT NULL,
    "subjectLine" TEXT,
    "deliveryMethod" TEXT NOT NULL DEFAULT 'EMAIL',
    "contentType" TEXT NOT NULL DEFAULT 'HTML',
    "textContent" TEXT,
    "htmlContent" TEXT,
    "senderId" BIGINT,
    "templateId" BIGINT,
    "dataCollectionId" BIGINT,
    "dataViewId" BIGINT,
    "recipientFilter" JSONB,
    "emailFieldId" BIGINT,
    "status" TEXT NOT NULL DEFAULT 'DRAFT',
    "scheduledAt" TIMESTAMP(3),
    "sendStartedAt" TIMESTAMP(3),
    "sentAt" TIMESTAMP(3),
    "approvedAt" TIMESTAMP(3),
    "approvedById" TEXT,
    "errorMessage" TEXT,
    "totalRecipients" INTEGER NOT NULL DEFAULT 0,
    "createdByKind" TEXT NOT NULL,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "OutgoingMessage_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "TeamMessagingSettings" (
    "teamId" BIGINT NOT NULL,
    "approvalRequired" BOOLEAN NOT NULL DEFAULT false,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "TeamMessagingSettings_pkey" PRIMARY KEY ("teamId")
);

-- CreateTable
CREATE TABLE "OutgoingMessageRecipient" (
    "id" BIGSERIAL NOT NULL,
    "teamId" BIGINT NOT NULL,
    "outgoingMessageId" BIGINT NOT NULL,
    "dataRecordId" BIGINT NOT NULL,
    "address" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'PENDING',
    "mailMessageId" BIGINT,
    "errorMessage" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "OutgoingMessageRecipient_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "MailSuppression" (
    "id" BIGSERIAL NOT NULL,
    "teamId" BIGINT NOT NULL,
    "address" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "mailMessageId" BIGINT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "MailSuppression_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ConstituentMessageDelivery" (
    "id" BIGSERIAL NOT NULL,
    "simplyId" TEXT NOT NULL,
    "teamId" BIGINT NOT NULL,
    "dataRecordId" BIGINT NOT NULL,
    "outgoingMessageId" BIGINT,
    "sourceType" TEXT NOT NULL,
    "sourceSimplyId" TEXT,
    "channelId" TEXT NOT NULL,
    "currentStateId" TEXT NOT NULL,
    "completeness" TEXT NOT NULL DEFAULT 'EXACT',
    "completenessGapReason" TEXT,
    "sensitivity" TEXT NOT NULL DEFAULT 'STANDARD',
    "hasProtectedContent" BOOLEAN NOT NULL DEFAULT true,
    "attachmentCount" INTEGER NOT NULL DEFAULT 0,
    "mailMessageId" BIGINT,
    "destination" TEXT,
    "senderAddress" TEXT,
    "renderedSubject" TEXT,
    "renderedText" TEXT,
    "renderedHtml" TEXT,
    "attachments" JSONB NOT NULL DEFAULT '[]',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "stateChangedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ConstituentMessageDelivery_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ConstituentMessageDeliveryEvent" (
    "id" BIGSERIAL NOT NULL,
    "teamId" BIGINT NOT NULL,
    "deliveryId" BIGINT NOT NULL,
    "stateId" TEXT NOT NULL,
    "detail" TEXT,
    "occurredAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ConstituentMessageDeliveryEvent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ContentTemplate" (
    "id" BIGSERIAL NOT NULL,
    "simplyId" TEXT NOT NULL,
    "teamId" BIGINT NOT NULL,
    "kind" TEXT NOT NULL,
    "name" JSONB NOT NULL,
    "nameKey" TEXT NOT NULL,
    "description" JSONB,
    "textContent" TEXT,
    "designJson" JSONB,
    "designHtml" TEXT,
    "documentSettings" JSONB,
    "deliveryMethod" TEXT NOT NULL DEFAULT 'EMAIL',
    "usageTypes" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "dataCollectionId" BIGINT,
    "templateScope" TEXT,
    "ownerMembershipId" BIGINT,
    "archivedAt" TIMESTAMP(3),
    "createdByKind" TEXT NOT NULL,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ContentTemplate_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "OutgoingMessage_teamId_createdAt_id_idx" ON "OutgoingMessage"("teamId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "OutgoingMessage_teamId_status_sentAt_idx" ON "OutgoingMessage"("teamId", "status", "sentAt");

-- CreateIndex
CREATE INDEX "OutgoingMessage_status_scheduledAt_idx" ON "OutgoingMessage"("status", "scheduledAt");

-- CreateIndex
CREATE UNIQUE INDEX "OutgoingMessage_teamId_simplyId_key" ON "OutgoingMessage"("teamId", "simplyId");

-- CreateIndex
CREATE UNIQUE INDEX "OutgoingMessage_teamId_id_key" ON "OutgoingMessage"("teamId", "id");

-- CreateIndex
CREATE INDEX "OutgoingMessageRecipient_teamId_outgoingMessageId_state_idx" ON "OutgoingMessageRecipient"("teamId", "outgoingMessageId", "state");

-- CreateIndex
CREATE INDEX "OutgoingMessageRecipient_teamId_mailMessageId_idx" ON "OutgoingMessageRecipient"("teamId", "mailMessageId");

-- CreateIndex
CREATE UNIQUE INDEX "OutgoingMessageRecipient_teamId_outgoingMessageId_dataRecor_key" ON "OutgoingMessageRecipient"("teamId", "outgoingMessageId", "dataRecordId");

-- CreateIndex
CREATE UNIQUE INDEX "MailSuppression_teamId_address_key" ON "MailSuppression"("teamId", "address");

-- CreateIndex
CREATE INDEX "ConstituentMessageDelivery_teamId_dataRecordId_createdAt_id_idx" ON "ConstituentMessageDelivery"("teamId", "dataRecordId", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "ConstituentMessageDelivery_teamId_mailMessageId_idx" ON "ConstituentMessageDelivery"("teamId", "mailMessageId");

-- CreateIndex
CREATE UNIQUE INDEX "ConstituentMessageDelivery_teamId_simplyId_key" ON "ConstituentMessageDelivery"("teamId", "simplyId");

-- CreateIndex
CREATE INDEX "ConstituentMessageDeliveryEvent_teamId_deliveryId_occurredA_idx" ON "ConstituentMessageDeliveryEvent"("teamId", "deliveryId", "occurredAt");

-- CreateIndex
CREATE INDEX "ContentTemplate_teamId_archivedAt_createdAt_id_idx" ON "ContentTemplate"("teamId", "archivedAt", "createdAt", "id");

-- CreateIndex
CREATE INDEX "ContentTemplate_teamId_dataCollectionId_idx" ON "ContentTemplate"("teamId", "dataCollectionId");

-- CreateIndex
CREATE UNIQUE INDEX "ContentTemplate_teamId_simplyId_key" ON "ContentTemplate"("teamId", "simplyId");

-- A mail message's delivery state, as its recipients and the communication history see it:
-- the receiving side's report once there is one, else the transport's state.
CREATE FUNCTION mail_delivery_state(status "MailStatus", feedback TEXT) RETURNS TEXT
LANGUAGE sql IMMUTABLE AS $$
  SELECT COALESCE(feedback, CASE status WHEN 'SENT' THEN 'SENT' WHEN 'FAILED' THEN 'FAILED' ELSE 'QUEUED' END)
$$;

-- Every change of a mail's state reaches the outgoing-message recipient and the history row that
-- point at it, in the same statement: the mail area stays unaware of who reads its state, and
-- bulk or manual updates propagate too.
CREATE FUNCTION mail_state_propagate() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  next TEXT := mail_delivery_state(NEW.status, NEW."feedbackState");
BEGIN
  IF next = mail_delivery_state(OLD.status, OLD."feedbackState") THEN
    RETURN NULL;
  END IF;
  UPDATE "OutgoingMessageRecipient" SET state = next, "updatedAt" = now()
   WHERE "teamId" = NEW."teamId" AND "mailMessageId" = NEW.id AND state <> next;
  WITH changed AS (
    UPDATE "ConstituentMessageDelivery" SET "currentStateId" = next, "stateChangedAt" = now()
     WHERE "teamId" = NEW."teamId" AND "mailMessageId" = NEW.id AND "currentStateId" <> next
    RETURNING id, "teamId"
  )
  INSERT INTO "ConstituentMessageDeliveryEvent" ("teamId", "deliveryId", "stateId", detail)
  SELECT "teamId", id, next, CASE WHEN next IN ('FAILED') THEN left(NEW."errorMessage", 500) ELSE left(NEW."feedbackDetail", 500) END FROM changed;
  RETURN NULL;
END;
$$;

CREATE TRIGGER mail_state_propagate AFTER UPDATE OF status, "feedbackState" ON "MailMessage"
  FOR EACH ROW EXECUTE FUNCTION mail_state_propagate();
