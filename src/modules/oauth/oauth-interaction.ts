// The hosted sign-in and consent page of an authorization request. oidc-provider sends the browser
// to /oauth/interaction/<uid> (its interaction cookie names the request); the page, served from the
// platform's own files under a strict Content-Security-Policy, signs the user in with the platform's
// own sign-in routes (password, then the second factor when it is on), lets them pick the team, shows
// the client's name, the scopes in plain words and where they will be sent back, and posts the
// decision to /oauth/interaction/<uid>/decision with the user's token. That post must also carry
// the page's anti-forgery token (an HMAC of the interaction id under a key of the instance), so no
// other site can submit it; the answer is where the browser goes next: back into the authorization
// endpoint, which issues the code (or the error) to the client's redirect URI.
import { createHmac } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import { isOauthScope } from '../../app/auth/oauth-scopes.ts';
import { constantTimeEqual } from '../../app/auth/tokens.ts';
import type { Services } from '../../app/context.ts';
import { toPublicError } from '../../app/error-mapping.ts';
import { sendError, sendJson } from '../../app/http/envelope.ts';
import { derivedSecretsKey } from '../../app/secrets-key.ts';
import { consentPage, errorPage, sendPage, serveConsentAsset } from './consent-page/consent-page.ts';
import { accountOf, grantAccess } from './oauth-consent.ts';
import { consentingUser, formParams, sendOAuthError } from './oauth-http.ts';
import { OAUTH_INTERACTION_PATH, OAUTH_RESOURCES } from './oauth-provider.ts';

export const OAUTH_ASSETS_PATH = '/oauth/assets/';

const PAGE = new RegExp(`^${OAUTH_INTERACTION_PATH}/([A-Za-z0-9_-]{1,64})(/decision)?$`);

/** Answers the interaction page, its decision and its files; false when `url` is none of them. */
export async function serveInteraction(services: Services, provider: Provider, req: IncomingMessage, res: ServerResponse, url: URL, requestId: string): Promise<boolean> {
  if (url.pathname.startsWith(OAUTH_ASSETS_PATH)) {
    serveConsentAsset(req, res, url.pathname.slice(OAUTH_ASSETS_PATH.length));
    return true;
  }
  const match = PAGE.exec(url.pathname);
  if (!match) return false;
  const [, uid, decision] = match;
  if (decision) {
    if (req.method !== 'POST') return sendOAuthError(res, { status: 405, error: 'invalid_request', description: 'POST the decision' }), true;
    await decide(services, provider, req, res, url, requestId, uid!);
    return true;
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') return sendOAuthError(res, { status: 405, error: 'invalid_request', description: 'GET the page' }), true;
  await showPage(services, provider, req, res, uid!);
  return true;
}

async function showPage(services: Services, provider: Provider, req: IncomingMessage, res: ServerResponse, uid: string): Promise<void> {
  const details = await provider.interactionDetails(req, res).catch(() => null);
  if (!details || details.uid !== uid) {
    return sendPage(req, res, 400, errorPage('This sign-in link has expired or was opened in another browser. Return to the application and start again.'));
  }
  const { params } = details;
  const client = await provider.Client.find(String(params.client_id)).catch(() => undefined);
  if (!client) return sendPage(req, res, 400, errorPage('The application asking for access is no longer registered.'));
  const redirect = URL.parse(String(params.redirect_uri));
  sendPage(
    req,
    res,
    200,
    consentPage({
      uid,
      csrf: csrfToken(services, uid),
      clientName: client.clientName || 'An application',
      firstParty: client.first_party === true,
      returnsTo: redirect ? (redirect.host || redirect.protocol.replace(/:$/, '')) : String(params.redirect_uri),
      scopes: requestedScopes(params),
      resource: resourceOf(provider, params) === `${provider.issuer}/mcp` ? 'mcp' : 'v1',
    }),
  );
}

async function decide(services: Services, provider: Provider, req: IncomingMessage, res: ServerResponse, url: URL, requestId: string, uid: string): Promise<void> {
  try {
    const details = await provider.interactionDetails(req, res).catch(() => null);
    if (!details || details.uid !== uid) {
      return sendOAuthError(res, { status: 400, error: 'invalid_request', description: 'this authorization request has expired or belongs to another browser: start again from the application' });
    }
    const fields = await formParams(req);
    if ('direct' in fields) return sendOAuthError(res, fields.direct);
    if (!constantTimeEqual(fields.fields.get('csrf') ?? '', csrfToken(services, uid))) {
      return sendOAuthError(res, { status: 403, error: 'access_denied', description: 'the form did not come from this sign-in page' });
    }
    const principal = await consentingUser(services, req, url, requestId);
    const choice = fields.fields.get('decision');
    if (choice !== 'approve' && choice !== 'deny') return sendOAuthError(res, { status: 400, error: 'invalid_request', description: 'decision must be approve or deny' });
    const { params } = details;
    const result =
      choice === 'deny'
        ? { error: 'access_denied', error_description: 'the user denied the request' }
        : {
            // remember: false keeps no sign-in in the browser: the next request asks again
            login: { accountId: accountOf(principal), remember: false },
            consent: { grantId: await grantAccess(provider, principal, String(params.client_id), requestedScopes(params).join(' '), resourceOf(provider, params)) },
          };
    const redirectTo = await provider.interactionResult(req, res, result, { mergeWithLastSubmission: false });
    sendJson(res, 200, { redirectTo });
  } catch (error) {
    const publicError = toPublicError(error);
    if (publicError.unexpected) services.logger.error({ err: error, requestId }, 'consent decision failed');
    sendError(res, requestId, publicError);
  }
}

/** The scopes asked for (oidc-provider refused unknown ones at the authorization endpoint). */
function requestedScopes(params: Record<string, unknown>): string[] {
  return [...new Set(String(params.scope ?? '').split(' ').filter(isOauthScope))];
}

function resourceOf(provider: Provider, params: Record<string, unknown>): string {
  return typeof params.resource === 'string' ? params.resource : `${provider.issuer}${OAUTH_RESOURCES[0]}`;
}

function csrfToken(services: Services, uid: string): string {
  return createHmac('sha256', derivedSecretsKey(services.config.secretsKeyFile, 'svc oauth consent csrf v1')).update(uid).digest('base64url');
}
