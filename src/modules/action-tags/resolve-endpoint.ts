// The public resolve path (docs/api/action-tags.md "Resolving"): GET|HEAD /a/{simplyActionTagSimplyId}
// ?source=QR|NFC|LINK. No credential. An ACTIVE URL tag (and a powered one) answers 302 to its
// destination, an ACTIVE LINK_PAGE tag its page; any other status a 404 (DRAFT) or 410 page with
// no redirect, logged as DISABLED. Nothing is written on the request: the scan joins this server's
// batch (scan-recorder.ts), holding a keyed hash of the truncated address and never the address.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { derivedSecretsKey } from '../../app/secrets-key.ts';
import type { Services } from '../../app/context.ts';
import type { HttpEndpoint } from '../../app/module.ts';
import { clientAddress } from '../../app/http/client-address.ts';
import { actionTagId } from './action-tags.ids.ts';
import { type RenderedPage, renderLinkPage, renderStatusPage } from './link-page.ts';
import { resolvableTag, type ResolvableTag } from './resolve-cache.ts';
import { abuseHasher, visitorKey } from './scan-privacy.ts';
import type { ResolveStatus, ScanRecorder } from './scan-recorder.ts';
import { classifyTraffic, interactionSourceOf, strippedReferrer } from './scan-traffic.ts';
import { PUBLIC_TAG_PREFIX } from './action-tags.service.ts';
import { actionTagHosts } from './action-tag-domains.hosts.ts';

declare module '../../app/context.ts' {
  interface Services {
    /** this server's batch of scans waiting to be written (scan-recorder.ts) */
    actionTagScans?: ScanRecorder;
  }
}

const statusPages = { 404: renderStatusPage(404), 410: renderStatusPage(410) };

function sendHtml(req: IncomingMessage, res: ServerResponse, status: number, { html, policy }: RenderedPage): void {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': html.length,
    'cache-control': 'no-store',
    'content-security-policy': policy,
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
  });
  res.end(req.method === 'HEAD' ? undefined : html);
}

export function resolveEndpoints(services: Services): HttpEndpoint[] {
  const key = derivedSecretsKey(services.config.secretsKeyFile, 'svc action-tag scans v1');
  const trustProxy = services.config.TRUST_PROXY;
  const abuseHashOf = abuseHasher(key);

  const record = (req: IncomingMessage, url: URL, tag: ResolvableTag, status: ResolveStatus, destination: string | null) => {
    const recorder = services.actionTagScans;
    if (!recorder) return;
    const address = clientAddress(req, trustProxy);
    const userAgent = req.headers['user-agent'];
    const now = new Date();
    const addressHash = abuseHashOf(address);
    const trafficClass = classifyTraffic(req.method ?? 'GET', userAgent);
    recorder.record({
      teamId: tag.teamId,
      tagId: tag.id,
      tagSimplyId: tag.simplyId,
      scannedAt: now,
      resolveStatus: status,
      resolvedDestination: destination,
      source: interactionSourceOf(url.searchParams.get('source')),
      trafficClass,
      counted: trafficClass === 'HUMAN' && status === 'RESOLVED' && recorder.firstInWindow(visitorKey(addressHash, userAgent, tag.id), now.getTime()),
      address,
      referrer: strippedReferrer(req.headers.referer),
      userAgent: userAgent?.slice(0, 512) ?? null,
      abuseHash: addressHash,
    });
  };

  /** `onlyTeam`: on a team's resolver domain, only that team's tags resolve */
  const resolve = async (req: IncomingMessage, res: ServerResponse, url: URL, onlyTeam?: bigint): Promise<void> => {
    const simplyId = url.pathname.startsWith(PUBLIC_TAG_PREFIX) ? url.pathname.slice(PUBLIC_TAG_PREFIX.length).replace(/\/+$/, '') : '';
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !actionTagId.is(simplyId)) return sendHtml(req, res, 404, statusPages[404]);
    const tag = await resolvableTag(services.pool, simplyId, Date.now());
    if (!tag || (onlyTeam !== undefined && tag.teamId !== onlyTeam)) return sendHtml(req, res, 404, statusPages[404]);
    if (tag.status !== 'ACTIVE') {
      record(req, url, tag, 'DISABLED', null);
      return sendHtml(req, res, tag.status === 'DRAFT' ? 404 : 410, statusPages[tag.status === 'DRAFT' ? 404 : 410]);
    }
    if (tag.actionType === 'LINK_PAGE' && tag.linkPageSettings) {
      record(req, url, tag, 'RESOLVED', 'LINK_PAGE');
      return sendHtml(req, res, 200, renderLinkPage(tag.linkPageSettings));
    }
    if (!tag.actionUrl) {
      record(req, url, tag, 'DISABLED', null);
      return sendHtml(req, res, 404, statusPages[404]);
    }
    record(req, url, tag, 'RESOLVED', tag.actionUrl);
    res.writeHead(302, { location: tag.actionUrl, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer', 'content-length': 0 });
    res.end();
  };

  const hosts = actionTagHosts(services);
  return [
    { prefix: PUBLIC_TAG_PREFIX, route: `${PUBLIC_TAG_PREFIX}{simplyActionTagSimplyId}`, handle: (req, res, url) => resolve(req, res, url) },
    // a team's verified resolver domain: every path there is the resolve path, for that team's tags
    {
      prefix: PUBLIC_TAG_PREFIX,
      route: `{resolver domain}${PUBLIC_TAG_PREFIX}{simplyActionTagSimplyId}`,
      servesHost: (host) => hosts.teamOfHost(host) !== undefined,
      handle: (req, res, url) => resolve(req, res, url, hosts.teamOfHost(req.headers.host)?.teamId ?? -1n),
    },
  ];
}
