-- DropIndex
DROP INDEX "AssistantProposal_teamId_runId_idx";

-- AlterTable
ALTER TABLE "AssistantProposal" ADD COLUMN     "toolCallId" TEXT NOT NULL;

-- CreateIndex
CREATE UNIQUE INDEX "AssistantProposal_teamId_runId_toolCallId_key" ON "AssistantProposal"("teamId", "runId", "toolCallId");
