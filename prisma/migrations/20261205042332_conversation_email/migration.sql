-- CreateTable
CREATE TABLE "ConversationEmailInbox" (
    "teamId" BIGINT NOT NULL,
    "inboundKey" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ConversationEmailInbox_pkey" PRIMARY KEY ("teamId")
);

-- CreateTable
CREATE TABLE "ConversationEmail" (
    "id" BIGSERIAL NOT NULL,
    "teamId" BIGINT NOT NULL,
    "conversationId" BIGINT NOT NULL,
    "messageId" BIGINT NOT NULL,
    "direction" TEXT NOT NULL,
    "headerMessageId" TEXT NOT NULL,
    "mailMessageId" BIGINT,
    "contactAddress" TEXT NOT NULL,
    "subject" TEXT,
    "fullText" TEXT,
    "fullHtml" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ConversationEmail_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ConversationMessageAttachment" (
    "id" BIGSERIAL NOT NULL,
    "teamId" BIGINT NOT NULL,
    "messageId" BIGINT NOT NULL,
    "position" INTEGER NOT NULL,
    "filename" TEXT NOT NULL,
    "contentType" TEXT NOT NULL,
    "sizeBytes" INTEGER NOT NULL,
    "fileUploadSimplyId" TEXT,
    "rejectedReason" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ConversationMessageAttachment_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "ConversationEmailInbox_inboundKey_key" ON "ConversationEmailInbox"("inboundKey");

-- CreateIndex
CREATE INDEX "ConversationEmail_teamId_conversationId_createdAt_idx" ON "ConversationEmail"("teamId", "conversationId", "createdAt");

-- CreateIndex
CREATE INDEX "ConversationEmail_mailMessageId_idx" ON "ConversationEmail"("mailMessageId");

-- CreateIndex
CREATE UNIQUE INDEX "ConversationEmail_teamId_headerMessageId_key" ON "ConversationEmail"("teamId", "headerMessageId");

-- CreateIndex
CREATE UNIQUE INDEX "ConversationEmail_teamId_messageId_key" ON "ConversationEmail"("teamId", "messageId");

-- CreateIndex
CREATE UNIQUE INDEX "ConversationMessageAttachment_teamId_messageId_position_key" ON "ConversationMessageAttachment"("teamId", "messageId", "position");

-- An outbound conversation email's deliveryStatus follows its mail row (QUEUED, SENT, FAILED, and
-- the receiving side's DELIVERED; a bounce is FAILED, a complaint DELIVERED: it arrived), in the
-- statement that changes the mail: the mail area stays unaware of conversations, as it is of the
-- communication history (mail_state_propagate).
CREATE FUNCTION conversation_mail_state() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  next TEXT := CASE mail_delivery_state(NEW.status, NEW."feedbackState")
                 WHEN 'BOUNCED' THEN 'FAILED' WHEN 'COMPLAINED' THEN 'DELIVERED'
                 ELSE mail_delivery_state(NEW.status, NEW."feedbackState") END;
BEGIN
  IF NEW.status IS NOT DISTINCT FROM OLD.status AND NEW."feedbackState" IS NOT DISTINCT FROM OLD."feedbackState" THEN
    RETURN NULL;
  END IF;
  UPDATE "ConversationMessage" m
     SET "deliveryStatus" = next,
         "deliveryError" = CASE WHEN next = 'FAILED' THEN left(COALESCE(NEW."feedbackDetail", NEW."errorMessage"), 500) ELSE NULL END
    FROM "ConversationEmail" e
   WHERE e."mailMessageId" = NEW.id AND e."teamId" = NEW."teamId" AND e.direction = 'OUTBOUND'
     AND m."teamId" = e."teamId" AND m.id = e."messageId" AND m."deliveryStatus" IS DISTINCT FROM next;
  RETURN NULL;
END;
$$;

CREATE TRIGGER conversation_mail_state AFTER UPDATE OF status, "feedbackState" ON "MailMessage"
  FOR EACH ROW EXECUTE FUNCTION conversation_mail_state();
