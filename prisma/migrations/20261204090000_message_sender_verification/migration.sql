-- AlterTable
ALTER TABLE "MessageSender" ADD COLUMN     "verificationExpiresAt" TIMESTAMP(3),
ADD COLUMN     "verificationSentAt" TIMESTAMP(3),
ADD COLUMN     "verificationStatus" TEXT NOT NULL DEFAULT 'PENDING',
ADD COLUMN     "verificationTokenHash" TEXT,
ADD COLUMN     "verifiedAt" TIMESTAMP(3);

-- Every sender created before this migration was on a VERIFIED domain of its team
UPDATE "MessageSender" SET "verificationStatus" = 'VERIFIED', "verifiedAt" = "createdAt";

-- CreateIndex
CREATE UNIQUE INDEX "MessageSender_verificationTokenHash_key" ON "MessageSender"("verificationTokenHash");
