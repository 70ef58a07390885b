// One access line per HTTP request, and its request metrics, when the response is done. The line
// names the route template (never the concrete path: ids stay out of logs and metric labels) and
// the kind of principal the credential turned out to be, never the credential itself.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { Principal } from '../auth/principal.ts';
import type { Metrics } from './metrics.ts';
import { routeOf } from './request-route.ts';

/**
 * The principal kind of each request of this process still in flight, by request id, once its
 * credential has been checked. Only requests started by observeRequest are kept (a subscription's
 * per-message checks are not), and each entry leaves with its response.
 */
const principalKinds = new Map<string, CredentialKind | null>();

/** A principal's kind, or the metrics token (which is no principal). */
type CredentialKind = Principal['kind'] | 'METRICS_TOKEN';

/** Called where a request's credential has been checked (create-context.ts, metrics-endpoint.ts). */
export function noteCredentialKind(requestId: string, kind: CredentialKind): void {
  if (principalKinds.has(requestId)) principalKinds.set(requestId, kind);
}

/**
 * `anonymous`: no credential; `unverified`: a credential was sent but not accepted (401, refused
 * before the check, or a path that does not check one); otherwise the principal's kind (or
 * `metrics_token`), lower case.
 */
function credentialKind(req: IncomingMessage, kind: CredentialKind | null | undefined): string {
  if (kind) return kind.toLowerCase();
  return req.headers.authorization?.trim() ? 'unverified' : 'anonymous';
}

export interface ObservedRequest {
  req: IncomingMessage;
  res: ServerResponse;
  requestId: string;
  metrics: Metrics;
  logger: Logger;
}

export function observeRequest({ req, res, requestId, metrics, logger }: ObservedRequest): void {
  const started = process.hrtime.bigint();
  const method = req.method ?? 'GET';
  principalKinds.set(requestId, null);
  let done = false;
  const end = (finished: boolean) => {
    if (done) return;
    done = true;
    const kind = principalKinds.get(requestId);
    principalKinds.delete(requestId);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const template = routeOf(res);
    const status = res.statusCode;
    if (finished) metrics.requests.record(method, template, status, seconds);
    if (!logger.isLevelEnabled('info')) return;
    const length = Number(res.getHeader('content-length'));
    logger.info(
      {
        requestId,
        method,
        route: template,
        status,
        durationMs: Math.round(seconds * 10_000) / 10,
        credentialKind: credentialKind(req, kind),
        ...(Number.isFinite(length) ? { bytes: length } : {}),
        // the client went away (or the connection was cut) before the response was complete
        ...(finished ? {} : { aborted: true }),
      },
      'request',
    );
  };
  res.once('finish', () => end(true));
  res.once('close', () => end(false));
}
