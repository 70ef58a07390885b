// Reusable credentials never reach a stored snapshot: whoever can read the protected history must
// not be able to sign in as the constituent, unsubscribe them or download a file with what it
// shows. Senders name their secrets (a code, a link); links that carry a credential are also
// recognised by shape, so a secret a sender forgot to name is masked all the same.
export const MASK = '[masked]';

/** Query parameters whose value is a bearer credential. */
const SECRET_PARAMS = /([?&](?:token|code|otp|signature|sig|key|secret|auth|access_token|refresh_token|x-amz-signature|x-amz-credential|x-amz-security-token|expires)=)[^&#\s"'<>]+/gi;
/** Path segments after these words are credentials (one-click unsubscribe, magic links, signed downloads). */
const SECRET_PATHS = /(\/(?:unsubscribe|u|verify|magic|reset|sign|signed|download-token|t)\/)[A-Za-z0-9._~%+=-]{16,}/gi;

export interface Masked {
  text: string;
  /** whether anything was masked (the row is then classified SENSITIVE) */
  masked: boolean;
}

export function maskCredentials(text: string, secrets: readonly string[] = []): Masked {
  let out = text;
  for (const secret of secrets) {
    if (secret.length >= 4) out = out.split(secret).join(MASK);
    // an HTML body holds the secret with its ampersands escaped
    const escaped = secret.replaceAll('&', '&amp;');
    if (escaped !== secret) out = out.split(escaped).join(MASK);
  }
  out = out.replace(SECRET_PARAMS, `$1${MASK}`).replace(SECRET_PATHS, `$1${MASK}`);
  return { text: out, masked: out !== text };
}
