-- CreateTable
CREATE TABLE "DataCardGroup" (
    "id" BIGSERIAL NOT NULL,
    "simplyId" TEXT NOT NULL,
    "teamId" BIGINT NOT NULL,
    "collectionId" BIGINT NOT NULL,
    "name" JSONB NOT NULL,
    "position" INTEGER NOT NULL DEFAULT 0,
    "cards" JSONB NOT NULL DEFAULT '[]',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "DataCardGroup_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "DataCardGroup_teamId_collectionId_position_idx" ON "DataCardGroup"("teamId", "collectionId", "position");

-- CreateIndex
CREATE UNIQUE INDEX "DataCardGroup_teamId_simplyId_key" ON "DataCardGroup"("teamId", "simplyId");

-- AddForeignKey
ALTER TABLE "DataCardGroup" ADD CONSTRAINT "DataCardGroup_teamId_collectionId_fkey" FOREIGN KEY ("teamId", "collectionId") REFERENCES "DataCollection"("teamId", "id") ON DELETE CASCADE ON UPDATE CASCADE;
