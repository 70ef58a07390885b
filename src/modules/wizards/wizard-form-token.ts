// The token of one rendering of an external form (a hidden input). The link's secret in the URL is
// what authorizes a submission; there is no cookie or other ambient credential a cross-site page
// could ride on, so classic CSRF has nothing to forge. The form token adds what the URL cannot:
// - a submission comes from a form this server rendered for this link, recently (FORM_TOKEN_TTL_MS);
// - each rendering has a nonce, the key of the run it submits (a keyed effect, src/app/effects.ts):
//   the same form sent twice (a double click, a reload of the answer page) runs the wizard and
//   counts a use once, and the second answer is the first run's.
// It is `<issued ms>.<nonce>.<HMAC-SHA-256 over link, time and nonce>`, under a key derived from the
// instance's secrets key, so every instance checks what another rendered. Stateless: nothing is
// stored until a submission runs.
import { createHmac } from 'node:crypto';
import { constantTimeEqual } from '../../app/auth/tokens.ts';
import { randomSecret } from '../../app/ids.ts';
import { derivedSecretsKey } from '../../app/secrets-key.ts';

/** a form left open this long is rendered again (with what was entered) instead of submitted */
export const FORM_TOKEN_TTL_MS = 12 * 60 * 60 * 1000;
const NONCE_BYTES = 16;
const TOKEN_PATTERN = /^(\d{1,15})\.([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;

export interface FormTokens {
  mint(linkSimplyId: string, now?: number): string;
  /** the nonce of a valid, fresh token of this link, or null */
  verify(linkSimplyId: string, token: unknown, now?: number): string | null;
}

export function formTokensFor(secretsKeyFile: string): FormTokens {
  const key = derivedSecretsKey(secretsKeyFile, 'svc wizard external form tokens v1');
  const mac = (linkSimplyId: string, issued: string, nonce: string) => createHmac('sha256', key).update(`${linkSimplyId}\n${issued}\n${nonce}`).digest('base64url');
  return {
    mint(linkSimplyId, now = Date.now()) {
      const issued = String(now);
      const nonce = randomSecret(NONCE_BYTES);
      return `${issued}.${nonce}.${mac(linkSimplyId, issued, nonce)}`;
    },
    verify(linkSimplyId, token, now = Date.now()) {
      if (typeof token !== 'string') return null;
      const match = TOKEN_PATTERN.exec(token);
      if (!match) return null;
      const [, issued, nonce, given] = match;
      if (!constantTimeEqual(given!, mac(linkSimplyId, issued!, nonce!))) return null;
      const age = now - Number(issued);
      // a minute of clock difference between instances is tolerated
      return age >= -60_000 && age <= FORM_TOKEN_TTL_MS ? nonce! : null;
    },
  };
}
