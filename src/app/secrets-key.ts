// The instance's secrets key: 32 random bytes in SECRETS_KEY_FILE (mode 0600), created on first
// start. Webhook signing secrets are sealed under it (webhooks/secret-box.ts) and the local file
// storage signs its upload and download URLs with a key derived from it (files/storage). Every
// instance must share the file.
import { hkdfSync, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export const SECRETS_KEY_BYTES = 32;
const KEY_BYTES = SECRETS_KEY_BYTES;

/** Reads the key file, creating it (0600, 32 random bytes) when missing. */
export function loadOrCreateSecretsKey(file: string): Buffer {
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    // `wx`: if another process created it meanwhile, keep theirs
    try {
      fs.writeFileSync(file, randomBytes(KEY_BYTES), { mode: 0o600, flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  const key = fs.readFileSync(file);
  if (key.length !== KEY_BYTES) throw new Error(`${file} must hold exactly ${KEY_BYTES} bytes (got ${key.length})`);
  return key;
}

const derived = new Map<string, Buffer>();

/** A key for one purpose (`info` names it), derived from the instance's secrets key: every instance sharing the file derives the same. */
export function derivedSecretsKey(file: string, info: string): Buffer {
  const id = `${file}\0${info}`;
  let key = derived.get(id);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', loadOrCreateSecretsKey(file), Buffer.alloc(0), info, 32));
    derived.set(id, key);
  }
  return key;
}
