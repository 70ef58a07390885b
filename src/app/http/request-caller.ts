// The caller facts of a plain HTTP request (REST, and GraphQL POSTs served without Yoga): its
// credential, its team selection (X-Team-Id, else ?teamSimplyId=), its address and its user agent.
import type { IncomingMessage } from 'node:http';
import type { CallerFacts } from '../create-context.ts';
import { clientAddress } from './client-address.ts';
import { authorizationDigest } from './credential-digest.ts';

export function requestCaller(req: IncomingMessage, url: URL, requestId: string, trustProxy: boolean): CallerFacts {
  const team = req.headers['x-team-id'];
  return {
    requestId,
    authorization: req.headers.authorization,
    authorizationDigest: authorizationDigest(req),
    teamSelector: (Array.isArray(team) ? team[0] : team) ?? (url.search === '' ? null : url.searchParams.get('teamSimplyId')),
    clientIp: clientAddress(req, trustProxy),
    userAgent: req.headers['user-agent'] ?? null,
  };
}
