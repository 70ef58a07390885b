// The SHA-256 of a request's Authorization header, made once per request: the rate limiter keys a
// caller's budget by it and the credential cache its checked credentials, so neither holds the
// credential itself, and a request pays for one hash, not two.
import { hash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

// kept on the request itself: a WeakMap entry per request cost more than the hash
const DIGEST = Symbol('svc.authorization-digest');

/** The digest of `req`'s Authorization header (base64url), or undefined when it has none. */
export function authorizationDigest(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  if (!header) return undefined;
  const held = req as IncomingMessage & { [DIGEST]?: string };
  return (held[DIGEST] ??= hash('sha256', header, 'base64url'));
}
