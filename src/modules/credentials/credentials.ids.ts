// Identifiers of the credentials area: API keys (`key-…`) and session tokens (`sess_<24>`, not a prefixed kind).
import { randomBytes } from 'node:crypto';
import { idKind, newSimplyId } from '../../app/ids.ts';

export const apiKeyId = idKind('key', 'API key');

/** Session tokens are named `sess_` + 24 letters and digits (their id, not their secret). */
export const SESSION_ID_PATTERN = /^sess_[A-Za-z0-9]{24}$/;

export function newSessionId(): string {
  const raw = randomBytes(24).toString('base64').replace(/[^A-Za-z0-9]/g, '');
  return `sess_${(raw + newSimplyId().replace(/-/g, '') + newSimplyId().replace(/-/g, '')).slice(0, 24)}`;
}
