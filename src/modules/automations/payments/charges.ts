// One PaymentCharge row per idempotency key (<execution>:<action>:<record>), written before the
// provider is asked, so a run repeated after a crash finds the charge: a settled one is answered
// from the row (never charged twice); a PENDING one is asked again with the same key, which a
// provider answers without charging again.
import type { PrismaClient } from '../../../generated/prisma/client.ts';
import { paymentChargeId } from '../automations.ids.ts';
import type { PaymentProvider } from './payment-provider.ts';

export interface ChargeInput {
  teamId: bigint;
  amount: string;
  currency: string;
  description: string | null;
  idempotencyKey: string;
  recordSimplyId: string | null;
}

export interface ChargeOutcome {
  paymentSimplyId: string;
  status: 'SUCCEEDED' | 'DECLINED';
  message: string | null;
  /** false when the charge had been settled by an earlier attempt */
  charged: boolean;
}

export async function chargeOnce(prisma: PrismaClient, provider: PaymentProvider, input: ChargeInput): Promise<ChargeOutcome> {
  const key = { teamId_idempotencyKey: { teamId: input.teamId, idempotencyKey: input.idempotencyKey } };
  let row = await prisma.paymentCharge.findUnique({ where: key });
  if (row && row.status !== 'PENDING') {
    return { paymentSimplyId: row.simplyId, status: row.status === 'SUCCEEDED' ? 'SUCCEEDED' : 'DECLINED', message: row.errorMessage, charged: false };
  }
  row ??= await prisma.paymentCharge.upsert({
    where: key,
    update: {},
    create: {
      simplyId: paymentChargeId.create(),
      teamId: input.teamId,
      provider: provider.name,
      amount: input.amount,
      currency: input.currency,
      status: 'PENDING',
      idempotencyKey: input.idempotencyKey,
      recordSimplyId: input.recordSimplyId,
      description: input.description,
    },
  });
  const result = await provider.charge({ amount: input.amount, currency: input.currency, description: input.description, idempotencyKey: input.idempotencyKey });
  const message = result.status === 'DECLINED' ? result.message : null;
  await prisma.paymentCharge.update({ where: { id: row.id }, data: { status: result.status, providerReference: result.providerReference, errorMessage: message } });
  return { paymentSimplyId: row.simplyId, status: result.status, message, charged: true };
}
