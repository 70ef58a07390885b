// Where a webhook may point (Document 1 §4.8): a public HTTPS URL. Only globally routable unicast
// addresses pass (ipaddr.js range "unicast"; IPv6 also inside 2000::/3); loopback, private, CGNAT,
// link-local, multicast, unspecified, broadcast, documentation, benchmarking and every other
// reserved range are refused, IPv4-mapped IPv6 is judged as the IPv4 address it carries, and a
// hostname is judged by every address it resolves to. At delivery the name is resolved again and
// the connection goes to an address that passed (see pinnedLookup), so a DNS answer that changes
// between the check and the connection (rebinding) cannot redirect it.
import dns from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';

export const MAX_TARGET_URL_LENGTH = 2048;

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export type Lookup = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemLookup: Lookup = async (hostname) => {
  const found = await dns.promises.lookup(hostname, { all: true, verbatim: true });
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

/** A target that cannot be used; `message` is shown to the caller (creation) or logged (delivery). */
export class TargetRefused extends Error {}

/** The host has no address right now (unknown name, no records, DNS unreachable or too slow). */
export class TargetUnresolved extends TargetRefused {}

export interface TargetPolicy {
  /** tests: loopback addresses pass (nothing else changes) */
  allowLoopback: boolean;
  lookup?: Lookup;
}

const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/** null when the address may be a webhook target; otherwise the name of its range. */
export function refusedRange(address: string, allowLoopback: boolean): string | null {
  let ip: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    ip = ipaddr.parse(address);
  } catch {
    return 'invalid';
  }
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = (ip as ipaddr.IPv6).toIPv4Address();
  const range = ip.range();
  if (range === 'loopback' && allowLoopback) return null;
  if (range !== 'unicast') return range;
  if (ip.kind() === 'ipv6' && !(ip as ipaddr.IPv6).match(GLOBAL_UNICAST_V6 as [ipaddr.IPv6, number])) return 'reserved';
  return null;
}

/** Parses and checks the URL's shape (no DNS): https, a host, no credentials, no fragment. */
export function parseTargetUrl(raw: string): URL {
  if (raw.length > MAX_TARGET_URL_LENGTH) throw new TargetRefused(`must be at most ${MAX_TARGET_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TargetRefused('must be an absolute https:// URL');
  }
  if (url.protocol !== 'https:') throw new TargetRefused('must use https:// (plain http and other schemes are refused)');
  if (!url.hostname) throw new TargetRefused('must name a host');
  if (url.username || url.password) throw new TargetRefused('must not carry credentials (user:password@); authenticate deliveries with the signature');
  if (url.hash) throw new TargetRefused('must not have a #fragment');
  return url;
}

/** The URL's host without IPv6 brackets. */
function bareHost(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

/**
 * Resolves the URL's host and checks every address. Returns the addresses to connect to; throws
 * TargetRefused naming the first refused address and its range, or the resolution failure.
 */
export async function resolveTarget(url: URL, policy: TargetPolicy): Promise<ResolvedAddress[]> {
  const host = bareHost(url);
  let addresses: ResolvedAddress[];
  const family = net.isIP(host);
  if (family !== 0) addresses = [{ address: host, family: family as 4 | 6 }];
  else {
    try {
      addresses = await (policy.lookup ?? systemLookup)(host);
    } catch (error) {
      throw new TargetUnresolved(`host ${host} could not be resolved (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
    }
    if (addresses.length === 0) throw new TargetUnresolved(`host ${host} did not resolve to any address`);
  }
  for (const a of addresses) {
    const range = refusedRange(a.address, policy.allowLoopback);
    if (range) {
      const what = family !== 0 ? `address ${a.address}` : `host ${host} resolves to ${a.address}, which`;
      throw new TargetRefused(`${what} is not a public address (${range})`);
    }
  }
  return addresses;
}

// Names that are never public (RFC 6761, 6762, 8375 and common private suffixes): refused at
// creation whatever DNS says today. localhost passes only where loopback targets are allowed (tests).
const PRIVATE_NAME_SUFFIXES = ['local', 'internal', 'home.arpa', 'invalid', 'test', 'example', 'onion', 'intranet', 'lan', 'corp'];
const LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/;

function checkHostName(host: string, allowLoopback: boolean): void {
  const isLocalhost = host === 'localhost' || host.endsWith('.localhost');
  if (isLocalhost && allowLoopback) return;
  if (isLocalhost) throw new TargetRefused(`host ${host} is a loopback name`);
  const labels = host.replace(/\.$/, '').split('.');
  if (labels.length < 2) throw new TargetRefused(`host ${host} must be a fully qualified public name (a single label resolves through local search domains)`);
  if (host.length > 253 || !labels.every((label) => LABEL.test(label))) throw new TargetRefused(`host ${host} is not a valid host name`);
  const suffix = PRIVATE_NAME_SUFFIXES.find((s) => host === s || host.endsWith(`.${s}`) || host.endsWith(`.${s}.`));
  if (suffix) throw new TargetRefused(`host ${host} is under .${suffix}, a name that is never public`);
}

/** How long creation waits for DNS before taking the host as not resolving yet. */
export const CREATION_LOOKUP_TIMEOUT_MS = 3000;

/**
 * The check when a subscription is created or re-pointed: refuses what is provably not a public
 * target (a literal non-public address, a name that is never public, a name that resolves to a
 * non-public address), and accepts a well-formed public name that does not resolve (yet) with the
 * warning returned, so a receiver can be set up before its DNS exists or while DNS is briefly
 * down. Delivery resolves and checks again every time, and connects only to addresses that pass.
 */
export async function checkTargetAtCreation(url: URL, policy: TargetPolicy & { timeoutMs?: number }): Promise<string | null> {
  const host = bareHost(url);
  if (net.isIP(host) === 0) checkHostName(host, policy.allowLoopback);
  const lookup = policy.lookup ?? systemLookup;
  const timeoutMs = policy.timeoutMs ?? CREATION_LOOKUP_TIMEOUT_MS;
  const bounded: Lookup = (name) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(Object.assign(new Error('timed out'), { code: 'ETIMEOUT' })), timeoutMs);
      lookup(name).then(resolve, reject).finally(() => clearTimeout(timer));
    });
  try {
    await resolveTarget(url, { ...policy, lookup: bounded });
    return null;
  } catch (error) {
    if (!(error instanceof TargetUnresolved)) throw error;
    return `targetUrl: ${error.message}; the subscription is kept, and each delivery resolves the host again (deliveries fail and are retried until it resolves to a public address)`;
  }
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | ResolvedAddress[], family?: number) => void;

/**
 * A `lookup` for net/tls.connect that answers with addresses already checked, so the socket can
 * only go where the check said it may (the TLS name stays the URL's host).
 */
export function pinnedLookup(addresses: readonly ResolvedAddress[]) {
  return (_hostname: string, options: { all?: boolean; family?: number | string }, callback: LookupCallback): void => {
    const wanted = options?.family === 4 || options?.family === 'IPv4' ? 4 : options?.family === 6 || options?.family === 'IPv6' ? 6 : 0;
    const usable = wanted === 0 ? addresses : addresses.filter((a) => a.family === wanted);
    if (usable.length === 0) {
      const error: NodeJS.ErrnoException = new Error('no checked address of the requested family');
      error.code = 'ENOTFOUND';
      return callback(error, []);
    }
    if (options?.all) return callback(null, usable.map((a) => ({ ...a })));
    callback(null, usable[0]!.address, usable[0]!.family);
  };
}
