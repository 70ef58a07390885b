// The authorization server on the platform's own port: oidc-provider's endpoints under /oauth/,
// its metadata at /.well-known/oauth-authorization-server (RFC 8414), dynamic registration limited
// per client address, and the two ways a user decides: the hosted sign-in and consent page
// (oauth-interaction.ts) and a first-party consent screen posting to the authorization endpoint with
// the user's token (oauth-consent.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Services } from '../../app/context.ts';
import { toPublicError } from '../../app/error-mapping.ts';
import { clientAddress } from '../../app/http/client-address.ts';
import { sendError } from '../../app/http/envelope.ts';
import { RateLimiter } from '../../app/http/rate-limiter.ts';
import type { HttpEndpoint } from '../../app/module.ts';
import { decideAuthorization } from './oauth-consent.ts';
import { consentingUser, formParams, sendOAuthError } from './oauth-http.ts';
import { serveInteraction } from './oauth-interaction.ts';
import { OAUTH_ROUTES } from './oauth-provider.ts';
import { oauthServerOf } from './oauth-server.ts';

export const OAUTH_METADATA_PATH = '/.well-known/oauth-authorization-server';

export function oauthEndpoints(services: Services): HttpEndpoint[] {
  const { config } = services;
  const registrations = new RateLimiter(config.OAUTH_REGISTRATIONS_PER_HOUR / 60, config.OAUTH_REGISTRATIONS_PER_HOUR);
  // each authorization request stores a sign-in interaction: as many per address as anonymous API calls
  const browsers = new RateLimiter(config.RATE_LIMIT_ANONYMOUS_PER_MINUTE);
  let callback: ((req: IncomingMessage, res: ServerResponse) => unknown) | null = null;

  const handle = async (req: IncomingMessage, res: ServerResponse, url: URL, requestId: string): Promise<void> => {
    const provider = oauthServerOf(services);
    if (!provider) return sendOAuthError(res, { status: 503, error: 'temporarily_unavailable', description: 'the authorization server is starting' });
    if (url.pathname === OAUTH_ROUTES.authorization && req.method === 'POST' && req.headers.authorization) {
      return firstPartyConsent(services, req, res, url, requestId);
    }
    if (url.pathname === OAUTH_ROUTES.authorization || url.pathname.startsWith(`${OAUTH_ROUTES.authorization}/`)) {
      const wait = browsers.take(clientAddress(req, config.TRUST_PROXY));
      if (wait > 0) return sendOAuthError(res, { status: 429, error: 'temporarily_unavailable', description: 'too many authorization requests from this address' }, { 'retry-after': String(wait) });
    }
    if (await serveInteraction(services, provider, req, res, url, requestId)) return;
    if (url.pathname === OAUTH_ROUTES.registration && req.method === 'POST') {
      const wait = registrations.take(clientAddress(req, config.TRUST_PROXY));
      if (wait > 0) {
        return sendOAuthError(res, { status: 429, error: 'temporarily_unavailable', description: 'too many client registrations from this address' }, { 'retry-after': String(wait) });
      }
    }
    callback ??= provider.callback();
    await callback(req, res);
  };
  return [
    { prefix: '/oauth/', route: '/oauth', handle },
    { prefix: OAUTH_METADATA_PATH, route: OAUTH_METADATA_PATH, handle },
  ];
}

/**
 * POST authorization_endpoint with the signed-in user's bearer token and X-Team-Id. Credential
 * problems answer in the platform's error envelope (the caller is the platform's own app); problems
 * with the request answer as OAuth does.
 */
async function firstPartyConsent(services: Services, req: IncomingMessage, res: ServerResponse, url: URL, requestId: string): Promise<void> {
  try {
    const principal = await consentingUser(services, req, url, requestId);
    const params = await formParams(req);
    if ('direct' in params) return sendOAuthError(res, params.direct);
    const outcome = await decideAuthorization(oauthServerOf(services)!, principal, params.fields);
    if ('direct' in outcome) return sendOAuthError(res, outcome.direct);
    res.writeHead(302, { location: outcome.redirectTo, 'cache-control': 'no-store', 'content-length': 0 });
    res.end();
  } catch (error) {
    const publicError = toPublicError(error);
    if (publicError.unexpected) services.logger.error({ err: error, requestId }, 'authorization decision failed');
    sendError(res, requestId, publicError);
  }
}
