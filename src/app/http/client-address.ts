// The caller's address, for IP allowlists and anonymous rate limits. Behind a trusted proxy
// (TRUST_PROXY) exactly one hop is trusted: the address that proxy appended last.
// A keep-alive connection carries many requests: the socket's address, and the last forwarded
// header seen on it, are normalized once per connection rather than once per request.
import type { IncomingMessage } from 'node:http';
import { isIPv4, type Socket } from 'node:net';
import { normalizeAddress } from '../auth/ip-allowlist.ts';

const bySocket = new WeakMap<Socket, { forwarded: string | undefined; address: string }>();

export function clientAddress(req: IncomingMessage, trustProxy: boolean): string {
  const header = req.headers['x-forwarded-for'];
  const forwarded = trustProxy ? (Array.isArray(header) ? header.join(',') : header) : undefined;
  const known = bySocket.get(req.socket);
  if (known && known.forwarded === forwarded) return known.address;
  const address = resolve(req, forwarded);
  bySocket.set(req.socket, { forwarded, address });
  return address;
}

function resolve(req: IncomingMessage, forwarded: string | undefined): string {
  const last = forwarded?.split(',').map((s) => s.trim()).filter(Boolean).pop();
  return normalized(last || (req.socket.remoteAddress ?? ''));
}

/**
 * A canonical dotted quad (what Node reports for an IPv4 peer, and what net.isIPv4 accepts: no
 * leading zeros) is already its normal form; only other spellings are parsed. No address is kept
 * beyond its connection (action tags promise scanners' addresses leave memory within a second).
 */
function normalized(address: string): string {
  return isIPv4(address) ? address : normalizeAddress(address);
}
