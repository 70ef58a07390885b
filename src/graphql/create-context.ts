// One way to build a request's context, shared by the GraphQL HTTP endpoint, graphql-ws and
// the REST adapter: the same credential rules apply whichever face is called.
import type { GraphQLContext, Services } from './context.ts';

export interface CallerFacts {
  requestId: string;
  authorization: string | null | undefined;
  teamSelector: string | null | undefined;
  clientIp: string;
}

export async function createContext(services: Services, caller: CallerFacts): Promise<GraphQLContext> {
  const principal = await services.authenticator.authenticate({
    authorization: caller.authorization,
    teamSelector: caller.teamSelector,
    clientIp: caller.clientIp,
  });
  return { requestId: caller.requestId, principal, clientIp: caller.clientIp, services };
}
