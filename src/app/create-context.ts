// One way to build a request's context, shared by the GraphQL HTTP endpoint, graphql-ws and
// the REST adapter: the same credential rules apply whichever face is called.
import type { RequestContext, Services } from './context.ts';
import { noteCredentialKind } from './http/access-log.ts';

export interface CallerFacts {
  requestId: string;
  authorization: string | null | undefined;
  teamSelector: string | null | undefined;
  clientIp: string;
  /** the User-Agent header (shown in a person's sign-in session list) */
  userAgent?: string | null;
  /** the MCP endpoint, where only OAuth tokens issued for it are accepted (default: the API) */
  resource?: 'v1' | 'mcp';
}

export async function createContext(services: Services, caller: CallerFacts): Promise<RequestContext> {
  const authenticate = () =>
    services.authenticator.authenticate({ authorization: caller.authorization, teamSelector: caller.teamSelector, clientIp: caller.clientIp, resource: caller.resource });
  const principal = await authenticate();
  noteCredentialKind(caller.requestId, principal.kind);
  return {
    requestId: caller.requestId,
    principal,
    clientIp: caller.clientIp,
    userAgent: caller.userAgent?.slice(0, 300) ?? null,
    services,
    logger: services.logger,
    // long-lived contexts (subscriptions) re-check the credential as it is now: revoked keys and
    // changed roles apply to the next event (a cache hit while nothing changed). Yoga copies the
    // context object, so the caller stores the result on the context it holds.
    refreshPrincipal: authenticate,
  };
}
