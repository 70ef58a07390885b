// Webhook signatures (Document 1 §6 rules 1-2): lowercase hex HMAC-SHA-256 of the exact raw
// request body, keyed with the subscription's secret (its UTF-8 bytes, as shown at creation).
// `verifyWebhookSignature` is the receiver's side: import it (or copy its few lines) into the
// service that receives deliveries, and call it on the raw body before parsing it.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'X-SVC-Signature';

export function signWebhookBody(rawBody: string | Uint8Array, secret: string): string {
  return createHmac('sha256', secret).update(rawBody).digest('hex');
}

/**
 * True when `signatureHeader` is the signature of `rawBody` under `secret`. Compares in constant
 * time; a missing, malformed or wrong-length header is false, never an exception.
 */
export function verifyWebhookSignature(rawBody: string | Uint8Array, signatureHeader: string | null | undefined, secret: string): boolean {
  if (typeof signatureHeader !== 'string' || !/^[0-9a-f]{64}$/i.test(signatureHeader.trim())) return false;
  const expected = Buffer.from(signWebhookBody(rawBody, secret), 'hex');
  const given = Buffer.from(signatureHeader.trim(), 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
