// The caller's address, for IP allowlists and anonymous rate limits. Behind a trusted proxy
// (TRUST_PROXY) exactly one hop is trusted: the address that proxy appended last.
// A keep-alive connection carries many requests: the socket's address, and the last forwarded
// header seen on it, are normalized once per connection rather than once per request.
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { normalizeAddress } from '../auth/ip-allowlist.ts';

const bySocket = new WeakMap<Socket, { forwarded: string | undefined; address: string }>();
/** Connections come again and again from a few addresses (a proxy, a load balancer): each is parsed once. */
const normalized = new Map<string, string>();
const NORMALIZED_MAX = 10_000;

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
  return normalizedOnce(last || (req.socket.remoteAddress ?? ''));
}

function normalizedOnce(address: string): string {
  let known = normalized.get(address);
  if (known === undefined) {
    if (normalized.size >= NORMALIZED_MAX) normalized.clear();
    known = normalizeAddress(address);
    normalized.set(address, known);
  }
  return known;
}
