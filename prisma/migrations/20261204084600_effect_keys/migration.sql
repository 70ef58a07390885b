-- CreateTable
CREATE TABLE "EffectKey" (
    "teamId" BIGINT NOT NULL,
    "key" TEXT NOT NULL,
    "result" JSONB,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "EffectKey_pkey" PRIMARY KEY ("teamId","key")
);

-- One automation mail per (team, idempotency key): the mailer's insert skips a message whose
-- AUTOMATION sourceId is already stored (ON CONFLICT DO NOTHING), so a repeated run sends nothing
-- twice. Partial, because other sources reuse a sourceId on purpose (a signing request's mail to
-- each signer, repeated test sends); not modelled in schema.prisma (see the comment on
-- MailMessage): Prisma leaves partial indexes it does not model alone.
CREATE UNIQUE INDEX "MailMessage_automation_source_key" ON "MailMessage"("teamId", "source", "sourceId") WHERE ("source" = 'AUTOMATION');
