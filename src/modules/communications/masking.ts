// Reusable credentials never reach a stored snapshot: whoever can read the protected history must
// not be able to sign in as the constituent, unsubscribe them or download a file with what it
// shows. Senders name their secrets (a code, a link); links that carry a credential are also
// recognised by shape, so a secret a sender forgot to name is masked all the same. Masking errs on
// the side of masking: a harmless value that looks like a credential is masked too.
export const MASK = '[masked]';

/** Query (or fragment) parameters whose value is a credential: exact names, and names containing a credential word. */
const EXACT_PARAMS = 'code|otp|pin|sig|key|auth|hash|t|k|u';
const WORD_PARAMS = 'token|secret|signature|password|passwd|passcode|credential|apikey|api_key|session|nonce|ticket|jwt|verif|magic|unsubscribe|invite|reset|login';
// `&amp;` and `&#38;`: the same link inside an HTML body
const SECRET_PARAMS = new RegExp(
  `((?:[?&#]|&amp;|&#0*38;)(?:${EXACT_PARAMS}|[\\w.-]*(?:${WORD_PARAMS})[\\w.-]*)=)[^&#\\s"'<>]+`,
  'gi',
);
/** Path segments after these words are credentials (one-click unsubscribe, magic links, password resets, signed downloads). */
const SECRET_PATHS = /(\/(?:unsubscribe|unsub|u|verify|verification|confirm|activate|invite|invitation|magic|magic-link|login|auth|reset|reset-password|password-reset|sign|signed|sign-in|signin|download|download-token|token|t|s|l|r)\/)[A-Za-z0-9._~%+=-]{16,}/gi;
/** A URL: its host, then its path (whose random-looking segments are masked). */
const URL = /(\bhttps?:\/\/[^\s/"'<>?#]+)([^\s"'<>]*)/gi;
const SEGMENT = /\/([A-Za-z0-9_~%+=.-]{24,})/g;

/** A long segment that is a random token rather than a word or a slug: digits with mixed-case letters, or long hex. */
function looksRandom(segment: string): boolean {
  return /\d/.test(segment) && ((/[a-z]/.test(segment) && /[A-Z]/.test(segment)) || /^[0-9a-f]{32,}$/i.test(segment));
}
/** A password in a URL's user information (`https://user:password@host`). */
const URL_PASSWORD = /(\bhttps?:\/\/[^\s:@/"'<>]+:)[^\s@/"'<>]+(@)/gi;
/** A JSON Web Token anywhere (header.payload.signature, the header starting `{"`). */
const JWT = /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/g;
/** The platform's own bearer secrets (API keys, session tokens, challenge tokens). */
const PLATFORM_SECRET = /\bsvc_[a-z]+_[A-Za-z0-9_-]{20,}/g;

export interface Masked {
  text: string;
  /** whether anything was masked (the row is then classified SENSITIVE) */
  masked: boolean;
}

/** The forms a named secret takes in text, a URL and an HTML body. */
function secretForms(secret: string): string[] {
  const html = (s: string) => s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;').replaceAll("'", '&#39;');
  const encoded = encodeURIComponent(secret);
  const forms = new Set([secret, html(secret), secret.replaceAll('&', '&#38;'), encoded, html(encoded)]);
  // longest first, so that a form containing another is masked whole
  return [...forms].sort((a, b) => b.length - a.length);
}

export function maskCredentials(text: string, secrets: readonly string[] = []): Masked {
  let out = text;
  for (const secret of secrets) {
    // shorter "secrets" would mask ordinary words and numbers everywhere
    if (secret.length < 4) continue;
    for (const form of secretForms(secret)) out = out.split(form).join(MASK);
  }
  out = out
    .replace(URL_PASSWORD, `$1${MASK}$2`)
    .replace(SECRET_PARAMS, `$1${MASK}`)
    .replace(SECRET_PATHS, `$1${MASK}`)
    .replace(URL, (_url, host: string, rest: string) => host + rest.replace(SEGMENT, (segment, value: string) => (looksRandom(value) ? `/${MASK}` : segment)))
    .replace(JWT, MASK)
    .replace(PLATFORM_SECRET, MASK);
  return { text: out, masked: out !== text };
}
