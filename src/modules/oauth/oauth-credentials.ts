// OAuth access tokens as credentials: the principal of the consenting user in the team they chose,
// as their Team Role lets them act now, narrowed to the token's scopes and bound to the resource it
// was issued for (docs/api/oauth.md "Using a token"). Checked once, then answered from the
// authenticator's cache; a change to the user or the team drops the entry on every instance (its
// tags), and so does revoking a token, its grant or its client (forgetAccounts).
import type { BearerTokenKind } from '../../app/auth/authenticator.ts';
import type { CacheTags } from '../../app/auth/credential-cache.ts';
import { CREDENTIALS_CHANNEL, invalidationPayload, publishCredentialInvalidation } from '../../app/auth/credential-invalidation.ts';
import type { OauthScope } from '../../app/auth/oauth-scopes.ts';
import { OAUTH_ACCESS_TOKEN_PREFIX, hashToken } from '../../app/auth/tokens.ts';
import type { Services } from '../../app/context.ts';
import { UnauthenticatedError } from '../../app/errors.ts';
import { parseAccountId } from './oauth-account.ts';
import { live } from './oauth-db.ts';

interface StoredAccessToken {
  accountId?: unknown;
  clientId?: unknown;
  grantId?: unknown;
  scope?: unknown;
  aud?: unknown;
  exp?: unknown;
}

interface StoredClient {
  first_party?: unknown;
  allowances?: unknown;
}

const refused = () => new UnauthenticatedError('The OAuth access token is not valid: it has expired or been revoked');

export function oauthAccessTokens(services: Services): BearerTokenKind {
  const { prisma, authenticator } = services;
  return {
    prefix: OAUTH_ACCESS_TOKEN_PREFIX,
    async load(token) {
      const row = await prisma.oAuthState.findFirst({ where: { model: 'AccessToken', key: hashToken(token), ...live() }, select: { payload: true } });
      const stored = row?.payload as StoredAccessToken | undefined;
      if (!stored || typeof stored.clientId !== 'string' || typeof stored.grantId !== 'string' || typeof stored.exp !== 'number') throw refused();
      const expiresAt = new Date(stored.exp * 1000);
      const account = parseAccountId(stored.accountId);
      const resource = resourceOf(stored.aud);
      if (!account || !resource || expiresAt.getTime() <= Date.now()) throw refused();
      const [grant, client, user, team] = await Promise.all([
        prisma.oAuthState.findFirst({ where: { model: 'Grant', key: hashToken(stored.grantId), ...live() }, select: { lastUsedAt: true } }),
        prisma.oAuthState.findFirst({ where: { model: 'Client', key: hashToken(stored.clientId) }, select: { payload: true } }),
        prisma.user.findUnique({ where: { simplyId: account.userSimplyId }, select: { id: true } }),
        prisma.team.findUnique({ where: { simplyId: account.teamSimplyId }, select: { id: true } }),
      ]);
      // the grant or the client revoked, the user deactivated or no longer a member of the team: the token is dead
      const member = grant && client && user && team ? await authenticator.memberPrincipal(user.id, team.id) : null;
      if (!member || !client) throw refused();
      // connected apps show when a grant was last used: at most one write a minute, on a cold check
      if (!grant!.lastUsedAt || grant!.lastUsedAt.getTime() < Date.now() - 60_000) {
        await prisma.oAuthState.updateMany({ where: { model: 'Grant', key: hashToken(stored.grantId) }, data: { lastUsedAt: new Date() } });
      }
      const marks = client.payload as StoredClient;
      const scopes = typeof stored.scope === 'string' ? stored.scope.split(' ').filter(Boolean) : [];
      return {
        principal: {
          ...member,
          kind: 'OAUTH',
          credentialId: stored.grantId,
          // a system administrator's token carries no operator powers: those are for first-party sign-ins
          isSystemAdmin: false,
          scopes: new Set(scopes as OauthScope[]),
          expiresAt,
          oauth: {
            clientId: stored.clientId,
            grantId: stored.grantId,
            resource,
            firstParty: marks.first_party === true,
            allowances: Array.isArray(marks.allowances) ? marks.allowances.filter((a): a is string => typeof a === 'string') : [],
          },
        },
        tags: { userId: user!.id, teamId: team!.id },
      };
    },
  };
}

/** `/v1` or `/mcp` under the issuer, from the token's audience. */
function resourceOf(aud: unknown): 'v1' | 'mcp' | null {
  const path = typeof aud === 'string' ? URL.parse(aud)?.pathname : null;
  return path === '/v1' ? 'v1' : path === '/mcp' ? 'mcp' : null;
}

/** What forgetting credentials needs: the database, and in a server its own notifier and cache. */
export type ForgetDeps = Pick<Services, 'prisma'> & Partial<Pick<Services, 'notifier' | 'authenticator'>>;

/**
 * Tells every instance to forget the credentials named. A server drops its own cache at once and
 * notifies the others; a command-line process (svc oauth-clients revoke) sends the NOTIFY on its
 * database connection, which reaches the running servers too.
 */
export async function forgetCredentials(deps: ForgetDeps, tags: CacheTags): Promise<void> {
  if (deps.notifier && deps.authenticator) return publishCredentialInvalidation(deps.notifier, deps.authenticator, tags);
  await deps.prisma.$executeRaw`SELECT pg_notify(${CREDENTIALS_CHANNEL}, ${invalidationPayload(tags)})`;
}

/** The users whose access tokens were revoked: their cached credentials go, everywhere. */
export async function forgetAccounts(deps: ForgetDeps, accountIds: string[]): Promise<void> {
  const simplyIds = accountIds.map((id) => parseAccountId(id)?.userSimplyId).filter((id): id is string => id !== undefined);
  const users = await deps.prisma.user.findMany({ where: { simplyId: { in: simplyIds } }, select: { id: true } });
  for (const user of users) await forgetCredentials(deps, { userId: user.id });
}
