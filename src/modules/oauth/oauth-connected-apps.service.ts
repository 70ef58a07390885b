// A person's connected apps: the grants they gave OAuth clients (one per approval: a client, a team,
// scopes, the resource), with when each was last used, and revoking one: the grant and every token
// issued under it go, on every instance at once.
import { hashToken } from '../../app/auth/tokens.ts';
import type { RequestContext } from '../../app/context.ts';
import { NotFoundError } from '../../app/errors.ts';
import { parseAccountId } from './oauth-account.ts';
import { live } from './oauth-db.ts';
import { oauthStorageFor } from './oauth-storage.ts';

export interface ConnectedApp {
  grantId: string;
  clientId: string;
  clientName: string;
  teamSimplyId: string;
  teamName: string | null;
  scopes: string[];
  /** what the tokens are for: the API (v1) or the MCP endpoint (mcp) */
  resources: string[];
  createdAt: Date;
  /** when one of its access tokens was last checked (to within about a minute); null: never used */
  lastUsedAt: Date | null;
  expiresAt: Date | null;
}

interface StoredGrant {
  accountId?: string;
  clientId?: string;
  resources?: Record<string, string>;
  openid?: { scope?: string };
}

/** The signed-in user's grants, newest first. */
export async function listConnectedApps(ctx: RequestContext): Promise<ConnectedApp[]> {
  const { prisma } = ctx.services;
  const rows = await prisma.oAuthState.findMany({
    where: { model: 'Grant', accountId: { startsWith: `${ctx.principal.userSimplyId}@` }, ...live() },
    orderBy: { createdAt: 'desc' },
    select: { grantId: true, payload: true, createdAt: true, lastUsedAt: true, expiresAt: true },
  });
  const grants = rows.map((row) => ({ row, grant: row.payload as StoredGrant }));
  const clientIds = [...new Set(grants.map((g) => g.grant.clientId).filter((id): id is string => typeof id === 'string'))];
  const teamIds = [...new Set(grants.map((g) => parseAccountId(g.grant.accountId)?.teamSimplyId).filter((id): id is string => id !== undefined))];
  const [clients, teams] = await Promise.all([
    prisma.oAuthState.findMany({ where: { model: 'Client', key: { in: clientIds.map(hashToken) } }, select: { payload: true } }),
    prisma.team.findMany({ where: { simplyId: { in: teamIds } }, select: { simplyId: true, name: true } }),
  ]);
  const clientNames = new Map(clients.map((c) => [(c.payload as { client_id: string }).client_id, (c.payload as { client_name?: string }).client_name ?? '']));
  const teamNames = new Map(teams.map((t) => [t.simplyId, t.name]));
  return grants.flatMap(({ row, grant }) => {
    const account = parseAccountId(grant.accountId);
    // a Grant row keeps its own id in grantId (oauth-payload.ts)
    if (!account || !grant.clientId || !row.grantId) return [];
    const resources = Object.keys(grant.resources ?? {});
    return [
      {
        grantId: row.grantId,
        clientId: grant.clientId,
        clientName: clientNames.get(grant.clientId) ?? '',
        teamSimplyId: account.teamSimplyId,
        teamName: teamNames.get(account.teamSimplyId) ?? null,
        scopes: [...new Set(Object.values(grant.resources ?? {}).flatMap((scope) => scope.split(' ').filter(Boolean)))],
        resources: resources.map((url) => URL.parse(url)?.pathname.replace(/^\//, '') ?? url),
        createdAt: row.createdAt,
        lastUsedAt: row.lastUsedAt,
        expiresAt: row.expiresAt,
      },
    ];
  });
}

/** Revokes one of the signed-in user's grants; another person's (or an unknown one) is not found. */
export async function revokeConnectedApp(ctx: RequestContext, grantId: string): Promise<void> {
  const { prisma } = ctx.services;
  const row = await prisma.oAuthState.findFirst({
    where: { model: 'Grant', key: hashToken(grantId), accountId: { startsWith: `${ctx.principal.userSimplyId}@` } },
    select: { key: true },
  });
  if (!row) throw new NotFoundError('Connected app', grantId);
  const Storage = oauthStorageFor(ctx.services);
  // the tokens first (they tell every instance to drop them), then the grant itself
  await new Storage('AccessToken').revokeByGrantId(grantId);
  await new Storage('Grant').destroy(grantId);
}
