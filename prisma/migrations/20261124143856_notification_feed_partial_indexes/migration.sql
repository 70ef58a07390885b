-- DropIndex
DROP INDEX "UserNotification_teamId_userId_createdAt_id_idx";

-- DropIndex
DROP INDEX "UserNotification_teamId_userId_readAt_idx";

-- Partial feed indexes, not modelled in schema.prisma (see the comment on UserNotification): lists,
-- totals and counts read only live rows, and unread counts and read-all only unread ones.
CREATE INDEX "UserNotification_feed_key" ON "UserNotification"("teamId", "userId", "createdAt" DESC, id DESC) WHERE ("deletedAt" IS NULL);

CREATE INDEX "UserNotification_unread_key" ON "UserNotification"("teamId", "userId", category) WHERE ("readAt" IS NULL AND "deletedAt" IS NULL);
