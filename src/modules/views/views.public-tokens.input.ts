// Shapes of the share tokens of a view (docs/api/data-views.md "Sharing"): the token types, the
// POST body of a public access token, and what each kind of token looks like. Shared by the
// service, the GraphQL face and the REST table (which validates the path and body with them).
import { z } from 'zod';

export const TOKEN_TYPES = ['EMBED', 'ICS_FEED'] as const;
export type TokenType = (typeof TOKEN_TYPES)[number];

/** What a token of each type is for (the documents name the embed's purpose DATAVIEW_EMBED). */
export const TOKEN_PURPOSES: Record<TokenType, string> = { EMBED: 'DATAVIEW_EMBED', ICS_FEED: 'DATAVIEW_ICS_FEED' };

/** Public access tokens: the prefix says the type, then 256 random bits (base64url). */
export const PUBLIC_TOKEN_PREFIXES: Record<TokenType, string> = { EMBED: 'svc_vem_', ICS_FEED: 'svc_vcf_' };
export const PUBLIC_TOKEN_PATTERN = /^svc_v(em|cf)_[A-Za-z0-9_-]{43}$/;

/** Internal tokens (views.internal-token.ts): the prefix, a base64url claim set, ".", its base64url HMAC. */
export const INTERNAL_TOKEN_PREFIX = 'svc_vit_';

/** The most origins one embed token may name; enough for a site and a few previews. */
export const MAX_ALLOWED_ORIGINS = 10;
const ORIGIN_INPUT_MAX = 200;

export const tokenTypeInput = z.enum(TOKEN_TYPES, { message: `must be ${TOKEN_TYPES.join(' or ')}` });

/**
 * An origin pages may be framed from: `https://host[:port]` and nothing else (no path, query,
 * fragment or credentials), as the browser compares it in `frame-ancestors`. Stored as the URL
 * parser writes it (lower-case host, default port dropped), so one origin is kept once.
 */
export const allowedOriginInput = z
  .string({ message: 'must be an https origin such as https://www.example.org' })
  .max(ORIGIN_INPUT_MAX, `must be at most ${ORIGIN_INPUT_MAX} characters`)
  .transform((value, ctx) => {
    let url: URL | null = null;
    try {
      url = new URL(value);
    } catch {
      url = null;
    }
    const bare = url !== null && url.username === '' && url.password === '' && (url.pathname === '/' || url.pathname === '') && url.search === '' && url.hash === '';
    // the written form must be the origin itself (a trailing "/" at most): no path was dropped
    if (!url || url.protocol !== 'https:' || !bare || !/^https:\/\/[^/?#]+\/?$/i.test(value) || url.hostname.includes('*')) {
      ctx.addIssue({ code: 'custom', message: 'must be an https origin such as https://www.example.org (no path, query or wildcard)' });
      return z.NEVER;
    }
    return url.origin;
  });

/** POST …/public-access-tokens/{tokenType}: optional; `allowedOrigins` only for EMBED (checked by the service). */
export const publicTokenInput = z
  .strictObject({
    allowedOrigins: z
      .array(allowedOriginInput, { message: 'must be an array of https origins' })
      .max(MAX_ALLOWED_ORIGINS, `at most ${MAX_ALLOWED_ORIGINS} origins`)
      .optional()
      .describe(`EMBED only: up to ${MAX_ALLOWED_ORIGINS} https origins that may frame the page; empty or absent: no site may frame it`),
  })
  .optional();

export type PublicTokenInput = NonNullable<z.output<typeof publicTokenInput>>;
