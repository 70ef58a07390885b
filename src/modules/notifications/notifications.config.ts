// Push delivery: Web Push (VAPID), APNs, FCM, and retries. README.md "Configuration" explains each setting.
import path from 'node:path';
import { z } from 'zod';
import { ConfigError, defineConfigSlice, envBool } from '../../app/config.ts';

const settings = z.object({
  // push (docs/api/notifications.md "Push delivery"). Web Push: the VAPID key pair (base64url, as
  // web-push generates it); unset: one is created on first use in VAPID_KEY_FILE. Every instance
  // must use the same pair: browsers' subscriptions are bound to its public key
  VAPID_PUBLIC_KEY: z.string().regex(/^[A-Za-z0-9_-]{87}$/, 'a base64url P-256 public key (87 characters)').optional(),
  VAPID_PRIVATE_KEY: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'a base64url P-256 private key (43 characters)').optional(),
  VAPID_KEY_FILE: z.string().optional(),
  // who runs the application server (push services contact it about problems): mailto: or https:
  VAPID_SUBJECT: z.string().regex(/^(mailto:|https:\/\/)\S+$/, 'a mailto: or https: URL').default('mailto:push@svc.invalid'),
  // tests only: Web Push endpoints may be loopback addresses (private, link-local and reserved stay refused)
  PUSH_ALLOW_LOOPBACK: envBool.default(false),
  // PEM certificate(s) push requests (Web Push, APNs, FCM and its token endpoint) trust besides the system roots
  PUSH_CA_FILE: z.string().optional(),
  // APNs (ios): token-based provider authentication; all four of key file, key id, team id and topic, or ios pushes are SKIPPED
  APNS_BASE_URL: z.string().url().default('https://api.push.apple.com'),
  APNS_KEY_FILE: z.string().optional(),
  APNS_KEY_ID: z.string().min(1).optional(),
  APNS_TEAM_ID: z.string().min(1).optional(),
  // the app's bundle id
  APNS_TOPIC: z.string().min(1).optional(),
  // FCM HTTP v1 (android): a service account's JSON key file; unset: android pushes are SKIPPED
  FCM_BASE_URL: z.string().url().default('https://fcm.googleapis.com'),
  FCM_SERVICE_ACCOUNT_FILE: z.string().optional(),
  // default: the service account's project_id
  FCM_PROJECT_ID: z.string().min(1).optional(),
  // sends to one push token: attempts in all, and the first retry's delay (doubling, at most 5 minutes; 0: retry at once)
  PUSH_SEND_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(6),
  PUSH_RETRY_DELAY_SECONDS: z.coerce.number().int().min(0).max(300).default(2),
});

declare module '../../app/config.ts' {
  interface Env extends z.infer<typeof settings> {}
  interface Config {
    /** VAPID_KEY_FILE, or <data folder>/vapid-keys.json */
    vapidKeyFile: string;
  }
}

export const notificationsConfig = defineConfigSlice({
  settings,
  resolve: (env, dataDir) => {
  if (Boolean(env.VAPID_PUBLIC_KEY) !== Boolean(env.VAPID_PRIVATE_KEY)) throw new ConfigError('VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY must be set together');
  return { vapidKeyFile: path.resolve(env.VAPID_KEY_FILE ?? path.join(dataDir, 'vapid-keys.json')) };
  },
});
