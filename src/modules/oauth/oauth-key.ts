// The row key of a stored oidc-provider object. Opaque tokens, codes and session cookies are the
// object's id itself, so the table keeps only a digest: someone reading it (a backup, a replica)
// learns no value they could present. The ids are long random strings, so an unsalted SHA-256
// cannot be reversed by guessing, and lookups stay one indexed equality.
import { hash } from 'node:crypto';

export function oauthStateKey(id: string): string {
  return hash('sha256', id, 'base64url');
}
