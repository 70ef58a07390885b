// The authorization server: oidc-provider 9 configured for OAuth 2.1 over the platform's own
// state (oauth-storage.ts). Only what OAuth 2.1 keeps: the authorization code grant with PKCE
// S256 for every client (oidc-provider knows no other method), refresh tokens rotated on every use
// (a rotated one used again revokes its whole grant: oidc-provider's reuse detection), revocation
// (RFC 7009), dynamic registration of public clients (RFC 7591), resource indicators (RFC 8707)
// binding each token to `/v1` or `/mcp`, and the `iss` authorization response parameter
// (RFC 9207, always on). Access tokens are opaque: the platform looks them up (its credential cache
// keeps warm ones), so revoking one takes effect at once. Served by oauth-endpoints.ts.
import type Provider from 'oidc-provider';
import type { AdapterConstructor, CallbackContext, ClientMetadata, ClientView } from 'oidc-provider';
import { onFirstUse } from '../../app/on-first-use.ts';
import { OAUTH_SCOPES } from '../../app/auth/oauth-scopes.ts';
import { OAUTH_ACCESS_TOKEN_PREFIX, OAUTH_REFRESH_TOKEN_PREFIX } from '../../app/auth/tokens.ts';
import { escapeHtml } from '../../app/html-escape.ts';
import { OAUTH_CLIENT_ALLOWANCES } from './oauth-clients.service.ts';

/** oidc-provider (with Koa, about 5 MiB of heap), loaded when the instance first serves OAuth */
export const oidcProvider = onFirstUse<typeof import('oidc-provider')>('oidc-provider');
const oidcErrors = () => oidcProvider().errors;

/** The resources a token may be issued for, under the issuer: the REST API and the MCP endpoint. */
export const OAUTH_RESOURCES = ['/v1', '/mcp'] as const;

/** Where the server's endpoints live, under the platform's own origin. */
export const OAUTH_ROUTES = {
  authorization: '/oauth/authorize',
  token: '/oauth/token',
  registration: '/oauth/register',
  revocation: '/oauth/revoke',
  jwks: '/oauth/jwks',
} as const;

/** The sign-in and consent page of one authorization request (`/oauth/interaction/<uid>`). */
export const OAUTH_INTERACTION_PATH = '/oauth/interaction';

export const OAUTH_TTL_SECONDS = {
  AuthorizationCode: 60,
  AccessToken: 60 * 60,
  RefreshToken: 30 * 24 * 60 * 60,
  Grant: 30 * 24 * 60 * 60,
  Interaction: 10 * 60,
  Session: 24 * 60 * 60,
} as const;

export interface OAuthProviderOptions {
  /** the platform's base URL: the issuer, and the origin of every endpoint */
  issuer: string;
  storage: AdapterConstructor;
  /** signing keys (private JWKs); oidc-provider signs nothing the platform uses, but requires one */
  jwks: { keys: object[] };
  /** keys signing the provider's own cookies (the interaction and its session), newest first */
  cookieKeys: string[];
  /** the sign-in and consent page of an interaction */
  interactionPath: (uid: string) => string;
  /** behind a TLS-terminating proxy (TRUST_PROXY): read the scheme and host it forwards */
  proxy?: boolean;
  /** how client metadata documents (an https client_id) are fetched; absent: such clients are not accepted */
  fetchClientMetadata?: (url: string | URL, options: RequestInit) => Promise<Response>;
}

export function createOAuthProvider(options: OAuthProviderOptions): Provider {
  const resources = new Set(OAUTH_RESOURCES.map((path) => `${options.issuer}${path}`));
  const scope = OAUTH_SCOPES.join(' ');
  const provider = new (oidcProvider().default)(options.issuer, {
    adapter: options.storage,
    jwks: options.jwks,
    cookies: { keys: options.cookieKeys },
    routes: OAUTH_ROUTES,
    // 'openid' is oidc-provider's own; these are the platform's (Document 1 §5 rule 3)
    scopes: [...OAUTH_SCOPES],
    responseTypes: ['code'],
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      // the platform's signing key is Ed25519 (no ID tokens are asked for, but clients carry the alg)
      id_token_signed_response_alg: 'EdDSA',
    },
    pkce: { required: () => true },
    // every authorization request is decided anew on the consent page (or by a first-party app):
    // a grant made earlier in the same browser is not applied silently
    loadExistingGrant: async (ctx: GrantLookupContext) => {
      const grantId = ctx.oidc.result?.consent?.grantId;
      return grantId ? ctx.oidc.provider.Grant.find(grantId) : undefined;
    },
    ttl: OAUTH_TTL_SECONDS,
    // every use of a refresh token hands out a new one; the used one is consumed, so a second
    // use is reuse, and oidc-provider answers it by revoking the grant (invalid_grant)
    rotateRefreshToken: () => true,
    // a client allowed the refresh_token grant gets one with the code, without `offline_access`
    issueRefreshToken: async (_ctx: CallbackContext, client: ClientView) => client.grantTypeAllowed('refresh_token'),
    extraClientMetadata: {
      properties: ['first_party', 'allowances'],
      validator: (ctx: CallbackContext | undefined, key: string, value: unknown, metadata: Record<string, unknown>) => validateExtraMetadata(ctx, key, value, metadata),
    },
    // the account is the platform's user (its simplyId); the server asks for nothing but its id
    findAccount: async (_ctx: CallbackContext, sub: string) => ({ accountId: sub, claims: async () => ({ sub }) }),
    renderError: async (ctx: ErrorPageContext, out: Record<string, string>) => renderErrorPage(ctx, out),
    ...(options.fetchClientMetadata ? { fetch: options.fetchClientMetadata } : {}),
    interactions: { url: (_ctx: CallbackContext, interaction: { uid: string }) => options.interactionPath(interaction.uid) },
    features: {
      devInteractions: { enabled: false },
      // a client revokes only its own tokens; another's is answered 200 and left alone (RFC 7009 §2.1)
      revocation: { enabled: true, allowedPolicy: async (_ctx: CallbackContext, client: ClientView, token: { clientId?: string }) => token.clientId === client.clientId },
      registration: { enabled: true },
      // a client_id that is an https URL names its own metadata document, fetched through the
      // platform's guard for user-supplied targets; it may not claim the marks operators give
      clientIdMetadataDocument: {
        enabled: options.fetchClientMetadata !== undefined,
        ack: 'draft-02',
        allowClient: async (_ctx: CallbackContext, client: { first_party?: unknown; allowances?: unknown }) =>
          client.first_party === undefined && client.allowances === undefined,
      },
      resourceIndicators: {
        enabled: true,
        // a request naming no resource is for the REST API
        defaultResource: async () => `${options.issuer}/v1`,
        useGrantedResource: async () => true,
        getResourceServerInfo: async (_ctx: CallbackContext, resource: string) => {
          if (!resources.has(resource)) throw new (oidcErrors()).InvalidTarget(`unknown resource: ${resource}`);
          return { scope, audience: resource, accessTokenTTL: OAUTH_TTL_SECONDS.AccessToken, accessTokenFormat: 'opaque' };
        },
      },
    },
  });
  provider.proxy = options.proxy ?? false;
  // the platform's bearer values say what they are (tokens.ts): the authenticator routes an access
  // token by its prefix, and a leaked one is recognisable in logs and by secret scanners
  prefixTokenIds(provider.AccessToken, OAUTH_ACCESS_TOKEN_PREFIX);
  prefixTokenIds(provider.RefreshToken, OAUTH_REFRESH_TOKEN_PREFIX);
  return provider;
}

function prefixTokenIds(model: { prototype: object }, prefix: string): void {
  const proto = model.prototype as { generateTokenId(): string };
  const random = proto.generateTokenId;
  proto.generateTokenId = function generateTokenId(this: unknown) {
    return prefix + random.call(this);
  };
}

/**
 * first_party and allowances are set by operators (oauth-clients), never through dynamic
 * registration: a client registering itself cannot claim them, nor a secret (public clients only).
 */
function validateExtraMetadata(ctx: CallbackContext | undefined, key: string, value: unknown, metadata: Record<string, unknown>): void {
  const registering = ctx?.oidc?.route === 'registration';
  if (registering && key === 'first_party' && metadata.token_endpoint_auth_method !== 'none') {
    throw new (oidcErrors()).InvalidClientMetadata('only public clients (token_endpoint_auth_method "none") can register');
  }
  if (key === 'first_party') {
    if (value === undefined) return;
    if (registering) throw new (oidcErrors()).InvalidClientMetadata('first_party cannot be registered');
    if (typeof value !== 'boolean') throw new (oidcErrors()).InvalidClientMetadata('first_party must be a boolean');
  }
  if (key === 'allowances') {
    if (value === undefined) return;
    if (registering) throw new (oidcErrors()).InvalidClientMetadata('allowances cannot be registered');
    if (!Array.isArray(value) || !value.every((v) => (OAUTH_CLIENT_ALLOWANCES as readonly unknown[]).includes(v))) {
      throw new (oidcErrors()).InvalidClientMetadata(`allowances must be a list of ${OAUTH_CLIENT_ALLOWANCES.join(', ')}`);
    }
  }
}

/** What loadExistingGrant reads: the decision just made in this request's interaction, if any. */
interface GrantLookupContext {
  oidc: { result?: { consent?: { grantId?: string } }; provider: Provider };
}

interface ErrorPageContext {
  type: string;
  body: unknown;
  set(name: string, value: string): void;
}

/**
 * What a browser sees when the request cannot go back to the client (an unknown client or
 * redirect URI): the OAuth error in plain words, from this server alone (oidc-provider's own page
 * loads a web font from a CDN).
 */
function renderErrorPage(ctx: ErrorPageContext, out: Record<string, string>): void {
  ctx.type = 'html';
  ctx.set('content-security-policy', "default-src 'none'; frame-ancestors 'none'");
  const rows = Object.entries(out).map(([key, value]) => `<p><strong>${escapeHtml(key)}</strong>: ${escapeHtml(String(value))}</p>`);
  ctx.body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Authorization failed</title></head><body><h1>Authorization failed</h1>${rows.join('')}<p>Return to the application and try again.</p></body></html>`;
}

export type { ClientMetadata };
