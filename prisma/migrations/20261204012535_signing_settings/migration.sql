-- CreateTable
CREATE TABLE "TeamSigningSettings" (
    "teamId" BIGINT NOT NULL,
    "defaultExpirationDays" INTEGER,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "TeamSigningSettings_pkey" PRIMARY KEY ("teamId")
);
