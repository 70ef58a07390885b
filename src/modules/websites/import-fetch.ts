// How the platform reads a site it imports: public http(s) only, through the platform's guard for
// user-supplied targets (webhooks' target guard). Every hop of a redirect is resolved and checked
// again and the connection goes only to an address that passed (no DNS rebinding between check and
// connection); bodies, time and redirects are bounded; robots.txt is asked before a page is read.
import { undici } from '../../app/on-first-use.ts';
import { pinnedLookup, resolveTarget, TargetRefused, TargetUnresolved } from '../webhooks/index.ts';
import { ImportSourceUnavailableError, ImportTargetRefusedError } from './import-errors.ts';

export const IMPORT_LIMITS = {
  pageBytes: 2 * 1024 * 1024,
  sitemapBytes: 1024 * 1024,
  robotsBytes: 256 * 1024,
  imageBytes: 5 * 1024 * 1024,
  timeoutMs: 10_000,
  redirects: 5,
  urlLength: 2048,
} as const;

/** how the platform introduces itself to the sites it reads (and the robots.txt group it obeys) */
export const IMPORT_USER_AGENT = 'SvcSiteImport/1.0 (+website import)';
const ROBOTS_AGENT = 'svcsiteimport';

export interface FetchPolicy {
  /** tests only (WEBSITE_IMPORT_ALLOW_LOOPBACK): loopback addresses pass */
  allowLoopback: boolean;
}

export interface Fetched {
  url: URL;
  status: number;
  contentType: string;
  body: Buffer;
}

/** A fetch that did not give a usable answer; `kind` says why (the caller decides the status). */
export type FetchProblemKind = 'REFUSED' | 'UNREACHABLE' | 'HTTP_STATUS' | 'TOO_LARGE' | 'WRONG_TYPE' | 'ROBOTS';

export class FetchProblem extends Error {
  readonly kind: FetchProblemKind;
  readonly status: number | undefined;
  constructor(kind: FetchProblemKind, message: string, status?: number) {
    super(message);
    this.kind = kind;
    this.status = status;
  }
}

/** Parses a source URL as given by a caller: absolute http(s), a host, no credentials. */
export function parseSourceUrl(raw: string): URL {
  if (raw.length > IMPORT_LIMITS.urlLength) throw new ImportTargetRefusedError(`must be at most ${IMPORT_LIMITS.urlLength} characters`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ImportTargetRefusedError('must be an absolute http:// or https:// URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ImportTargetRefusedError('must use http:// or https://');
  if (url.username || url.password) throw new ImportTargetRefusedError('must not carry credentials (user:password@)');
  url.hash = '';
  return url;
}

async function boundedBody(body: AsyncIterable<Uint8Array> | null, maxBytes: number): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (!body) return Buffer.alloc(0);
  for await (const chunk of body) {
    size += chunk.length;
    if (size > maxBytes) throw new FetchProblem('TOO_LARGE', `the answer is larger than ${maxBytes} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** One guarded GET with bounded redirects, time and size; `accept` tells which content types pass. */
export async function guardedGet(start: URL, policy: FetchPolicy, options: { maxBytes: number; accept: (contentType: string) => boolean; signal?: AbortSignal }): Promise<Fetched> {
  let url = start;
  const deadline = AbortSignal.timeout(IMPORT_LIMITS.timeoutMs);
  const signal = options.signal ? AbortSignal.any([deadline, options.signal]) : deadline;
  for (let hop = 0; hop <= IMPORT_LIMITS.redirects; hop++) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new FetchProblem('REFUSED', `a redirect leads to ${url.protocol}, not http(s)`);
    let addresses;
    try {
      addresses = await resolveTarget(url, { allowLoopback: policy.allowLoopback });
    } catch (error) {
      if (error instanceof TargetUnresolved) throw new FetchProblem('UNREACHABLE', error.message);
      if (error instanceof TargetRefused) throw new FetchProblem('REFUSED', error.message);
      throw error;
    }
    const agent = new (undici().Agent)({ connect: { lookup: pinnedLookup(addresses) as never, timeout: IMPORT_LIMITS.timeoutMs } });
    try {
      const response = await undici().fetch(url, { dispatcher: agent, redirect: 'manual', signal, headers: { 'user-agent': IMPORT_USER_AGENT, accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.5' } });
      if (response.status >= 300 && response.status < 400 && response.headers.get('location')) {
        await response.body?.cancel().catch(() => undefined);
        url = new URL(response.headers.get('location')!, url);
        url.hash = '';
        continue;
      }
      if (response.status >= 400) {
        await response.body?.cancel().catch(() => undefined);
        throw new FetchProblem('HTTP_STATUS', `${url.href} answered ${response.status}`, response.status);
      }
      const contentType = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
      if (!options.accept(contentType)) {
        await response.body?.cancel().catch(() => undefined);
        throw new FetchProblem('WRONG_TYPE', `${url.href} is ${contentType || 'of no declared type'}`);
      }
      const declared = Number(response.headers.get('content-length') ?? '0');
      if (declared > options.maxBytes) {
        await response.body?.cancel().catch(() => undefined);
        throw new FetchProblem('TOO_LARGE', `${url.href} is larger than ${options.maxBytes} bytes`);
      }
      return { url, status: response.status, contentType, body: await boundedBody(response.body as AsyncIterable<Uint8Array> | null, options.maxBytes) };
    } catch (error) {
      if (error instanceof FetchProblem) throw error;
      const reason = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
      throw new FetchProblem('UNREACHABLE', `${url.href} could not be reached (${reason === 'TimeoutError' ? 'no answer in time' : reason})`);
    } finally {
      await agent.close().catch(() => undefined);
    }
  }
  throw new FetchProblem('UNREACHABLE', `more than ${IMPORT_LIMITS.redirects} redirects`);
}

export const isHtml = (contentType: string): boolean => contentType === 'text/html' || contentType === 'application/xhtml+xml';

/** The robots.txt rules that apply to the importer (its own group, else `*`): a path check. */
export type RobotsCheck = (path: string) => boolean;

export function parseRobots(text: string): RobotsCheck {
  const groups: { agents: string[]; rules: { allow: boolean; path: string }[] }[] = [];
  let current: (typeof groups)[number] | null = null;
  let lastWasAgent = false;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/#.*/, '').trim();
    const match = /^([a-z-]+)\s*:\s*(.*)$/i.exec(line);
    if (!match) continue;
    const field = match[1]!.toLowerCase();
    const value = match[2]!.trim();
    if (field === 'user-agent') {
      if (!current || !lastWasAgent) groups.push((current = { agents: [], rules: [] }));
      current.agents.push(value.toLowerCase());
      lastWasAgent = true;
      continue;
    }
    lastWasAgent = false;
    if (current && (field === 'allow' || field === 'disallow') && value !== '') current.rules.push({ allow: field === 'allow', path: value });
  }
  const group = groups.find((g) => g.agents.some((a) => a !== '*' && ROBOTS_AGENT.includes(a))) ?? groups.find((g) => g.agents.includes('*'));
  const rules = group?.rules ?? [];
  const matches = (pattern: string, path: string): boolean => {
    const anchored = pattern.endsWith('$');
    const source = (anchored ? pattern.slice(0, -1) : pattern).replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
    return new RegExp(`^${source}${anchored ? '$' : ''}`).test(path);
  };
  return (path) => {
    // the longest matching rule wins; Allow wins a tie
    let best: { allow: boolean; length: number } | null = null;
    for (const rule of rules) {
      if (!matches(rule.path, path)) continue;
      if (!best || rule.path.length > best.length || (rule.path.length === best.length && rule.allow)) best = { allow: rule.allow, length: rule.path.length };
    }
    return best?.allow ?? true;
  };
}

/** The site's robots.txt as a check; a site without one (or an unreadable one) allows everything. */
export async function robotsOf(origin: URL, policy: FetchPolicy): Promise<RobotsCheck> {
  try {
    const fetched = await guardedGet(new URL('/robots.txt', origin), policy, { maxBytes: IMPORT_LIMITS.robotsBytes, accept: (t) => t === 'text/plain' || t === '' });
    return parseRobots(fetched.body.toString('utf8'));
  } catch (error) {
    if (error instanceof FetchProblem && error.kind === 'REFUSED') throw error;
    return () => true;
  }
}

/** A fetch problem of the page a caller named, as the 4xx the route answers. */
export function sourceError(problem: FetchProblem): Error {
  if (problem.kind === 'REFUSED') return new ImportTargetRefusedError(problem.message);
  return new ImportSourceUnavailableError(problem.message, problem.kind);
}
