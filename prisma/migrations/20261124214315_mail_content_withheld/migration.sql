-- AlterTable
ALTER TABLE "MailMessage" ADD COLUMN     "contentWithheld" BOOLEAN NOT NULL DEFAULT false;
