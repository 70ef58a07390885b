-- AlterTable
ALTER TABLE "WebhookDelivery" ADD COLUMN     "waitingReason" TEXT;

-- CreateTable
CREATE TABLE "WebhookTargetBreaker" (
    "teamId" BIGINT NOT NULL,
    "targetOrigin" TEXT NOT NULL,
    "consecutiveFailures" INTEGER NOT NULL DEFAULT 0,
    "pauseSeconds" INTEGER NOT NULL DEFAULT 0,
    "pausedUntil" TIMESTAMP(3),
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WebhookTargetBreaker_pkey" PRIMARY KEY ("teamId","targetOrigin")
);

-- Team fairness at fan-out counts each team's deliveries not yet attempted (webhook-fanout.ts);
-- partial, so the count reads only the backlog. Not modelled in schema.prisma (see the comment on
-- WebhookTargetBreaker): Prisma leaves partial indexes it does not model alone.
CREATE INDEX "WebhookDelivery_pending_team_idx" ON "WebhookDelivery"("teamId") WHERE ("deliveryStatus" = 'PENDING');
