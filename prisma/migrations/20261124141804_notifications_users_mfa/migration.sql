-- UserNotification becomes the notification feed; rows written by SEND_USER_NOTIFICATION keep their text
ALTER TABLE "UserNotification"
ADD COLUMN     "actionUrl" TEXT,
ADD COLUMN     "category" TEXT NOT NULL DEFAULT 'workflow',
ADD COLUMN     "deletedAt" TIMESTAMP(3),
ADD COLUMN     "iconType" TEXT,
ADD COLUMN     "notificationType" TEXT NOT NULL DEFAULT 'WORKFLOW',
ADD COLUMN     "referenceEntityId" TEXT,
ADD COLUMN     "referenceEntityType" TEXT,
ADD COLUMN     "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
ALTER COLUMN   "title" DROP NOT NULL,
ALTER COLUMN   "title" TYPE JSONB USING to_jsonb("title"),
ALTER COLUMN   "body" TYPE JSONB USING to_jsonb("body");

UPDATE "UserNotification"
SET "referenceEntityType" = CASE WHEN "data"->>'dataRecordSimplyId' IS NOT NULL THEN 'DATA_RECORD' ELSE 'AUTOMATION' END,
    "referenceEntityId" = COALESCE("data"->>'dataRecordSimplyId', "data"->>'automationSimplyId');

ALTER TABLE "UserNotification" DROP COLUMN "data",
ALTER COLUMN "category" DROP DEFAULT,
ALTER COLUMN "notificationType" DROP DEFAULT,
ALTER COLUMN "updatedAt" DROP DEFAULT;

-- CreateTable
CREATE TABLE "UserSession" (
    "id" BIGSERIAL NOT NULL,
    "simplyId" TEXT NOT NULL,
    "userId" BIGINT NOT NULL,
    "familyId" TEXT NOT NULL,
    "platform" TEXT,
    "deviceName" TEXT,
    "userAgent" TEXT,
    "lastActiveAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revokedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "UserSession_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RecentVisit" (
    "id" BIGSERIAL NOT NULL,
    "simplyId" TEXT NOT NULL,
    "userId" BIGINT NOT NULL,
    "teamId" BIGINT NOT NULL,
    "entityType" TEXT NOT NULL,
    "entityId" TEXT NOT NULL,
    "title" TEXT,
    "url" TEXT,
    "visitedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RecentVisit_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "UserMfa" (
    "userId" BIGINT NOT NULL,
    "secretSealed" BYTEA NOT NULL,
    "status" TEXT NOT NULL,
    "lastUsedStep" BIGINT,
    "enabledAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "UserMfa_pkey" PRIMARY KEY ("userId")
);

-- CreateTable
CREATE TABLE "MfaRecoveryCode" (
    "id" BIGSERIAL NOT NULL,
    "userId" BIGINT NOT NULL,
    "codeHash" TEXT NOT NULL,
    "usedAt" TIMESTAMP(3),

    CONSTRAINT "MfaRecoveryCode_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "MfaChallenge" (
    "id" BIGSERIAL NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "userId" BIGINT NOT NULL,
    "platform" TEXT,
    "deviceName" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "consumedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "MfaChallenge_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "MfaFailure" (
    "id" BIGSERIAL NOT NULL,
    "userId" BIGINT NOT NULL,
    "failedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "MfaFailure_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "UserDevice" (
    "id" BIGSERIAL NOT NULL,
    "simplyId" TEXT NOT NULL,
    "userId" BIGINT NOT NULL,
    "installationId" TEXT NOT NULL,
    "platform" TEXT NOT NULL,
    "deviceName" TEXT,
    "appVersion" TEXT,
    "osVersion" TEXT,
    "preferences" JSONB NOT NULL DEFAULT '{}',
    "pushEnabled" BOOLEAN NOT NULL DEFAULT true,
    "lastActiveAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "UserDevice_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "DevicePushToken" (
    "id" BIGSERIAL NOT NULL,
    "simplyId" TEXT NOT NULL,
    "userId" BIGINT NOT NULL,
    "deviceId" BIGINT,
    "platform" TEXT NOT NULL,
    "token" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "isActive" BOOLEAN NOT NULL DEFAULT true,
    "lastRefreshedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deactivatedAt" TIMESTAMP(3),
    "deactivationReason" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "DevicePushToken_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PushDelivery" (
    "id" BIGSERIAL NOT NULL,
    "teamId" BIGINT NOT NULL,
    "notificationId" BIGINT NOT NULL,
    "tokenId" BIGINT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'PENDING',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lastError" TEXT,
    "sentAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "PushDelivery_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "UserSession_simplyId_key" ON "UserSession"("simplyId");

-- CreateIndex
CREATE UNIQUE INDEX "UserSession_familyId_key" ON "UserSession"("familyId");

-- CreateIndex
CREATE INDEX "UserSession_userId_revokedAt_idx" ON "UserSession"("userId", "revokedAt");

-- CreateIndex
CREATE UNIQUE INDEX "RecentVisit_simplyId_key" ON "RecentVisit"("simplyId");

-- CreateIndex
CREATE INDEX "RecentVisit_userId_teamId_visitedAt_idx" ON "RecentVisit"("userId", "teamId", "visitedAt");

-- CreateIndex
CREATE UNIQUE INDEX "RecentVisit_userId_teamId_entityType_entityId_key" ON "RecentVisit"("userId", "teamId", "entityType", "entityId");

-- CreateIndex
CREATE UNIQUE INDEX "MfaRecoveryCode_userId_codeHash_key" ON "MfaRecoveryCode"("userId", "codeHash");

-- CreateIndex
CREATE UNIQUE INDEX "MfaChallenge_tokenHash_key" ON "MfaChallenge"("tokenHash");

-- CreateIndex
CREATE INDEX "MfaChallenge_expiresAt_idx" ON "MfaChallenge"("expiresAt");

-- CreateIndex
CREATE INDEX "MfaFailure_userId_failedAt_idx" ON "MfaFailure"("userId", "failedAt");

-- CreateIndex
CREATE UNIQUE INDEX "UserDevice_simplyId_key" ON "UserDevice"("simplyId");

-- CreateIndex
CREATE UNIQUE INDEX "UserDevice_userId_installationId_key" ON "UserDevice"("userId", "installationId");

-- CreateIndex
CREATE UNIQUE INDEX "DevicePushToken_simplyId_key" ON "DevicePushToken"("simplyId");

-- CreateIndex
CREATE UNIQUE INDEX "DevicePushToken_tokenHash_key" ON "DevicePushToken"("tokenHash");

-- CreateIndex
CREATE INDEX "DevicePushToken_userId_isActive_idx" ON "DevicePushToken"("userId", "isActive");

-- CreateIndex
CREATE INDEX "PushDelivery_teamId_idx" ON "PushDelivery"("teamId");

-- CreateIndex
CREATE UNIQUE INDEX "PushDelivery_notificationId_tokenId_key" ON "PushDelivery"("notificationId", "tokenId");

-- CreateIndex
CREATE INDEX "UserNotification_teamId_userId_readAt_idx" ON "UserNotification"("teamId", "userId", "readAt");

-- CreateIndex
CREATE UNIQUE INDEX "UserNotification_teamId_id_key" ON "UserNotification"("teamId", "id");

-- CreateIndex
CREATE UNIQUE INDEX "UserNotification_teamId_source_sourceId_key" ON "UserNotification"("teamId", "source", "sourceId");

-- AddForeignKey
ALTER TABLE "UserSession" ADD CONSTRAINT "UserSession_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RecentVisit" ADD CONSTRAINT "RecentVisit_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "UserMfa" ADD CONSTRAINT "UserMfa_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "MfaRecoveryCode" ADD CONSTRAINT "MfaRecoveryCode_userId_fkey" FOREIGN KEY ("userId") REFERENCES "UserMfa"("userId") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "UserDevice" ADD CONSTRAINT "UserDevice_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DevicePushToken" ADD CONSTRAINT "DevicePushToken_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DevicePushToken" ADD CONSTRAINT "DevicePushToken_deviceId_fkey" FOREIGN KEY ("deviceId") REFERENCES "UserDevice"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PushDelivery" ADD CONSTRAINT "PushDelivery_teamId_notificationId_fkey" FOREIGN KEY ("teamId", "notificationId") REFERENCES "UserNotification"("teamId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PushDelivery" ADD CONSTRAINT "PushDelivery_tokenId_fkey" FOREIGN KEY ("tokenId") REFERENCES "DevicePushToken"("id") ON DELETE CASCADE ON UPDATE CASCADE;
