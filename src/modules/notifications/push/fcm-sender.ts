// Android pushes through FCM's HTTP v1 API over HTTP/2: POST /v1/projects/<id>/messages:send with
// an OAuth2 access token of a service account (an RS256 JWT assertion exchanged at the account's
// token_uri, reused until a minute before it expires).
import fs from 'node:fs';
import { importPKCS8, SignJWT, type CryptoKey } from 'jose';
import { undici } from '../../../app/on-first-use.ts';
import { Http2Origin } from './http2-origin.ts';
import { fitMessage } from './push-message.ts';
import { describeError, transientStatus, type PushMessage, type PushResult, type PushSender } from './push-sender.ts';

/** FCM refuses a message over 4 KB; the envelope around the text takes some of it */
export const FCM_PAYLOAD_LIMIT = 4000;
const SCOPE = 'https://www.googleapis.com/auth/firebase.messaging';
const TIMEOUT_MS = 15_000;
const EARLY_REFRESH_MS = 60_000;

export interface FcmSettings {
  baseUrl: string;
  serviceAccountFile: string;
  projectId: string | undefined;
  ca: string | undefined;
}

interface ServiceAccount {
  client_email: string;
  private_key: string;
  private_key_id?: string;
  token_uri: string;
  project_id?: string;
}

function readServiceAccount(file: string): ServiceAccount {
  const account = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<ServiceAccount>;
  for (const field of ['client_email', 'private_key', 'token_uri'] as const) {
    if (typeof account[field] !== 'string' || !account[field]) throw new Error(`${file} has no ${field}`);
  }
  return account as ServiceAccount;
}

/** FCM data values must be strings; absent values are left out. */
function fcmBody(token: string, message: PushMessage): string {
  const data = Object.fromEntries(Object.entries(message.data).filter(([, v]) => v !== null)) as Record<string, string>;
  const notification: Record<string, string> = {};
  if (message.title) notification.title = message.title;
  if (message.body) notification.body = message.body;
  return JSON.stringify({ message: { token, notification, data, android: { priority: 'high', collapse_key: message.data.notificationSimplyId } } });
}

class TokenEndpointError extends Error {
  readonly transient: boolean;
  constructor(message: string, transient: boolean) {
    super(message);
    this.transient = transient;
  }
}

interface FcmError {
  error?: { code?: number; status?: string; message?: string; details?: { errorCode?: string; fieldViolations?: { field?: string }[] }[] };
}

export function createFcmSender(settings: FcmSettings): PushSender {
  const origin = new Http2Origin(new URL(settings.baseUrl).origin, settings.ca);
  const { Agent, request } = undici();
  const dispatcher = settings.ca ? new Agent({ connect: { ca: settings.ca } }) : undefined;
  let account: { value: ServiceAccount; key: Promise<CryptoKey> } | null = null;
  let access: { token: string; until: number } | null = null;
  let fetching: Promise<string> | null = null;

  async function fetchAccessToken(): Promise<string> {
    account ??= (() => {
      const value = readServiceAccount(settings.serviceAccountFile);
      return { value, key: importPKCS8(value.private_key, 'RS256') };
    })();
    const { value } = account;
    const now = Math.floor(Date.now() / 1000);
    const assertion = await new SignJWT({ scope: SCOPE })
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT', ...(value.private_key_id ? { kid: value.private_key_id } : {}) })
      .setIssuer(value.client_email)
      .setAudience(value.token_uri)
      .setIssuedAt(now)
      .setExpirationTime(now + 3600)
      .sign(await account.key);
    let answer;
    try {
      answer = await request(value.token_uri, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion }).toString(),
        dispatcher,
        headersTimeout: TIMEOUT_MS,
        bodyTimeout: TIMEOUT_MS,
      });
    } catch (error) {
      throw new TokenEndpointError(`FCM token endpoint: ${describeError(error)}`, true);
    }
    const text = await answer.body.text();
    if (answer.statusCode !== 200) throw new TokenEndpointError(`FCM token endpoint ${answer.statusCode} ${text.slice(0, 200)}`, transientStatus(answer.statusCode));
    const granted = JSON.parse(text) as { access_token?: string; expires_in?: number };
    if (!granted.access_token) throw new TokenEndpointError('FCM token endpoint answered without access_token', false);
    access = { token: granted.access_token, until: Date.now() + (granted.expires_in ?? 3600) * 1000 - EARLY_REFRESH_MS };
    return granted.access_token;
  }

  function accessToken(): Promise<string> {
    if (access && Date.now() < access.until) return Promise.resolve(access.token);
    // concurrent sends share one exchange
    fetching ??= fetchAccessToken().finally(() => (fetching = null));
    return fetching;
  }

  return {
    async send(token, message): Promise<PushResult> {
      let bearer: string;
      let projectId: string;
      try {
        bearer = await accessToken();
        projectId = settings.projectId ?? account?.value.project_id ?? '';
        if (!projectId) return { outcome: 'FAILED', detail: 'FCM: no project id (set FCM_PROJECT_ID or project_id in the service account file)' };
      } catch (error) {
        if (error instanceof TokenEndpointError) return { outcome: error.transient ? 'RETRY' : 'FAILED', detail: error.message };
        account = null;
        return { outcome: 'FAILED', detail: `FCM service account ${settings.serviceAccountFile} unusable: ${describeError(error)}` };
      }
      const body = fcmBody(token, fitMessage(message, FCM_PAYLOAD_LIMIT, (m) => fcmBody(token, m)));
      let answer;
      try {
        answer = await origin.request(
          { ':method': 'POST', ':path': `/v1/projects/${encodeURIComponent(projectId)}/messages:send`, authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
          body,
          TIMEOUT_MS,
        );
      } catch (error) {
        return { outcome: 'RETRY', detail: `FCM: ${describeError(error)}` };
      }
      if (answer.status === 200) return { outcome: 'SENT', detail: `FCM 200 ${answer.body.slice(0, 200)}` };
      let parsed: FcmError = {};
      try {
        parsed = JSON.parse(answer.body) as FcmError;
      } catch {
        // not JSON: the status decides
      }
      const status = parsed.error?.status ?? '';
      const codes = (parsed.error?.details ?? []).map((d) => d.errorCode).filter(Boolean);
      const onToken = (parsed.error?.details ?? []).some((d) => d.fieldViolations?.some((v) => v.field === 'message.token'));
      const detail = `FCM ${answer.status} ${[status, ...codes].filter(Boolean).join(' ')} ${parsed.error?.message ?? answer.body.slice(0, 200)}`.trim();
      if (codes.includes('UNREGISTERED') || (answer.status === 404 && status === 'NOT_FOUND')) return { outcome: 'TOKEN_GONE', detail };
      if (answer.status === 400 && status === 'INVALID_ARGUMENT' && onToken) return { outcome: 'TOKEN_GONE', detail };
      if (answer.status === 401) {
        // the access token was revoked or expired early: a new one on the next attempt
        access = null;
        return { outcome: 'RETRY', detail };
      }
      if (transientStatus(answer.status)) return { outcome: 'RETRY', detail };
      return { outcome: 'FAILED', detail };
    },
  };
}
