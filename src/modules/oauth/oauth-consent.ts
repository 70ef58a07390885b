// A user's decision on an authorization request, made outside the hosted page: the platform's own
// app shows its consent screen and posts the decision to the authorization endpoint with the
// signed-in user's token (docs/api/oauth.md "Consent from your own app"). The request is checked as
// oidc-provider checks it at its authorization endpoint; approving records the grant (the scopes, for
// the one resource asked for) and issues a code bound to the redirect URI and the PKCE challenge,
// which the token endpoint then redeems like any other.
import type Provider from 'oidc-provider';
import { OAUTH_SCOPES } from '../../app/auth/oauth-scopes.ts';
import type { Principal } from '../../app/auth/principal.ts';
import { accountIdOf } from './oauth-account.ts';
import { OAUTH_RESOURCES } from './oauth-provider.ts';

/** An OAuth error answered to the caller itself: the redirect URI is not known to be the client's. */
export interface DirectOAuthError {
  status: number;
  error: string;
  description: string;
}

export type ConsentOutcome = { redirectTo: string } | { direct: DirectOAuthError };

const CODE_CHALLENGE = /^[A-Za-z0-9._~-]{43,128}$/;
const MAX_STATE_LENGTH = 2048;

/**
 * `params`: the form's fields (each once). `principal`: a signed-in user acting in the team they
 * chose, checked by the caller.
 */
export async function decideAuthorization(provider: Provider, principal: Principal, params: Map<string, string>): Promise<ConsentOutcome> {
  const direct = (error: string, description: string, status = 400): ConsentOutcome => ({ direct: { status, error, description } });
  const clientId = params.get('client_id');
  if (!clientId) return direct('invalid_request', "missing required parameter 'client_id'");
  // a client_id that is a URL is fetched (its metadata document): a failure there is the client's
  const client = await provider.Client.find(clientId).catch(() => undefined);
  if (!client) return direct('invalid_client', 'client is invalid', 400);
  const redirectUri = params.get('redirect_uri');
  if (!redirectUri) return direct('invalid_request', "missing required parameter 'redirect_uri'");
  if (!client.redirectUriAllowed(redirectUri)) return direct('invalid_redirect_uri', "redirect_uri did not match any of the client's registered redirect_uris");

  // from here the redirect URI is the client's: errors go back to it, as the standard says
  const state = params.get('state');
  const back = (query: Record<string, string>): ConsentOutcome => {
    const target = new URL(redirectUri);
    for (const [name, value] of Object.entries(query)) target.searchParams.set(name, value);
    if (state !== undefined) target.searchParams.set('state', state);
    target.searchParams.set('iss', provider.issuer);
    return { redirectTo: target.href };
  };
  const refuse = (error: string, description: string) => back({ error, error_description: description });

  if (state !== undefined && state.length > MAX_STATE_LENGTH) return refuse('invalid_request', `state must be at most ${MAX_STATE_LENGTH} characters`);
  if (params.get('response_type') !== 'code') return refuse('unsupported_response_type', 'response_type must be code');
  if (!client.responseTypeAllowed('code')) return refuse('unauthorized_client', 'the client may not use the code response type');
  if (params.get('code_challenge_method') !== 'S256') return refuse('invalid_request', 'code_challenge_method must be S256');
  const codeChallenge = params.get('code_challenge') ?? '';
  if (!CODE_CHALLENGE.test(codeChallenge)) return refuse('invalid_request', 'code_challenge must be 43 to 128 characters of [A-Za-z0-9._~-]');
  const scopes = [...new Set((params.get('scope') ?? '').split(' ').filter(Boolean))];
  if (scopes.length === 0) return refuse('invalid_scope', 'scope is required');
  const unknown = scopes.filter((s) => !(OAUTH_SCOPES as readonly string[]).includes(s));
  if (unknown.length) return refuse('invalid_scope', `unknown scope: ${unknown.join(' ')}`);
  const resource = params.get('resource') ?? `${provider.issuer}${OAUTH_RESOURCES[0]}`;
  if (!OAUTH_RESOURCES.some((path) => `${provider.issuer}${path}` === resource)) return refuse('invalid_target', `unknown resource: ${resource}`);

  const decision = params.get('decision');
  if (decision === 'deny') return refuse('access_denied', 'the user denied the request');
  if (decision !== 'approve') return refuse('invalid_request', 'decision must be approve or deny');

  const code = await new provider.AuthorizationCode({
    accountId: accountOf(principal),
    client,
    grantId: await grantAccess(provider, principal, client.clientId, scopes.join(' '), resource),
    scope: scopes.join(' '),
    resource,
    redirectUri,
    codeChallenge,
    codeChallengeMethod: 'S256',
  }).save();
  return back({ code });
}

/** The account of a signed-in user acting in their selected team. */
export function accountOf(principal: Principal): string {
  return accountIdOf({ userSimplyId: principal.userSimplyId!, teamSimplyId: principal.team!.simplyId });
}

/** Records what the user approved: exactly these scopes, for this one resource. Answers the grant's id. */
export async function grantAccess(provider: Provider, principal: Principal, clientId: string, scope: string, resource: string): Promise<string> {
  const grant = new provider.Grant({ accountId: accountOf(principal), clientId });
  grant.addOIDCScope(scope);
  grant.addResourceScope(resource, scope);
  return grant.save();
}
