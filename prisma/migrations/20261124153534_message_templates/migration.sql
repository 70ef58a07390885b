-- CreateTable
CREATE TABLE "OutgoingMessageTemplate" (
    "id" BIGSERIAL NOT NULL,
    "simplyId" TEXT NOT NULL,
    "teamId" BIGINT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "deliveryMethod" TEXT NOT NULL DEFAULT 'EMAIL',
    "subjectLine" TEXT,
    "designFormat" TEXT NOT NULL DEFAULT 'HTML',
    "archivedAt" TIMESTAMP(3),
    "createdByKind" TEXT NOT NULL,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "OutgoingMessageTemplate_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "OutgoingMessageTemplate_teamId_archivedAt_createdAt_id_idx" ON "OutgoingMessageTemplate"("teamId", "archivedAt", "createdAt", "id");

-- CreateIndex
CREATE UNIQUE INDEX "OutgoingMessageTemplate_teamId_simplyId_key" ON "OutgoingMessageTemplate"("teamId", "simplyId");
