-- CreateTable
CREATE TABLE "TeamMailDomain" (
    "id" BIGSERIAL NOT NULL,
    "simplyId" TEXT NOT NULL,
    "teamId" BIGINT NOT NULL,
    "domain" TEXT NOT NULL,
    "verificationToken" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'PENDING',
    "verifiedAt" TIMESTAMP(3),
    "lastCheckedAt" TIMESTAMP(3),
    "lastCheckError" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "TeamMailDomain_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "MessageSender" (
    "id" BIGSERIAL NOT NULL,
    "simplyId" TEXT NOT NULL,
    "teamId" BIGINT NOT NULL,
    "name" TEXT NOT NULL,
    "deliveryMethod" TEXT NOT NULL DEFAULT 'EMAIL',
    "emailAddress" TEXT,
    "phoneNumber" TEXT,
    "domainId" BIGINT,
    "isDefault" BOOLEAN NOT NULL DEFAULT false,
    "archivedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "MessageSender_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "TeamMailDomain_teamId_simplyId_key" ON "TeamMailDomain"("teamId", "simplyId");

-- CreateIndex
CREATE UNIQUE INDEX "TeamMailDomain_teamId_id_key" ON "TeamMailDomain"("teamId", "id");

-- CreateIndex
CREATE UNIQUE INDEX "TeamMailDomain_teamId_domain_key" ON "TeamMailDomain"("teamId", "domain");

-- CreateIndex
CREATE INDEX "MessageSender_teamId_archivedAt_idx" ON "MessageSender"("teamId", "archivedAt");

-- CreateIndex
CREATE UNIQUE INDEX "MessageSender_teamId_simplyId_key" ON "MessageSender"("teamId", "simplyId");

-- AddForeignKey
ALTER TABLE "MessageSender" ADD CONSTRAINT "MessageSender_teamId_domainId_fkey" FOREIGN KEY ("teamId", "domainId") REFERENCES "TeamMailDomain"("teamId", "id") ON DELETE RESTRICT ON UPDATE CASCADE;
