// What of a scanner's address the platform keeps: nothing raw. The address is truncated (IPv4 to
// its /24, IPv6 to its /48) and hashed with a key only the servers hold (HMAC-SHA256, derived from
// the secrets key), for abuse checks and for counting one visitor's QR, NFC and link projections
// once. The hash is cleared after 30 days (action-tag-retention.ts).
import { createHmac, hash } from 'node:crypto';
import { isIP } from 'node:net';

export function truncatedAddress(address: string): string {
  const family = isIP(address);
  if (family === 4) return address.split('.').slice(0, 3).join('.') + '.0/24';
  if (family === 6) {
    const full = expandIpv6(address);
    return full.slice(0, 3).join(':') + '::/48';
  }
  return 'unknown';
}

function expandIpv6(address: string): string[] {
  const [head, tail] = address.split('::') as [string, string | undefined];
  const a = head ? head.split(':') : [];
  const b = tail ? tail.split(':') : [];
  const fill = tail === undefined ? [] : Array(8 - a.length - b.length).fill('0');
  return [...a, ...fill, ...b];
}

export function abuseHash(key: Buffer, address: string): string {
  return createHmac('sha256', key).update(truncatedAddress(address)).digest('base64url').slice(0, 32);
}

/**
 * abuseHash for a stream of scans: a burst from one address (a crowd behind one network, a
 * client's kept-open connection) is hashed once. What it remembers is forgotten `lifetimeMs` after
 * the first of it, by a timer: no longer than the scans themselves wait in memory for their batch.
 */
export function abuseHasher(key: Buffer, lifetimeMs = 1000): (address: string) => string {
  let known: Map<string, string> | null = null;
  return (address) => {
    if (!known || known.size >= 10_000) {
      const fresh = new Map<string, string>();
      known = fresh;
      setTimeout(() => {
        if (known === fresh) known = null;
      }, lifetimeMs).unref();
    }
    let hashed = known.get(address);
    if (hashed === undefined) {
      hashed = abuseHash(key, address);
      known.set(address, hashed);
    }
    return hashed;
  };
}

/**
 * One visitor of one tag (truncated address and user agent), whatever the projection: keyed
 * through the address's abuse hash, so it cannot be recomputed without the servers' key.
 */
export function visitorKey(addressHash: string, userAgent: string | undefined, tagId: bigint): string {
  return hash('sha256', `${addressHash}\0${userAgent ?? ''}\0${tagId}`, 'base64url').slice(0, 22);
}
