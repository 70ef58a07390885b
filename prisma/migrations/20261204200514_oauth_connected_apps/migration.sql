-- A user's connected apps: the account (user@team) of each OAuth object in a column of its own,
-- indexed, and when a grant's tokens were last used. Rows written before carry the account in their
-- payload only: copied over here.

-- AlterTable
ALTER TABLE "OAuthState" ADD COLUMN     "accountId" TEXT,
ADD COLUMN     "lastUsedAt" TIMESTAMP(3);

UPDATE "OAuthState" SET "accountId" = "payload"->>'accountId' WHERE "payload" ? 'accountId';

-- CreateIndex
CREATE INDEX "OAuthState_accountId_idx" ON "OAuthState"("accountId");
