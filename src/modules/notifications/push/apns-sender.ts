// iOS pushes through APNs' HTTP/2 API: POST /3/device/<token> with token-based provider
// authentication (an ES256 JWT from the .p8 key, reused for 50 minutes as Apple asks: a token
// newer than 20 minutes, or older than an hour, is refused).
import fs from 'node:fs';
import { importPKCS8, SignJWT, type CryptoKey } from 'jose';
import { Http2Origin } from './http2-origin.ts';
import { fitMessage } from './push-message.ts';
import { describeError, transientStatus, type PushMessage, type PushResult, type PushSender } from './push-sender.ts';

/** APNs refuses a payload over 4 KB */
export const APNS_PAYLOAD_LIMIT = 4096;
const JWT_REUSE_MS = 50 * 60 * 1000;
const TIMEOUT_MS = 15_000;
/** a day: an alert that could not reach the device by then is stale */
const EXPIRATION_SECONDS = 24 * 3600;
const GONE_REASONS = new Set(['BadDeviceToken', 'Unregistered']);
const STALE_JWT_REASONS = new Set(['ExpiredProviderToken', 'InvalidProviderToken']);

export interface ApnsSettings {
  baseUrl: string;
  keyFile: string;
  keyId: string;
  teamId: string;
  topic: string;
  ca: string | undefined;
}

export function apnsPayload(message: PushMessage): string {
  const alert: Record<string, string> = {};
  if (message.title) alert.title = message.title;
  if (message.body) alert.body = message.body;
  return JSON.stringify({
    aps: { alert, sound: 'default', 'thread-id': message.data.teamSimplyId },
    ...message.data,
  });
}

export function createApnsSender(settings: ApnsSettings): PushSender {
  const origin = new Http2Origin(new URL(settings.baseUrl).origin, settings.ca);
  let key: Promise<CryptoKey> | null = null;
  let jwt: { value: string; at: number } | null = null;

  async function providerToken(): Promise<string> {
    if (jwt && Date.now() - jwt.at < JWT_REUSE_MS) return jwt.value;
    key ??= importPKCS8(fs.readFileSync(settings.keyFile, 'utf8'), 'ES256');
    const at = Date.now();
    const value = await new SignJWT({})
      .setProtectedHeader({ alg: 'ES256', kid: settings.keyId })
      .setIssuer(settings.teamId)
      .setIssuedAt(Math.floor(at / 1000))
      .sign(await key);
    jwt = { value, at };
    return value;
  }

  return {
    async send(token, message): Promise<PushResult> {
      let bearer: string;
      try {
        bearer = await providerToken();
      } catch (error) {
        key = null;
        return { outcome: 'FAILED', detail: `APNs key ${settings.keyFile} unusable: ${describeError(error)}` };
      }
      const payload = apnsPayload(fitMessage(message, APNS_PAYLOAD_LIMIT, apnsPayload));
      let answer;
      try {
        answer = await origin.request(
          {
            ':method': 'POST',
            ':path': `/3/device/${token}`,
            authorization: `bearer ${bearer}`,
            'apns-topic': settings.topic,
            'apns-push-type': 'alert',
            'apns-priority': '10',
            'apns-expiration': String(Math.floor(Date.now() / 1000) + EXPIRATION_SECONDS),
            'apns-collapse-id': message.data.notificationSimplyId,
            'content-type': 'application/json',
          },
          payload,
          TIMEOUT_MS,
        );
      } catch (error) {
        return { outcome: 'RETRY', detail: `APNs: ${describeError(error)}` };
      }
      if (answer.status === 200) return { outcome: 'SENT', detail: `APNs 200 apns-id ${answer.headers['apns-id'] ?? ''}`.trim() };
      let reason = '';
      try {
        reason = String((JSON.parse(answer.body) as { reason?: unknown }).reason ?? '');
      } catch {
        reason = answer.body.slice(0, 200);
      }
      const detail = `APNs ${answer.status}${reason ? ` ${reason}` : ''}`;
      if (answer.status === 410 || (answer.status === 400 && GONE_REASONS.has(reason))) return { outcome: 'TOKEN_GONE', detail };
      if (answer.status === 403 && STALE_JWT_REASONS.has(reason)) {
        // a fresh provider token on the next attempt
        jwt = null;
        return { outcome: 'RETRY', detail };
      }
      if (transientStatus(answer.status)) return { outcome: 'RETRY', detail };
      return { outcome: 'FAILED', detail };
    },
  };
}
