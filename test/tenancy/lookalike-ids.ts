// Another team's id must be answered exactly like an id that exists nowhere. The "nowhere" id is
// made from the real one by redrawing its random characters, so both pass the same shape checks and
// differ only in whether the row exists.
import { randomInt } from 'node:crypto';

const SIMPLY_ID_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** the id shapes of the API: fixed parts kept, the random part between them redrawn from its alphabet */
const SHAPES: { pattern: RegExp; alphabet: string }[] = [
  // a suppressed address of the route world: suppressed-<8 hex>@example.org
  { pattern: /^(suppressed-)([0-9a-f]{8})(@example\.org)$/, alphabet: '0123456789abcdef' },
  // XXXX-XXXX-XXXX, bare (records, collections) or behind a prefix (role-, fld-, wiz-, …)
  { pattern: /^((?:[a-z]+-)?)([2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4})$/, alphabet: SIMPLY_ID_ALPHABET },
  // session tokens
  { pattern: /^(sess_)([A-Za-z0-9]{24})$/, alphabet: BASE62 },
  // single-use nonces: 32 random bytes, base64url (the assistant's builder prefills)
  { pattern: /^()([A-Za-z0-9_-]{43})$/, alphabet: `${BASE62}_-` },
];

/** An id of the same kind as `id` (same prefix, same groups) that no team holds. */
export function lookalikeId(id: string): string {
  for (const { pattern, alphabet } of SHAPES) {
    const match = pattern.exec(id);
    if (!match) continue;
    const [, fixed, random, suffix = ''] = match;
    for (;;) {
      const other = `${fixed}${random!.replace(/[^-]/g, () => alphabet[randomInt(alphabet.length)]!)}${suffix}`;
      if (other !== id) return other;
    }
  }
  throw new Error(`lookalikeId: no known id shape for ${JSON.stringify(id)}; add it to test/tenancy/lookalike-ids.ts`);
}
