// The public URLs of shared views, served by the front door (module.ts httpEndpoints) without a
// credential: the token in the path is the authorization (views.public-links.ts).
//   GET|HEAD /view-embeds/<token>?page=&pageSize=   the view's read-only page (EMBED or internal token)
//   GET|HEAD /view-feeds/<token>.ics                the view's calendar feed (ICS_FEED token)
// A token that does not open the view now (malformed, unknown, revoked, expired, of another type,
// or a view that is not served) is the same 404 as a path that never existed.
import { once } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Services } from '../../app/context.ts';
import { type ErrorDetail, ValidationError } from '../../app/errors.ts';
import { sendError } from '../../app/http/envelope.ts';
import { sendHtmlPage } from '../../app/http/link-page.ts';
import type { HttpEndpoint } from '../../app/module.ts';
import { toDisplayText } from '../../kernel/index.ts';
import { EMBED_MAX_OFFSET, EMBED_MAX_PAGE_SIZE, EMBED_PAGE_SIZE, embedRows } from './views.embed-rows.ts';
import { embedPolicy, renderEmbedPage } from './views.embed-page.ts';
import { etagMatches, feedText, feedVersion, WrittenFeed } from './views.ics-feed.ts';
import { INTERNAL_TOKEN_PREFIX } from './views.public-tokens.input.ts';
import { EMBED_PATH, FEED_PATH, FEED_SUFFIX, feedHost } from './views.public-links.ts';
import { internalShare, loadSharedView, publicShare } from './views.shared-view.ts';

/** Calendar clients revalidate on every poll (a 304 is cheap), so a revoked feed stops at once. */
const FEED_CACHE_CONTROL = 'private, no-cache';

function notFound(res: ServerResponse, requestId: string, what: string): void {
  sendError(res, requestId, { status: 404, code: 'NOT_FOUND', message: `No such ${what}` });
}

function methodNotAllowed(res: ServerResponse, requestId: string): void {
  sendError(res, requestId, { status: 405, code: 'METHOD_NOT_ALLOWED', message: 'Allowed methods: GET, HEAD', headers: { Allow: 'GET, HEAD' } });
}

/** The path's one segment after `prefix` (no further "/"), or null. */
function segmentAfter(url: URL, prefix: string): string | null {
  const rest = url.pathname.slice(prefix.length);
  return rest !== '' && !rest.includes('/') ? rest : null;
}

/** `page` (1-…) and `pageSize` (1-100, default 25) of the embed's query; other parameters are ignored (sites add their own). */
function pagingOf(url: URL): { page: number; pageSize: number } {
  const details: ErrorDetail[] = [];
  const read = (name: string, fallback: number, max: number): number => {
    const raw = url.searchParams.get(name);
    if (raw === null) return fallback;
    if (!/^[1-9]\d{0,5}$/.test(raw) || Number(raw) > max) {
      details.push({ field: name, message: `must be a whole number from 1 to ${max}` });
      return fallback;
    }
    return Number(raw);
  };
  const pageSize = read('pageSize', EMBED_PAGE_SIZE, EMBED_MAX_PAGE_SIZE);
  const page = read('page', 1, Math.floor(EMBED_MAX_OFFSET / pageSize) + 1);
  if (details.length > 0) throw new ValidationError('Invalid page of a shared view', details);
  return { page, pageSize };
}

async function serveEmbed(services: Services, req: IncomingMessage, res: ServerResponse, url: URL, requestId: string): Promise<void> {
  const token = segmentAfter(url, EMBED_PATH);
  if (token === null) return notFound(res, requestId, 'shared view');
  const { page, pageSize } = pagingOf(url);
  const share = token.startsWith(INTERNAL_TOKEN_PREFIX) ? await internalShare(services, token) : await publicShare(services, 'EMBED', token);
  const shared = share && (await loadSharedView(services, share));
  if (!share || !shared) return notFound(res, requestId, 'shared view');
  const { rows, total, sortShortened } = await embedRows(services.pool, shared, { limit: pageSize, offset: (page - 1) * pageSize });
  const html = renderEmbedPage(
    {
      title: shared.title,
      columns: shared.columns.map((c) => c.label),
      rows: rows.map((r) => shared.columns.map((c) => toDisplayText(c.field, r.values[c.field.dataFieldSimplyId]))),
      page,
      pageSize,
      total,
      sortShortened,
    },
    EMBED_PAGE_SIZE,
  );
  sendHtmlPage(req, res, 200, html, embedPolicy(share.frameAncestors));
}

/** Writes `chunk`, waiting while the socket's buffer is full; false once the client has gone. */
async function send(res: ServerResponse, chunk: string): Promise<boolean> {
  if (res.destroyed) return false;
  if (res.write(chunk)) return true;
  await Promise.race([once(res, 'drain'), once(res, 'close')]);
  return !res.destroyed;
}

function acceptsGzip(req: IncomingMessage): boolean {
  return /\bgzip\b/i.test(String(req.headers['accept-encoding'] ?? ''));
}

async function serveFeed(services: Services, req: IncomingMessage, res: ServerResponse, url: URL, requestId: string): Promise<void> {
  const segment = segmentAfter(url, FEED_PATH);
  const token = segment?.endsWith(FEED_SUFFIX) ? segment.slice(0, -FEED_SUFFIX.length) : segment;
  const share = token ? await publicShare(services, 'ICS_FEED', token) : null;
  const shared = share && (await loadSharedView(services, share));
  if (!share || !shared) return notFound(res, requestId, 'calendar feed');
  const host = feedHost(services);
  const version = await feedVersion(services.pool, shared, host);
  const { etag } = version;
  const headers = { etag, 'cache-control': FEED_CACHE_CONTROL, vary: 'Accept-Encoding', 'referrer-policy': 'no-referrer', 'x-content-type-options': 'nosniff' };
  if (etagMatches(req.headers['if-none-match'], etag)) {
    res.writeHead(304, headers);
    return void res.end();
  }
  const content = { ...headers, 'content-type': 'text/calendar; charset=utf-8', 'content-disposition': 'inline; filename="calendar.ics"' };
  const key = String(share.tokenId);
  const kept = services.viewFeeds.body(key, etag);
  if (kept) {
    const packed = acceptsGzip(req) ? await services.viewFeeds.gzip(key, etag) : null;
    const body = packed ?? kept;
    res.writeHead(200, { ...content, 'content-length': body.length, ...(packed ? { 'content-encoding': 'gzip' } : {}) });
    return void res.end(req.method === 'HEAD' ? undefined : body);
  }
  res.writeHead(200, content);
  if (req.method === 'HEAD') return void res.end();
  try {
    const written: string[] = [];
    const events = new WrittenFeed();
    for await (const chunk of feedText(services.pool, shared, host, services.viewFeeds.written(key, version.layout), events)) {
      written.push(chunk);
      if (!(await send(res, chunk))) return;
    }
    res.end();
    services.viewFeeds.keep(key, version, Buffer.from(written.join('')), events);
  } catch (error) {
    // the status is sent: a broken feed must not look complete, so the connection is cut
    services.logger.error({ err: error, requestId }, 'calendar feed failed while streaming');
    res.destroy(error as Error);
  }
}

export function viewShareEndpoints(services: Services): HttpEndpoint[] {
  const endpoint = (prefix: string, route: string, serve: typeof serveEmbed): HttpEndpoint => ({
    prefix,
    route,
    handle: async (req, res, url, requestId) => {
      if (req.method !== 'GET' && req.method !== 'HEAD') return methodNotAllowed(res, requestId);
      await serve(services, req, res, url, requestId);
    },
  });
  return [endpoint(EMBED_PATH, `${EMBED_PATH}{token}`, serveEmbed), endpoint(FEED_PATH, `${FEED_PATH}{token}.ics`, serveFeed)];
}
