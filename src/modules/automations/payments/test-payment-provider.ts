// A deterministic stand-in for a card processor, for development and tests: every charge
// succeeds except amounts whose cents are .13, which are declined (a "card declined" a test can
// ask for). References derive from the idempotency key, so a repeated request answers the same.
import { createHash } from 'node:crypto';
import type { ChargeRequest, ChargeResult, PaymentProvider } from './payment-provider.ts';

export const DECLINED_CENTS = '13';

export class TestPaymentProvider implements PaymentProvider {
  readonly name = 'test';

  async charge(request: ChargeRequest): Promise<ChargeResult> {
    const providerReference = `test_${createHash('sha256').update(request.idempotencyKey).digest('hex').slice(0, 24)}`;
    const cents = (request.amount.split('.')[1] ?? '').padEnd(2, '0').slice(0, 2);
    if (cents === DECLINED_CENTS) return { status: 'DECLINED', providerReference, message: 'The test provider declines amounts ending in .13' };
    return { status: 'SUCCEEDED', providerReference };
  }
}
