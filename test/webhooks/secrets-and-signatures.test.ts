// The receiver's signature helper (verify-signature.ts) and the secret box (secret-box.ts).
import { createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadOrCreateSecretsKey } from '../../src/app/secrets-key.ts';
import { SecretBox } from '../../src/app/secret-box.ts';
import { signWebhookBody, verifyWebhookSignature } from '../../src/modules/webhooks/verify-signature.ts';

describe('verifyWebhookSignature', () => {
  const secret = 'whsec_test-secret';
  const body = '{"eventType":"DATA_RECORD_CREATED","data":{"name":"Zoë"},"eventId":"abcdefghijklmn"}';
  const signature = createHmac('sha256', secret).update(body).digest('hex');

  it('signs with lowercase hex HMAC-SHA-256 of the raw body', () => {
    expect(signWebhookBody(body, secret)).toBe(signature);
    expect(signature).toMatch(/^[0-9a-f]{64}$/);
    expect(signWebhookBody(Buffer.from(body), secret)).toBe(signature);
  });

  it('accepts the right signature (string or bytes body; uppercase hex too)', () => {
    expect(verifyWebhookSignature(body, signature, secret)).toBe(true);
    expect(verifyWebhookSignature(Buffer.from(body, 'utf8'), signature, secret)).toBe(true);
    expect(verifyWebhookSignature(body, signature.toUpperCase(), secret)).toBe(true);
  });

  it('rejects another secret, an altered body, and malformed or missing headers without throwing', () => {
    expect(verifyWebhookSignature(body, signature, 'whsec_other')).toBe(false);
    expect(verifyWebhookSignature(body.replace('Zoë', 'Zoe'), signature, secret)).toBe(false);
    expect(verifyWebhookSignature(`${body} `, signature, secret)).toBe(false);
    for (const header of [undefined, null, '', 'sha256=' + signature, signature.slice(0, 63), signature + '00', 'z'.repeat(64)]) {
      expect(verifyWebhookSignature(body, header as string | undefined, secret)).toBe(false);
    }
  });
});

describe('secret box', () => {
  it('creates the key file once: 32 random bytes, mode 0600, reused on the next start', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-secrets-'));
    const file = path.join(dir, 'nested', 'secrets-key');
    const key = loadOrCreateSecretsKey(file);
    expect(key).toHaveLength(32);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(loadOrCreateSecretsKey(file).equals(key)).toBe(true);
    fs.writeFileSync(file, 'short');
    expect(() => loadOrCreateSecretsKey(file)).toThrow(/32 bytes/);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('opens only with the same key and context; the ciphertext does not contain the secret', () => {
    const box = new SecretBox(randomBytes(32));
    const sealed = box.seal('whsec_abc', 'webhook:1:whk-A');
    expect(sealed.includes(Buffer.from('whsec_abc'))).toBe(false);
    expect(box.open(sealed, 'webhook:1:whk-A')).toBe('whsec_abc');
    expect(box.seal('whsec_abc', 'webhook:1:whk-A').equals(sealed)).toBe(false); // fresh IV each time
    expect(() => box.open(sealed, 'webhook:1:whk-B')).toThrow();
    expect(() => new SecretBox(randomBytes(32)).open(sealed, 'webhook:1:whk-A')).toThrow();
    const tampered = Buffer.from(sealed);
    tampered[tampered.length - 1]! ^= 1;
    expect(() => box.open(tampered, 'webhook:1:whk-A')).toThrow();
  });
});
