// The local driver's signatures: HMAC-SHA-256 under a key derived (HKDF) from the instance's
// secrets key, so every instance sharing SECRETS_KEY_FILE accepts the others' URLs and the
// secrets key itself never signs anything directly. Upload forms and download URLs are signed
// under different purposes, so one can never stand in for the other.
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

const HKDF_INFO = 'svc file storage v1';

export type SignaturePurpose = 'upload' | 'download';

export class StorageSigner {
  private readonly key: Buffer;

  constructor(secretsKey: Buffer) {
    this.key = Buffer.from(hkdfSync('sha256', secretsKey, Buffer.alloc(0), HKDF_INFO, 32));
  }

  /** base64url HMAC over the purpose and the values (JSON: no two value lists sign alike) */
  sign(purpose: SignaturePurpose, values: readonly string[]): string {
    return createHmac('sha256', this.key).update(JSON.stringify([purpose, ...values])).digest('base64url');
  }

  /** constant-time comparison of the whole signature text */
  verify(purpose: SignaturePurpose, values: readonly string[], signature: string): boolean {
    const expected = Buffer.from(this.sign(purpose, values));
    const given = Buffer.from(signature);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}
