-- CreateEnum
CREATE TYPE "MailStatus" AS ENUM ('QUEUED', 'SENT', 'STORED', 'FAILED');

-- CreateEnum
CREATE TYPE "WebhookDeliveryStatus" AS ENUM ('PENDING', 'RETRYING', 'SUCCEEDED', 'FAILED');

-- CreateEnum
CREATE TYPE "AutomationTriggerType" AS ENUM ('SCHEDULE', 'RECORD_CREATED', 'RECORD_UPDATED', 'FIELD_VALUE_CHANGED', 'WIZARD_COMPLETED', 'WIZARD_COMPLETION_FAILED');

-- CreateEnum
CREATE TYPE "AutomationActionType" AS ENUM ('SEND_EMAIL', 'UPDATE_FIELDS', 'CREATE_RECORD', 'RUN_WIZARD_STEP', 'CHARGE_PAYMENT', 'SEND_USER_NOTIFICATION');

-- CreateEnum
CREATE TYPE "AutomationExecutionStatus" AS ENUM ('QUEUED', 'RUNNING', 'SUCCEEDED', 'PARTIALLY_FAILED', 'FAILED', 'SKIPPED');

-- CreateEnum
CREATE TYPE "DataWizardInstanceStatus" AS ENUM ('RUNNING', 'COMPLETED', 'FAILED');

-- CreateTable
CREATE TABLE "MailMessage" (
    "id" BIGSERIAL NOT NULL,
    "simplyId" TEXT NOT NULL,
    "teamId" BIGINT NOT NULL,
    "fromAddress" TEXT NOT NULL,
    "toAddresses" TEXT[],
    "ccAddresses" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "bccAddresses" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "replyTo" TEXT,
    "subject" TEXT NOT NULL,
    "textBody" TEXT NOT NULL,
    "htmlBody" TEXT,
    "transport" TEXT NOT NULL,
    "status" "MailStatus" NOT NULL DEFAULT 'QUEUED',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "messageId" TEXT,
    "errorMessage" TEXT,
    "source" TEXT NOT NULL,
    "sourceId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "sentAt" TIMESTAMP(3),

    CONSTRAINT "MailMessage_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "UserNotification" (
    "id" BIGSERIAL NOT NULL,
    "simplyId" TEXT NOT NULL,
    "teamId" BIGINT NOT NULL,
    "userId" BIGINT NOT NULL,
    "title" TEXT NOT NULL,
    "body" TEXT,
    "data" JSONB,
    "source" TEXT NOT NULL,
    "sourceId" TEXT,
    "readAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "UserNotification_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebhookSubscription" (
    "id" BIGSERIAL NOT NULL,
    "simplyId" TEXT NOT NULL,
    "teamId" BIGINT NOT NULL,
    "eventType" TEXT NOT NULL,
    "targetUrl" TEXT NOT NULL,
    "filterCriteria" JSONB,
    "secretCiphertext" BYTEA NOT NULL,
    "signatureHeader" TEXT NOT NULL DEFAULT 'X-SVC-Signature',
    "isActive" BOOLEAN NOT NULL DEFAULT true,
    "isPaused" BOOLEAN NOT NULL DEFAULT false,
    "retryCount" INTEGER NOT NULL DEFAULT 3,
    "retryDelaySeconds" INTEGER NOT NULL DEFAULT 60,
    "timeoutSeconds" INTEGER NOT NULL DEFAULT 30,
    "totalDeliveries" INTEGER NOT NULL DEFAULT 0,
    "successfulDeliveries" INTEGER NOT NULL DEFAULT 0,
    "failedDeliveries" INTEGER NOT NULL DEFAULT 0,
    "lastDeliveryStatus" TEXT,
    "lastDeliveryAt" TIMESTAMP(3),
    "createdByKind" TEXT NOT NULL,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "WebhookSubscription_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebhookDelivery" (
    "id" BIGSERIAL NOT NULL,
    "simplyId" TEXT NOT NULL,
    "teamId" BIGINT NOT NULL,
    "subscriptionId" BIGINT NOT NULL,
    "eventId" TEXT NOT NULL,
    "eventType" TEXT NOT NULL,
    "eventOccurredAt" TIMESTAMP(3) NOT NULL,
    "body" TEXT NOT NULL,
    "deliveryStatus" "WebhookDeliveryStatus" NOT NULL DEFAULT 'PENDING',
    "attemptCount" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completedAt" TIMESTAMP(3),

    CONSTRAINT "WebhookDelivery_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebhookDeliveryAttempt" (
    "id" BIGSERIAL NOT NULL,
    "teamId" BIGINT NOT NULL,
    "deliveryId" BIGINT NOT NULL,
    "attemptNumber" INTEGER NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL,
    "completedAt" TIMESTAMP(3) NOT NULL,
    "success" BOOLEAN NOT NULL,
    "responseStatus" INTEGER,
    "responseTimeMs" INTEGER,
    "responseBody" TEXT,
    "errorMessage" TEXT,

    CONSTRAINT "WebhookDeliveryAttempt_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Automation" (
    "id" BIGSERIAL NOT NULL,
    "simplyId" TEXT NOT NULL,
    "teamId" BIGINT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "isEnabled" BOOLEAN NOT NULL DEFAULT true,
    "collectionId" BIGINT,
    "triggerType" "AutomationTriggerType" NOT NULL,
    "triggerConfig" JSONB NOT NULL DEFAULT '{}',
    "filterConditions" JSONB,
    "maxRecordsPerExecution" INTEGER NOT NULL DEFAULT 100,
    "lastRunAt" TIMESTAMP(3),
    "createdByKind" TEXT NOT NULL,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Automation_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AutomationAction" (
    "id" BIGSERIAL NOT NULL,
    "simplyId" TEXT NOT NULL,
    "teamId" BIGINT NOT NULL,
    "automationId" BIGINT NOT NULL,
    "actionType" "AutomationActionType" NOT NULL,
    "actionConfig" JSONB NOT NULL DEFAULT '{}',
    "executionRank" INTEGER NOT NULL,
    "continueOnError" BOOLEAN NOT NULL DEFAULT false,
    "retryConfig" JSONB,
    "onFailureActions" JSONB,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "AutomationAction_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AutomationExecution" (
    "id" BIGSERIAL NOT NULL,
    "simplyId" TEXT NOT NULL,
    "teamId" BIGINT NOT NULL,
    "automationId" BIGINT NOT NULL,
    "triggerType" "AutomationTriggerType" NOT NULL,
    "triggerEventId" TEXT NOT NULL,
    "status" "AutomationExecutionStatus" NOT NULL DEFAULT 'QUEUED',
    "depth" INTEGER NOT NULL DEFAULT 0,
    "startedAt" TIMESTAMP(3),
    "completedAt" TIMESTAMP(3),
    "recordsProcessed" INTEGER NOT NULL DEFAULT 0,
    "recordsFailed" INTEGER NOT NULL DEFAULT 0,
    "executionDurationMs" INTEGER,
    "errorDetails" JSONB,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AutomationExecution_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PaymentCharge" (
    "id" BIGSERIAL NOT NULL,
    "simplyId" TEXT NOT NULL,
    "teamId" BIGINT NOT NULL,
    "provider" TEXT NOT NULL,
    "amount" DECIMAL(65,30) NOT NULL,
    "currency" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "providerReference" TEXT,
    "idempotencyKey" TEXT NOT NULL,
    "recordSimplyId" TEXT,
    "description" TEXT,
    "errorMessage" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PaymentCharge_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "DataWizard" (
    "id" BIGSERIAL NOT NULL,
    "simplyId" TEXT NOT NULL,
    "teamId" BIGINT NOT NULL,
    "name" JSONB NOT NULL,
    "description" TEXT,
    "collectionId" BIGINT,
    "firstStepId" BIGINT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "DataWizard_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "DataWizardStep" (
    "id" BIGSERIAL NOT NULL,
    "simplyId" TEXT NOT NULL,
    "teamId" BIGINT NOT NULL,
    "wizardId" BIGINT NOT NULL,
    "title" JSONB NOT NULL,
    "rank" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "DataWizardStep_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "DataWizardStepTask" (
    "id" BIGSERIAL NOT NULL,
    "simplyId" TEXT NOT NULL,
    "teamId" BIGINT NOT NULL,
    "stepId" BIGINT NOT NULL,
    "type" TEXT NOT NULL,
    "title" JSONB NOT NULL,
    "rank" INTEGER NOT NULL,
    "config" JSONB NOT NULL DEFAULT '{}',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "DataWizardStepTask_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "DataWizardTaskField" (
    "id" BIGSERIAL NOT NULL,
    "teamId" BIGINT NOT NULL,
    "taskId" BIGINT NOT NULL,
    "fieldId" BIGINT NOT NULL,
    "rank" INTEGER NOT NULL,
    "isRequired" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "DataWizardTaskField_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "DataWizardInstance" (
    "id" BIGSERIAL NOT NULL,
    "simplyId" TEXT NOT NULL,
    "teamId" BIGINT NOT NULL,
    "wizardId" BIGINT NOT NULL,
    "recordId" BIGINT,
    "status" "DataWizardInstanceStatus" NOT NULL DEFAULT 'RUNNING',
    "formData" JSONB NOT NULL DEFAULT '{}',
    "errorDetails" JSONB,
    "actorKind" TEXT NOT NULL,
    "actorId" TEXT,
    "startedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completedAt" TIMESTAMP(3),

    CONSTRAINT "DataWizardInstance_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "MailMessage_teamId_createdAt_id_idx" ON "MailMessage"("teamId", "createdAt", "id");

-- CreateIndex
CREATE UNIQUE INDEX "MailMessage_teamId_simplyId_key" ON "MailMessage"("teamId", "simplyId");

-- CreateIndex
CREATE INDEX "UserNotification_teamId_userId_createdAt_id_idx" ON "UserNotification"("teamId", "userId", "createdAt", "id");

-- CreateIndex
CREATE UNIQUE INDEX "UserNotification_teamId_simplyId_key" ON "UserNotification"("teamId", "simplyId");

-- CreateIndex
CREATE INDEX "WebhookSubscription_teamId_eventType_idx" ON "WebhookSubscription"("teamId", "eventType");

-- CreateIndex
CREATE UNIQUE INDEX "WebhookSubscription_teamId_simplyId_key" ON "WebhookSubscription"("teamId", "simplyId");

-- CreateIndex
CREATE UNIQUE INDEX "WebhookSubscription_teamId_id_key" ON "WebhookSubscription"("teamId", "id");

-- CreateIndex
CREATE INDEX "WebhookDelivery_teamId_subscriptionId_createdAt_id_idx" ON "WebhookDelivery"("teamId", "subscriptionId", "createdAt", "id");

-- CreateIndex
CREATE UNIQUE INDEX "WebhookDelivery_subscriptionId_eventId_key" ON "WebhookDelivery"("subscriptionId", "eventId");

-- CreateIndex
CREATE UNIQUE INDEX "WebhookDelivery_teamId_id_key" ON "WebhookDelivery"("teamId", "id");

-- CreateIndex
CREATE UNIQUE INDEX "WebhookDelivery_teamId_simplyId_key" ON "WebhookDelivery"("teamId", "simplyId");

-- CreateIndex
CREATE INDEX "WebhookDeliveryAttempt_teamId_deliveryId_idx" ON "WebhookDeliveryAttempt"("teamId", "deliveryId");

-- CreateIndex
CREATE UNIQUE INDEX "WebhookDeliveryAttempt_deliveryId_attemptNumber_key" ON "WebhookDeliveryAttempt"("deliveryId", "attemptNumber");

-- CreateIndex
CREATE INDEX "Automation_teamId_collectionId_triggerType_idx" ON "Automation"("teamId", "collectionId", "triggerType");

-- CreateIndex
CREATE UNIQUE INDEX "Automation_teamId_simplyId_key" ON "Automation"("teamId", "simplyId");

-- CreateIndex
CREATE UNIQUE INDEX "Automation_teamId_id_key" ON "Automation"("teamId", "id");

-- CreateIndex
CREATE INDEX "AutomationAction_teamId_automationId_executionRank_idx" ON "AutomationAction"("teamId", "automationId", "executionRank");

-- CreateIndex
CREATE UNIQUE INDEX "AutomationAction_teamId_simplyId_key" ON "AutomationAction"("teamId", "simplyId");

-- CreateIndex
CREATE INDEX "AutomationExecution_teamId_automationId_createdAt_id_idx" ON "AutomationExecution"("teamId", "automationId", "createdAt", "id");

-- CreateIndex
CREATE UNIQUE INDEX "AutomationExecution_automationId_triggerEventId_key" ON "AutomationExecution"("automationId", "triggerEventId");

-- CreateIndex
CREATE UNIQUE INDEX "AutomationExecution_teamId_simplyId_key" ON "AutomationExecution"("teamId", "simplyId");

-- CreateIndex
CREATE UNIQUE INDEX "PaymentCharge_teamId_idempotencyKey_key" ON "PaymentCharge"("teamId", "idempotencyKey");

-- CreateIndex
CREATE UNIQUE INDEX "PaymentCharge_teamId_simplyId_key" ON "PaymentCharge"("teamId", "simplyId");

-- CreateIndex
CREATE UNIQUE INDEX "DataWizard_teamId_simplyId_key" ON "DataWizard"("teamId", "simplyId");

-- CreateIndex
CREATE UNIQUE INDEX "DataWizard_teamId_id_key" ON "DataWizard"("teamId", "id");

-- CreateIndex
CREATE INDEX "DataWizardStep_teamId_wizardId_rank_idx" ON "DataWizardStep"("teamId", "wizardId", "rank");

-- CreateIndex
CREATE UNIQUE INDEX "DataWizardStep_teamId_simplyId_key" ON "DataWizardStep"("teamId", "simplyId");

-- CreateIndex
CREATE UNIQUE INDEX "DataWizardStep_teamId_id_key" ON "DataWizardStep"("teamId", "id");

-- CreateIndex
CREATE INDEX "DataWizardStepTask_teamId_stepId_rank_idx" ON "DataWizardStepTask"("teamId", "stepId", "rank");

-- CreateIndex
CREATE UNIQUE INDEX "DataWizardStepTask_teamId_simplyId_key" ON "DataWizardStepTask"("teamId", "simplyId");

-- CreateIndex
CREATE UNIQUE INDEX "DataWizardStepTask_teamId_id_key" ON "DataWizardStepTask"("teamId", "id");

-- CreateIndex
CREATE INDEX "DataWizardTaskField_teamId_fieldId_idx" ON "DataWizardTaskField"("teamId", "fieldId");

-- CreateIndex
CREATE UNIQUE INDEX "DataWizardTaskField_teamId_taskId_fieldId_key" ON "DataWizardTaskField"("teamId", "taskId", "fieldId");

-- CreateIndex
CREATE INDEX "DataWizardInstance_teamId_wizardId_startedAt_idx" ON "DataWizardInstance"("teamId", "wizardId", "startedAt");

-- CreateIndex
CREATE UNIQUE INDEX "DataWizardInstance_teamId_simplyId_key" ON "DataWizardInstance"("teamId", "simplyId");

-- AddForeignKey
ALTER TABLE "WebhookDelivery" ADD CONSTRAINT "WebhookDelivery_teamId_subscriptionId_fkey" FOREIGN KEY ("teamId", "subscriptionId") REFERENCES "WebhookSubscription"("teamId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebhookDeliveryAttempt" ADD CONSTRAINT "WebhookDeliveryAttempt_teamId_deliveryId_fkey" FOREIGN KEY ("teamId", "deliveryId") REFERENCES "WebhookDelivery"("teamId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AutomationAction" ADD CONSTRAINT "AutomationAction_teamId_automationId_fkey" FOREIGN KEY ("teamId", "automationId") REFERENCES "Automation"("teamId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AutomationExecution" ADD CONSTRAINT "AutomationExecution_teamId_automationId_fkey" FOREIGN KEY ("teamId", "automationId") REFERENCES "Automation"("teamId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DataWizardStep" ADD CONSTRAINT "DataWizardStep_teamId_wizardId_fkey" FOREIGN KEY ("teamId", "wizardId") REFERENCES "DataWizard"("teamId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DataWizardStepTask" ADD CONSTRAINT "DataWizardStepTask_teamId_stepId_fkey" FOREIGN KEY ("teamId", "stepId") REFERENCES "DataWizardStep"("teamId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DataWizardTaskField" ADD CONSTRAINT "DataWizardTaskField_teamId_taskId_fkey" FOREIGN KEY ("teamId", "taskId") REFERENCES "DataWizardStepTask"("teamId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DataWizardInstance" ADD CONSTRAINT "DataWizardInstance_teamId_wizardId_fkey" FOREIGN KEY ("teamId", "wizardId") REFERENCES "DataWizard"("teamId", "id") ON DELETE CASCADE ON UPDATE CASCADE;
