// One way to build a request's context, shared by the GraphQL HTTP endpoint, graphql-ws and
// the REST adapter: the same credential rules apply whichever face is called.
import { RequestCache } from '@pothos/plugin-scope-auth';
import type { RequestContext, Services } from './context.ts';
import { noteCredentialKind } from './http/access-log.ts';

export interface CallerFacts {
  requestId: string;
  authorization: string | null | undefined;
  /** the SHA-256 of the Authorization header, when the front door made it (credential-digest.ts) */
  authorizationDigest?: string;
  teamSelector: string | null | undefined;
  clientIp: string;
  /** the User-Agent header (shown in a person's sign-in session list) */
  userAgent?: string | null;
  /** the MCP endpoint, where only OAuth tokens issued for it are accepted (default: the API) */
  resource?: 'v1' | 'mcp';
}

export async function createContext(services: Services, caller: CallerFacts): Promise<RequestContext> {
  const authenticate = () =>
    services.authenticator.authenticate({
      authorization: caller.authorization,
      authorizationDigest: caller.authorizationDigest,
      teamSelector: caller.teamSelector,
      clientIp: caller.clientIp,
      resource: caller.resource,
    });
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

/**
 * The request is done with `context` (the object its resolvers were given). The scope-auth plugin
 * keeps each context's scope cache in a module-level WeakMap, and V8's young-generation collector
 * keeps the values of such a map alive until the next full collection: left there, every request's
 * context and all it reaches went to the old generation (a full collection every 1.3 s under load).
 */
export function releaseContext(context: object): void {
  RequestCache.clearForContext(context);
}
