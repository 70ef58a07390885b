-- AlterTable
ALTER TABLE "OutgoingMessageTemplate" ADD COLUMN     "dataCollectionId" BIGINT,
ADD COLUMN     "designJson" JSONB,
ADD COLUMN     "htmlContent" TEXT,
ADD COLUMN     "preheader" TEXT,
ADD COLUMN     "textContent" TEXT;
