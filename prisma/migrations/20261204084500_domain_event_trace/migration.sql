-- AlterTable
ALTER TABLE "DomainEvent" ADD COLUMN     "traceparent" TEXT,
ADD COLUMN     "tracestate" TEXT;
