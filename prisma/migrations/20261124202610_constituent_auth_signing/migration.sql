-- CreateTable
CREATE TABLE "ConstituentVerification" (
    "id" BIGSERIAL NOT NULL,
    "simplyId" TEXT NOT NULL,
    "teamId" BIGINT NOT NULL,
    "dataRecordId" BIGINT,
    "method" TEXT NOT NULL,
    "codeHash" TEXT,
    "linkTokenHash" TEXT,
    "failedAttempts" INTEGER NOT NULL DEFAULT 0,
    "state" TEXT NOT NULL DEFAULT 'ISSUED',
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "consumedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ConstituentVerification_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ConstituentSession" (
    "id" BIGSERIAL NOT NULL,
    "simplyId" TEXT NOT NULL,
    "teamId" BIGINT NOT NULL,
    "dataRecordId" BIGINT NOT NULL,
    "platform" TEXT,
    "deviceName" TEXT,
    "accessTokenHash" TEXT NOT NULL,
    "accessExpiresAt" TIMESTAMP(3) NOT NULL,
    "refreshExpiresAt" TIMESTAMP(3) NOT NULL,
    "lastActiveAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revokedAt" TIMESTAMP(3),
    "revokedReason" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ConstituentSession_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ConstituentRefreshToken" (
    "id" BIGSERIAL NOT NULL,
    "teamId" BIGINT NOT NULL,
    "sessionId" BIGINT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "rotatedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ConstituentRefreshToken_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RateLimitCounter" (
    "bucket" TEXT NOT NULL,
    "windowStart" TIMESTAMP(3) NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "RateLimitCounter_pkey" PRIMARY KEY ("bucket","windowStart")
);

-- CreateTable
CREATE TABLE "SigningRequest" (
    "id" BIGSERIAL NOT NULL,
    "simplyId" TEXT NOT NULL,
    "teamId" BIGINT NOT NULL,
    "status" TEXT NOT NULL,
    "sourceCollectionId" BIGINT NOT NULL,
    "sourceRecordId" BIGINT NOT NULL,
    "reviewFieldSimplyIds" TEXT[],
    "signatureFieldSimplyIds" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "fileTarget" JSONB,
    "signingProfileSimplyId" TEXT,
    "signingWizardSimplyId" TEXT,
    "contentTemplateId" BIGINT,
    "consentText" JSONB,
    "consentVersion" TEXT,
    "signingBaseUrl" TEXT,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "voidedAt" TIMESTAMP(3),
    "voidReason" TEXT,
    "completedAt" TIMESTAMP(3),
    "sourceDocumentSha256" TEXT,
    "completedDocumentSha256" TEXT,
    "signedFileId" BIGINT,
    "signedFileVersionNumber" INTEGER,
    "createdByKind" TEXT NOT NULL,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "SigningRequest_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SigningRequestSigner" (
    "id" BIGSERIAL NOT NULL,
    "simplyId" TEXT NOT NULL,
    "teamId" BIGINT NOT NULL,
    "signingRequestId" BIGINT NOT NULL,
    "roleKey" TEXT NOT NULL,
    "name" TEXT,
    "email" TEXT,
    "signingOrder" INTEGER NOT NULL DEFAULT 1,
    "status" TEXT NOT NULL,
    "internalTeamUserLinkSimplyId" TEXT,
    "linkedConstituentRecordId" BIGINT,
    "linkTokenHash" TEXT,
    "linkIssuedAt" TIMESTAMP(3),
    "linkExpiresAt" TIMESTAMP(3),
    "signedAt" TIMESTAMP(3),
    "declinedAt" TIMESTAMP(3),
    "declineReason" TEXT,
    "typedName" TEXT,
    "signatureImage" BYTEA,
    "consentVersionAccepted" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "SigningRequestSigner_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SigningRequestEvent" (
    "id" BIGSERIAL NOT NULL,
    "teamId" BIGINT NOT NULL,
    "signingRequestId" BIGINT NOT NULL,
    "signerId" BIGINT,
    "eventType" TEXT NOT NULL,
    "ipAddress" TEXT,
    "userAgent" TEXT,
    "detail" JSONB,
    "occurredAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SigningRequestEvent_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "ConstituentVerification_simplyId_key" ON "ConstituentVerification"("simplyId");

-- CreateIndex
CREATE UNIQUE INDEX "ConstituentVerification_linkTokenHash_key" ON "ConstituentVerification"("linkTokenHash");

-- CreateIndex
CREATE INDEX "ConstituentVerification_teamId_dataRecordId_idx" ON "ConstituentVerification"("teamId", "dataRecordId");

-- CreateIndex
CREATE INDEX "ConstituentVerification_expiresAt_idx" ON "ConstituentVerification"("expiresAt");

-- CreateIndex
CREATE UNIQUE INDEX "ConstituentSession_simplyId_key" ON "ConstituentSession"("simplyId");

-- CreateIndex
CREATE UNIQUE INDEX "ConstituentSession_accessTokenHash_key" ON "ConstituentSession"("accessTokenHash");

-- CreateIndex
CREATE INDEX "ConstituentSession_teamId_dataRecordId_idx" ON "ConstituentSession"("teamId", "dataRecordId");

-- CreateIndex
CREATE UNIQUE INDEX "ConstituentRefreshToken_tokenHash_key" ON "ConstituentRefreshToken"("tokenHash");

-- CreateIndex
CREATE INDEX "ConstituentRefreshToken_teamId_sessionId_idx" ON "ConstituentRefreshToken"("teamId", "sessionId");

-- CreateIndex
CREATE INDEX "RateLimitCounter_windowStart_idx" ON "RateLimitCounter"("windowStart");

-- CreateIndex
CREATE INDEX "SigningRequest_teamId_sourceCollectionId_sourceRecordId_idx" ON "SigningRequest"("teamId", "sourceCollectionId", "sourceRecordId");

-- CreateIndex
CREATE INDEX "SigningRequest_teamId_createdAt_id_idx" ON "SigningRequest"("teamId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "SigningRequest_status_expiresAt_idx" ON "SigningRequest"("status", "expiresAt");

-- CreateIndex
CREATE UNIQUE INDEX "SigningRequest_teamId_simplyId_key" ON "SigningRequest"("teamId", "simplyId");

-- CreateIndex
CREATE UNIQUE INDEX "SigningRequestSigner_linkTokenHash_key" ON "SigningRequestSigner"("linkTokenHash");

-- CreateIndex
CREATE INDEX "SigningRequestSigner_teamId_signingRequestId_signingOrder_idx" ON "SigningRequestSigner"("teamId", "signingRequestId", "signingOrder");

-- CreateIndex
CREATE UNIQUE INDEX "SigningRequestSigner_teamId_simplyId_key" ON "SigningRequestSigner"("teamId", "simplyId");

-- CreateIndex
CREATE INDEX "SigningRequestEvent_teamId_signingRequestId_id_idx" ON "SigningRequestEvent"("teamId", "signingRequestId", "id");
