// The instance's push senders (services.push), made on first use: Web Push always works (the
// VAPID pair is configured or created), APNs and FCM only when configured. A platform without a
// sender has its deliveries SKIPPED with the reason, logged once per instance, never retried.
import fs from 'node:fs';
import type { Config } from '../../../app/config.ts';
import type { Services } from '../../../app/context.ts';
import type { Platform } from '../../users/index.ts';
import { createApnsSender } from './apns-sender.ts';
import { createFcmSender } from './fcm-sender.ts';
import type { PushSender } from './push-sender.ts';
import { loadOrCreateVapidKeys, type VapidKeys } from './vapid-keys.ts';
import { createWebPushSender } from './web-push-sender.ts';

export interface PushService {
  /** the VAPID public key browsers subscribe with (applicationServerKey), base64url */
  webPushPublicKey(): string;
  /** the platform's sender, or why there is none */
  sender(platform: string): { sender: PushSender } | { skipped: string };
}

const APNS_SETTINGS = ['APNS_KEY_FILE', 'APNS_KEY_ID', 'APNS_TEAM_ID', 'APNS_TOPIC'] as const;

function missing(config: Config, names: readonly (keyof Config)[]): string[] {
  return names.filter((name) => !config[name]);
}

export function createPushService(services: Pick<Services, 'config' | 'logger'>): PushService {
  const { config, logger } = services;
  let vapid: VapidKeys | null = null;
  let ca: string | undefined | null = null;
  const senders = new Map<Platform, { sender: PushSender } | { skipped: string }>();
  const vapidKeys = () => (vapid ??= loadOrCreateVapidKeys(config));
  const extraCa = () => (ca === null ? (ca = config.PUSH_CA_FILE ? fs.readFileSync(config.PUSH_CA_FILE, 'utf8') : undefined) : ca);

  function make(platform: Platform): { sender: PushSender } | { skipped: string } {
    if (platform === 'web') {
      return { sender: createWebPushSender({ vapid: vapidKeys, subject: config.VAPID_SUBJECT, allowLoopback: config.PUSH_ALLOW_LOOPBACK, ca: extraCa() }) };
    }
    if (platform === 'ios') {
      const absent = missing(config, APNS_SETTINGS);
      if (absent.length) return { skipped: `APNs is not configured (${absent.join(', ')} unset)` };
      return {
        sender: createApnsSender({
          baseUrl: config.APNS_BASE_URL,
          keyFile: config.APNS_KEY_FILE!,
          keyId: config.APNS_KEY_ID!,
          teamId: config.APNS_TEAM_ID!,
          topic: config.APNS_TOPIC!,
          ca: extraCa(),
        }),
      };
    }
    if (!config.FCM_SERVICE_ACCOUNT_FILE) return { skipped: 'FCM is not configured (FCM_SERVICE_ACCOUNT_FILE unset)' };
    return { sender: createFcmSender({ baseUrl: config.FCM_BASE_URL, serviceAccountFile: config.FCM_SERVICE_ACCOUNT_FILE, projectId: config.FCM_PROJECT_ID, ca: extraCa() }) };
  }

  return {
    webPushPublicKey: () => vapidKeys().publicKey,
    sender(platform) {
      if (platform !== 'web' && platform !== 'ios' && platform !== 'android') return { skipped: `no push provider for platform ${platform}` };
      let found = senders.get(platform);
      if (!found) {
        found = make(platform);
        senders.set(platform, found);
        if ('skipped' in found) logger.info({ platform }, `push to ${platform} devices is skipped: ${found.skipped}`);
      }
      return found;
    },
  };
}
