// The payment-provider interface CHARGE_PAYMENT charges through. A provider must treat the
// idempotency key as the identity of the charge: asked twice with one key, it charges once and
// answers the same. The only provider built in is the test provider: no real money moves.
export interface ChargeRequest {
  /** decimal string in major units, e.g. "12.50" */
  amount: string;
  /** ISO 4217 */
  currency: string;
  description: string | null;
  idempotencyKey: string;
}

export type ChargeResult =
  | { status: 'SUCCEEDED'; providerReference: string }
  | { status: 'DECLINED'; providerReference: string | null; message: string };

export interface PaymentProvider {
  readonly name: string;
  charge(request: ChargeRequest): Promise<ChargeResult>;
}
