// Browser pushes (RFC 8030) through the `web-push` package: VAPID-signed (RFC 8292), payload
// encrypted with aes128gcm (RFC 8291) for the subscription's keys. The endpoint was given by a
// client, so it gets the webhooks' outbound check: https only, resolved and judged by every
// address (loopback, private, link-local and reserved ranges refused; loopback passes only with
// PUSH_ALLOW_LOOPBACK, for tests), and the connection is pinned to the addresses that passed.
import https from 'node:https';
import tls from 'node:tls';
import { webPush } from '../../../app/on-first-use.ts';
import { parseTargetUrl, pinnedLookup, resolveTarget, TargetRefused, TargetUnresolved } from '../../webhooks/index.ts';
import { fitMessage } from './push-message.ts';
import { describeError, transientStatus, type PushMessage, type PushResult, type PushSender } from './push-sender.ts';
import { parseWebSubscription } from './push-tokens.ts';
import type { VapidKeys } from './vapid-keys.ts';

/** the encrypted record is at most 4096 bytes; aes128gcm takes 86 of header, 16 of tag and 1 of padding */
export const WEB_PUSH_PAYLOAD_LIMIT = 3993;
const TIMEOUT_MS = 15_000;
/** a day: push services drop a message they could not deliver by then */
const TTL_SECONDS = 24 * 3600;

export interface WebPushSettings {
  vapid: () => VapidKeys;
  subject: string;
  allowLoopback: boolean;
  ca: string | undefined;
}

/** What the service worker receives (event.data.json()). */
export function webPushPayload(message: PushMessage): string {
  return JSON.stringify({ title: message.title, body: message.body, data: message.data });
}

export function createWebPushSender(settings: WebPushSettings): PushSender {
  return {
    async send(token, message): Promise<PushResult> {
      let agent: https.Agent | undefined;
      try {
        const subscription = parseWebSubscription(token);
        const url = parseTargetUrl(subscription.endpoint);
        const addresses = await resolveTarget(url, { allowLoopback: settings.allowLoopback });
        agent = new https.Agent({
          keepAlive: false,
          lookup: pinnedLookup(addresses) as never,
          ca: settings.ca ? [...tls.rootCertificates, settings.ca] : undefined,
        });
        const vapid = settings.vapid();
        const payload = webPushPayload(fitMessage(message, WEB_PUSH_PAYLOAD_LIMIT, webPushPayload));
        const answer = await webPush().sendNotification(subscription, payload, {
          vapidDetails: { subject: settings.subject, publicKey: vapid.publicKey, privateKey: vapid.privateKey },
          contentEncoding: 'aes128gcm',
          TTL: TTL_SECONDS,
          urgency: 'normal',
          // a message not yet delivered is replaced by its own retry, never shown twice
          topic: message.data.notificationSimplyId.replace(/[^A-Za-z0-9_-]/g, '').slice(0, 32),
          timeout: TIMEOUT_MS,
          agent,
        });
        return { outcome: 'SENT', detail: `Web Push ${answer.statusCode}` };
      } catch (error) {
        if (error instanceof TargetUnresolved) return { outcome: 'RETRY', detail: `Web Push endpoint: ${error.message}` };
        if (error instanceof TargetRefused) return { outcome: 'FAILED', detail: `Web Push endpoint refused: ${error.message}` };
        if (error instanceof webPush().WebPushError) {
          const detail = `Web Push ${error.statusCode} ${String(error.body ?? '').slice(0, 200)}`.trim();
          if (error.statusCode === 404 || error.statusCode === 410) return { outcome: 'TOKEN_GONE', detail };
          if (transientStatus(error.statusCode)) return { outcome: 'RETRY', detail };
          return { outcome: 'FAILED', detail };
        }
        // the connection failed or timed out
        return { outcome: 'RETRY', detail: `Web Push: ${describeError(error)}` };
      } finally {
        agent?.destroy();
      }
    },
  };
}
