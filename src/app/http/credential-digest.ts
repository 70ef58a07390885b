// The SHA-256 of a request's Authorization header, made once per request: the rate limiter keys a
// caller's budget by it and the credential cache its checked credentials, so neither holds the
// credential itself, and a request pays for one hash, not two.
import { hash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const digests = new WeakMap<IncomingMessage, string>();

/** The digest of `req`'s Authorization header (base64url), or undefined when it has none. */
export function authorizationDigest(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  if (!header) return undefined;
  let digest = digests.get(req);
  if (digest === undefined) digests.set(req, (digest = hash('sha256', header, 'base64url')));
  return digest;
}
