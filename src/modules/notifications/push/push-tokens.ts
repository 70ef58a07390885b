// What a push token is, per platform, and how it is recognised again. ios: an APNs device token
// (hex). android: an FCM registration token. web: a Web Push subscription as the browser's
// PushSubscription.toJSON() gives it, { endpoint, keys: { p256dh, auth } } (expirationTime may
// come along and is ignored). A subscription is identified by its endpoint, so a browser that
// re-subscribes with new keys refreshes the same token.
import { createECDH } from 'node:crypto';
import { hashToken } from '../../../app/auth/tokens.ts';
import { z } from 'zod';
import type { Platform } from '../../users/index.ts';

export const MAX_TOKEN_LENGTH = 4096;
export const MAX_ENDPOINT_LENGTH = 2048;

export interface WebSubscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

const base64url = z.string().regex(/^[A-Za-z0-9_-]+={0,2}$/, 'must be base64url');

function decodedLength(value: string): number {
  return Buffer.from(value.replace(/=+$/, ''), 'base64url').length;
}

const subscriptionSchema = z.object({
  endpoint: z.string().min(1).max(MAX_ENDPOINT_LENGTH).refine((v) => {
    try {
      return new URL(v).protocol === 'https:';
    } catch {
      return false;
    }
  }, 'must be an absolute https:// URL'),
  keys: z.strictObject({
    p256dh: base64url.refine((v) => {
      const point = Buffer.from(v.replace(/=+$/, ''), 'base64url');
      if (point.length !== 65 || point[0] !== 4) return false;
      try {
        // a point off the curve would fail every encryption: refuse it now
        const probe = createECDH('prime256v1');
        probe.generateKeys();
        probe.computeSecret(point);
        return true;
      } catch {
        return false;
      }
    }, 'must be an uncompressed P-256 public key (65 bytes, base64url)'),
    auth: base64url.refine((v) => decodedLength(v) === 16, 'must be 16 bytes (base64url)'),
  }),
  expirationTime: z.number().nullable().optional(),
}).strict();

/** APNs device tokens are hex (32 bytes today; Apple says not to assume the length). */
const APNS_TOKEN = /^[0-9a-fA-F]{32,200}$/;
/** FCM registration tokens: base64url letters plus ':' (about 160 characters today). */
const FCM_TOKEN = /^[A-Za-z0-9_:.-]{20,4096}$/;

export type TokenProblem = { field: string; message: string };

/**
 * The token as stored (web: the subscription re-serialized without extras; ios: lower-case hex),
 * or the problems found, each naming the field (`token`, `token.endpoint`, `token.keys.p256dh`…).
 */
export function normalizeToken(platform: Platform, raw: string): { token: string } | { problems: TokenProblem[] } {
  const token = raw.trim();
  if (platform === 'ios') {
    return APNS_TOKEN.test(token) ? { token: token.toLowerCase() } : { problems: [{ field: 'token', message: 'an APNs device token: 32-200 hexadecimal characters' }] };
  }
  if (platform === 'android') {
    return FCM_TOKEN.test(token) ? { token } : { problems: [{ field: 'token', message: 'an FCM registration token: 20-4096 characters of A-Z a-z 0-9 _ - : .' }] };
  }
  let json: unknown;
  try {
    json = JSON.parse(token);
  } catch {
    return { problems: [{ field: 'token', message: 'a Web Push subscription as JSON: { "endpoint": "https://…", "keys": { "p256dh": "…", "auth": "…" } }' }] };
  }
  const parsed = subscriptionSchema.safeParse(json);
  if (!parsed.success) {
    return {
      problems: parsed.error.issues.map((issue) => ({
        field: ['token', ...(issue.code === 'unrecognized_keys' ? [...issue.path, ...issue.keys] : issue.path)].map(String).join('.'),
        message: issue.code === 'unrecognized_keys' ? 'is not a known field' : issue.message,
      })),
    };
  }
  const { endpoint, keys } = parsed.data;
  const subscription: WebSubscription = { endpoint, keys: { p256dh: keys.p256dh.replace(/=+$/, ''), auth: keys.auth.replace(/=+$/, '') } };
  return { token: JSON.stringify(subscription) };
}

/** The stored web token back as a subscription. */
export function parseWebSubscription(stored: string): WebSubscription {
  return JSON.parse(stored) as WebSubscription;
}

/**
 * The lookup key of a token as a caller gives it, whatever the platform: a subscription (or its
 * bare endpoint URL) is known by its endpoint, an APNs token case-insensitively, an FCM token as is.
 */
export function tokenHash(raw: string): string {
  let key = raw.trim();
  if (key.startsWith('{')) {
    try {
      const endpoint = (JSON.parse(key) as { endpoint?: unknown }).endpoint;
      if (typeof endpoint === 'string') key = endpoint;
    } catch {
      // not JSON after all: hashed as given (and so not found)
    }
  } else if (APNS_TOKEN.test(key)) key = key.toLowerCase();
  return hashToken(key);
}
