-- The objects of the OAuth authorization server (oidc-provider), one row each; see OAuthState in
-- prisma/schema/oauth.prisma. No teamId: sessions and interactions exist before a team is chosen.

-- CreateTable
CREATE TABLE "OAuthState" (
    "model" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "grantId" TEXT,
    "uid" TEXT,
    "userCode" TEXT,
    "expiresAt" TIMESTAMP(3),
    "consumedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "OAuthState_pkey" PRIMARY KEY ("model","key")
);

-- CreateIndex
CREATE INDEX "OAuthState_grantId_idx" ON "OAuthState"("grantId");

-- CreateIndex
CREATE INDEX "OAuthState_model_uid_idx" ON "OAuthState"("model", "uid");

-- CreateIndex
CREATE INDEX "OAuthState_model_userCode_idx" ON "OAuthState"("model", "userCode");

-- CreateIndex
CREATE INDEX "OAuthState_expiresAt_idx" ON "OAuthState"("expiresAt");
