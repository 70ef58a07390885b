// CHARGE_PAYMENT: a fixed amount or the record's amount field, through the payment provider, once
// per idempotency key (payments/charges.ts). A decline fails the action.
import { decodeValue } from '../../../kernel/index.ts';
import { amountProblem, isCurrency } from '../automations.input.ts';
import { renderTemplate } from '../../merge-tags/index.ts';
import { chargeOnce } from '../payments/charges.ts';
import { type ActionHandler, fieldsOf } from './action-run.ts';
import { InvalidPaymentError, NoAmountError, PaymentDeclinedError } from '../automations.errors.ts';

export const chargePayment: ActionHandler = async (run) => {
  const config = run.config as { amount?: number | string; amountFieldSimplyId?: string; currency?: string; description?: string };
  const fields = fieldsOf(run);
  let amount: unknown = config.amount;
  let currency = config.currency ?? null;
  if (config.amountFieldSimplyId) {
    const field = fields.find((f) => f.dataFieldSimplyId === config.amountFieldSimplyId);
    amount = field && run.record ? decodeValue(field, run.record.values[field.dataFieldSimplyId]) : null;
    if (amount === null || amount === undefined) throw new NoAmountError(String(config.amountFieldSimplyId));
    if (!currency && field?.dataType === 'MONEY' && typeof field.config.currency === 'string') currency = field.config.currency;
  }
  if (!currency || !isCurrency(currency)) throw new InvalidPaymentError('No valid currency for the charge');
  const text = typeof amount === 'number' ? String(amount) : amount;
  const problem = amountProblem(text, currency);
  if (problem) throw new InvalidPaymentError(`The amount ${String(text)} ${problem}`);
  const outcome = await chargeOnce(run.services.prisma, run.payments, {
    teamId: run.team.id,
    amount: text as string,
    currency,
    description: config.description ? renderTemplate(config.description, { fields, record: run.record }) : null,
    idempotencyKey: run.idempotencyKey,
    recordSimplyId: run.record?.simplyId ?? null,
  });
  if (outcome.status === 'DECLINED') throw new PaymentDeclinedError(outcome.paymentSimplyId, outcome.message);
};
