// The caller's address, for IP allowlists and anonymous rate limits. Behind a trusted proxy
// (TRUST_PROXY) exactly one hop is trusted: the address that proxy appended last.
import type { IncomingMessage } from 'node:http';
import { normalizeAddress } from '../auth/ip-allowlist.ts';

export function clientAddress(req: IncomingMessage, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = req.headers['x-forwarded-for'];
    const value = Array.isArray(forwarded) ? forwarded.join(',') : forwarded;
    const last = value?.split(',').map((s) => s.trim()).filter(Boolean).pop();
    if (last) return normalizeAddress(last);
  }
  return normalizeAddress(req.socket.remoteAddress ?? '');
}
