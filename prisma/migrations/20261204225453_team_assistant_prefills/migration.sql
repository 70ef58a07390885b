-- CreateTable
CREATE TABLE "AssistantPrefill" (
    "id" BIGSERIAL NOT NULL,
    "teamId" BIGINT NOT NULL,
    "userId" BIGINT NOT NULL,
    "runId" BIGINT NOT NULL,
    "toolCallId" TEXT NOT NULL,
    "nonceHash" TEXT NOT NULL,
    "builder" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "consumedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AssistantPrefill_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "AssistantPrefill_nonceHash_key" ON "AssistantPrefill"("nonceHash");

-- CreateIndex
CREATE UNIQUE INDEX "AssistantPrefill_teamId_runId_toolCallId_key" ON "AssistantPrefill"("teamId", "runId", "toolCallId");
