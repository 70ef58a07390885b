// The application server's VAPID key pair (Web Push): from VAPID_PUBLIC_KEY/VAPID_PRIVATE_KEY, or
// created once and kept in VAPID_KEY_FILE (mode 0600, like the JWT signing key). Browsers bind
// each subscription to the public key they subscribed with, so every instance must use the same
// pair and it must not change: a new pair makes every existing web subscription useless.
import fs from 'node:fs';
import path from 'node:path';
import { webPush } from '../../../app/on-first-use.ts';
import type { Config } from '../../../app/config.ts';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

const KEY = /^[A-Za-z0-9_-]+$/;

function readKeys(file: string): VapidKeys {
  const keys = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<VapidKeys>;
  if (typeof keys.publicKey !== 'string' || typeof keys.privateKey !== 'string' || !KEY.test(keys.publicKey) || !KEY.test(keys.privateKey)) {
    throw new Error(`${file} must hold { "publicKey", "privateKey" } as base64url strings`);
  }
  return { publicKey: keys.publicKey, privateKey: keys.privateKey };
}

export function loadOrCreateVapidKeys(config: Pick<Config, 'VAPID_PUBLIC_KEY' | 'VAPID_PRIVATE_KEY' | 'vapidKeyFile'>): VapidKeys {
  if (config.VAPID_PUBLIC_KEY && config.VAPID_PRIVATE_KEY) return { publicKey: config.VAPID_PUBLIC_KEY, privateKey: config.VAPID_PRIVATE_KEY };
  const file = config.vapidKeyFile;
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const created = webPush().generateVAPIDKeys();
    // `wx`: if another process created it meanwhile, keep theirs
    try {
      fs.writeFileSync(file, JSON.stringify({ publicKey: created.publicKey, privateKey: created.privateKey }), { mode: 0o600, flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  return readKeys(file);
}
