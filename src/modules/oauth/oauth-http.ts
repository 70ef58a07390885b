// What the authorization server's own handlers share: the form body, the OAuth error answer, and
// the user deciding (a first-party user token, in the team they selected).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Principal } from '../../app/auth/principal.ts';
import type { Services } from '../../app/context.ts';
import { IdpRequiredError, teamContextRequired } from '../../app/errors.ts';
import { sendJson } from '../../app/http/envelope.ts';
import { readUpTo } from '../../app/http/read-body.ts';
import { requestCaller } from '../../app/http/request-caller.ts';
import type { DirectOAuthError } from './oauth-consent.ts';

const FORM_LIMIT_BYTES = 64 * 1024;

/** The signed-in user (a first-party user token, never a key) acting in the team they selected. */
export async function consentingUser(services: Services, req: IncomingMessage, url: URL, requestId: string): Promise<Principal> {
  const principal = await services.authenticator.authenticate(requestCaller(req, url, requestId, services.config.TRUST_PROXY));
  if (principal.kind !== 'USER') throw new IdpRequiredError();
  if (principal.teamError) throw principal.teamError;
  if (!principal.team) throw teamContextRequired();
  return principal;
}

/** A form-urlencoded body, each field once. */
export async function formParams(req: IncomingMessage): Promise<{ fields: Map<string, string> } | { direct: DirectOAuthError }> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') {
    return { direct: { status: 400, error: 'invalid_request', description: 'the body must be application/x-www-form-urlencoded' } };
  }
  const body = await readUpTo(req, FORM_LIMIT_BYTES);
  const fields = new Map<string, string>();
  for (const [name, value] of new URLSearchParams(body.toString('utf8'))) {
    if (fields.has(name)) return { direct: { status: 400, error: 'invalid_request', description: `'${name}' parameter must not be provided twice` } };
    fields.set(name, value);
  }
  return { fields };
}

export function sendOAuthError(res: ServerResponse, error: DirectOAuthError, headers: Record<string, string> = {}): void {
  sendJson(res, error.status, { error: error.error, error_description: error.description }, headers);
}
