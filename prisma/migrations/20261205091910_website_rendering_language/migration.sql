-- AlterTable
ALTER TABLE "WebsiteRendering" ADD COLUMN     "languageTagId" TEXT;
