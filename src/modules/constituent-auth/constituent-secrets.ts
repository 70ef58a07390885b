// The secrets of constituent sign-in and their stored forms. Access, refresh and link tokens carry
// 256 random bits, so a plain SHA-256 (hashToken) is a safe at-rest form. A code has only 10^6
// values: a plain hash of it would fall to a table in a second, so codes are stored as an HMAC
// under a key derived from the instance's secrets key, bound to their verification (the same code
// of another verification hashes differently). HMAC-SHA256 costs microseconds; a slow password
// hash would add nothing here, because what stops guessing is the 5-attempt limit and the
// per-address rate limit, not the cost of one hash.
import { createHmac, hkdfSync, randomInt } from 'node:crypto';
import { constantTimeEqual, CONSTITUENT_ACCESS_TOKEN_PREFIX, CONSTITUENT_LINK_TOKEN_PREFIX, CONSTITUENT_REFRESH_TOKEN_PREFIX } from '../../app/auth/tokens.ts';
import { randomSecret } from '../../app/ids.ts';
import { loadOrCreateSecretsKey } from '../../app/secrets-key.ts';

const keys = new Map<string, Buffer>();

function keyFor(secretsKeyFile: string): Buffer {
  let key = keys.get(secretsKeyFile);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', loadOrCreateSecretsKey(secretsKeyFile), Buffer.alloc(0), 'svc constituent auth v1 codes', 32));
    keys.set(secretsKeyFile, key);
  }
  return key;
}

export class ConstituentSecrets {
  private readonly key: Buffer;

  constructor(secretsKeyFile: string) {
    this.key = keyFor(secretsKeyFile);
  }

  /** A 6-digit code, every value equally likely. */
  newCode(): string {
    return String(randomInt(0, 1_000_000)).padStart(6, '0');
  }

  newLinkToken(): string {
    return CONSTITUENT_LINK_TOKEN_PREFIX + randomSecret();
  }

  newAccessToken(): string {
    return CONSTITUENT_ACCESS_TOKEN_PREFIX + randomSecret();
  }

  newRefreshToken(): string {
    return CONSTITUENT_REFRESH_TOKEN_PREFIX + randomSecret();
  }

  codeHash(verificationSimplyId: string, code: string): string {
    return createHmac('sha256', this.key).update(`code\0${verificationSimplyId}\0${code}`).digest('hex');
  }

  linkHash(token: string): string {
    return createHmac('sha256', this.key).update(`link\0${token}`).digest('hex');
  }

  /** Constant time over the whole stored hash, whatever the given value. */
  matches(stored: string | null, computed: string): boolean {
    return constantTimeEqual(stored ?? '0'.repeat(computed.length), computed) && stored !== null;
  }
}
