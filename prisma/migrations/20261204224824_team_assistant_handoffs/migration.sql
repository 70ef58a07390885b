-- CreateTable
CREATE TABLE "AssistantHandoff" (
    "id" BIGSERIAL NOT NULL,
    "simplyId" TEXT NOT NULL,
    "teamId" BIGINT NOT NULL,
    "sessionId" BIGINT NOT NULL,
    "userId" BIGINT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'OPEN',
    "topic" TEXT,
    "note" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "closedAt" TIMESTAMP(3),

    CONSTRAINT "AssistantHandoff_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "AssistantHandoff_teamId_sessionId_createdAt_idx" ON "AssistantHandoff"("teamId", "sessionId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "AssistantHandoff_teamId_simplyId_key" ON "AssistantHandoff"("teamId", "simplyId");

-- at most one OPEN handoff per session: a repeated request finds it instead of notifying again
CREATE UNIQUE INDEX "AssistantHandoff_open_per_session" ON "AssistantHandoff"("teamId", "sessionId") WHERE status = 'OPEN';
