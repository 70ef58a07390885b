// Secrets the platform must read back (a webhook's signing secret, a user's TOTP secret: using them needs the secret itself,
// so it cannot be stored as a hash) are sealed with AES-256-GCM under one instance key: 32 random
// bytes in SECRETS_KEY_FILE (mode 0600), created on first start. Every instance that delivers
// webhooks must share the file. A box is bound to its row by the additional authenticated data, so
// a ciphertext copied onto another row does not open there.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { loadOrCreateSecretsKey, SECRETS_KEY_BYTES as KEY_BYTES } from './secrets-key.ts';

const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;

export class SecretBox {
  private readonly key: Buffer;

  constructor(key: Buffer) {
    if (key.length !== KEY_BYTES) throw new Error(`A secrets key is ${KEY_BYTES} bytes (got ${key.length})`);
    this.key = key;
  }

  /** version (1 byte) | iv (12) | tag (16) | ciphertext */
  seal(plaintext: string, context: string): Buffer {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return Buffer.concat([Buffer.from([VERSION]), iv, cipher.getAuthTag(), body]);
  }

  /** Throws when the box was sealed under another key or context, or was altered. */
  open(box: Uint8Array, context: string): string {
    const bytes = Buffer.from(box);
    if (bytes.length < 1 + IV_BYTES + TAG_BYTES || bytes[0] !== VERSION) throw new Error('Not a sealed secret');
    const iv = bytes.subarray(1, 1 + IV_BYTES);
    const tag = bytes.subarray(1 + IV_BYTES, 1 + IV_BYTES + TAG_BYTES);
    const decipher = createDecipheriv('aes-256-gcm', this.key, iv);
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(bytes.subarray(1 + IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  }
}

const boxes = new Map<string, SecretBox>();

/** One box per key file (instances in one process that share a data folder share the key). */
export function secretBoxFor(file: string): SecretBox {
  let box = boxes.get(file);
  if (!box) {
    box = new SecretBox(loadOrCreateSecretsKey(file));
    boxes.set(file, box);
  }
  return box;
}
