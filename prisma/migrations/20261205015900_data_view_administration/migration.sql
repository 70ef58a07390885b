-- AlterTable
ALTER TABLE "DataView" ADD COLUMN     "internalName" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "DataView_teamId_internalName_key" ON "DataView"("teamId", "internalName");
