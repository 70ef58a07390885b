// Resolves `Authorization: Bearer <token>` (plus the team selection for user credentials)
// into a Principal. The hot path: a warm credential costs no database round trip.
import type { PrismaClient } from '../../generated/prisma/client.ts';
import { JwtService } from './jwt-service.ts';
import { ConstituentTokenNotAllowedError, InvalidTeamSelectionError, PermissionDeniedError, RateLimitError, UnauthenticatedError, teamContextRequired } from '../errors.ts';
import { RateLimiter } from '../http/rate-limiter.ts';
import { teamId as teamIdKind, userId as userIdKind } from '../ids.ts';
import { type CacheTags, CredentialCache } from './credential-cache.ts';
import { isAddressAllowed } from './ip-allowlist.ts';
import {
  apiKeyPrincipal,
  dataGrantsOf,
  roleFeatures,
  sessionTokenPrincipal,
  type ApiKeyRow,
  type RoleRow,
} from './principal-builders.ts';
import { ANONYMOUS, type Principal } from './principal.ts';
import { API_KEY_PREFIX, CONSTITUENT_ACCESS_TOKEN_PREFIX, SESSION_TOKEN_PREFIX, hashToken } from './tokens.ts';

export interface CredentialRequest {
  authorization: string | null | undefined;
  /** X-Team-Id header or teamSimplyId query parameter */
  teamSelector: string | null | undefined;
  clientIp: string;
  /** what is asked for: the API (/v1 and /graphql, the default) or the MCP endpoint; an OAuth token serves only the one it was issued for */
  resource?: 'v1' | 'mcp';
  /** the SHA-256 of the whole Authorization header when the caller has it already (credential-digest.ts): the cache key then */
  authorizationDigest?: string;
}

/**
 * A bearer token an area issues and checks itself, told apart by its prefix (e.g. OAuth access
 * tokens). Its principal is cached like an API key's, tagged with `tags` so that a change to the
 * user or the team (role, membership, deactivation) drops it on every instance.
 */
export interface BearerTokenKind {
  prefix: string;
  /** throws UnauthenticatedError when the token is not valid */
  load(token: string): Promise<{ principal: Principal; tags: CacheTags }>;
}

interface CachedKey {
  principal: Principal;
  allowedIps: string[];
  revokedOrExpired: Date | null;
}

interface CachedUser {
  principal: Principal;
}

const roleInclude = {
  dataPermissions: { select: { dataCollectionSimplyId: true, level: true } },
  fieldPermissions: { select: { dataFieldSimplyId: true, level: true } },
} as const;
const teamSelect = { id: true, simplyId: true, name: true } as const;
const apiKeyInclude = { team: { select: teamSelect }, role: { include: roleInclude } } as const;

export class Authenticator {
  readonly cache: CredentialCache<CachedKey | CachedUser>;
  /** counts database loads, so tests and the benchmark can prove the warm path skips the database */
  loads = 0;

  private readonly prisma: PrismaClient;
  private readonly jwt: JwtService;
  private readonly tokenKinds: BearerTokenKind[] = [];

  /**
   * Failed credential checks per client address. Rate limits key on the credential, so made-up
   * tokens would each get a fresh bucket (and a database lookup): failures are counted per address
   * instead, and an address over the limit is refused before any lookup.
   */
  private readonly failures: RateLimiter;

  constructor(prisma: PrismaClient, jwt: JwtService, ttlSeconds: number, failuresPerMinute = 120) {
    this.failures = new RateLimiter(failuresPerMinute);
    this.prisma = prisma;
    this.jwt = jwt;
    this.cache = new CredentialCache({ ttlMs: ttlSeconds * 1000 });
  }

  addTokenKind(kind: BearerTokenKind): void {
    this.tokenKinds.push(kind);
  }

  async authenticate(request: CredentialRequest): Promise<Principal> {
    const header = request.authorization?.trim();
    if (!header) return ANONYMOUS;
    const blocked = this.failures.wait(request.clientIp);
    if (blocked > 0) throw new RateLimitError(blocked);
    try {
      return await this.check(header, request);
    } catch (error) {
      if (error instanceof UnauthenticatedError) this.failures.take(request.clientIp);
      throw error;
    }
  }

  private async check(header: string, request: CredentialRequest): Promise<Principal> {
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    if (!match) throw new UnauthenticatedError('The Authorization header must be "Bearer <token>"');
    const token = match[1]!;
    if (token.startsWith(API_KEY_PREFIX)) return this.apiKey(token, request);
    if (token.startsWith(SESSION_TOKEN_PREFIX)) return this.sessionToken(token, request);
    if (token.startsWith(CONSTITUENT_ACCESS_TOKEN_PREFIX)) return this.constituent(token, request.teamSelector ?? null);
    if (token.split('.').length === 3) return this.user(token, request.teamSelector ?? null);
    const kind = this.tokenKinds.find((k) => token.startsWith(k.prefix));
    if (kind) return this.areaToken(kind, token, request);
    throw new UnauthenticatedError('The credential is not recognised');
  }

  /**
   * The checked API key or session token `token` from the cache; on a miss, `load` reads it by its hash. The entry is
   * tagged with its team, and not kept when the cache was invalidated while it loaded. It is held under the digest of
   * the header that carried the token when the request has one (the rate limiter made it: one hash a request), else
   * under the token's hash.
   */
  private async cachedKey(kind: string, token: string, headerDigest: string | undefined, load: (hash: string) => Promise<{ entry: CachedKey; tags: CacheTags }>): Promise<CachedKey> {
    const cacheKey = headerDigest ? `${kind}:h:${headerDigest}` : `${kind}:${hashToken(token)}`;
    const cached = this.cache.get(cacheKey) as CachedKey | undefined;
    if (cached) return cached;
    const generation = this.cache.generation();
    this.loads++;
    const { entry, tags } = await load(hashToken(token));
    this.cache.set(cacheKey, entry, tags, generation);
    return entry;
  }

  private async areaToken(kind: BearerTokenKind, token: string, request: CredentialRequest): Promise<Principal> {
    const entry = await this.cachedKey(kind.prefix, token, request.authorizationDigest, async () => {
      const { principal, tags } = await kind.load(token);
      return { entry: { principal, allowedIps: [], revokedOrExpired: principal.expiresAt }, tags };
    });
    if (entry.revokedOrExpired && entry.revokedOrExpired.getTime() <= Date.now()) throw new UnauthenticatedError('The access token has expired');
    const resource = entry.principal.oauth?.resource;
    if (resource && resource !== (request.resource ?? 'v1')) {
      throw new UnauthenticatedError(`The access token was issued for ${resource === 'mcp' ? 'the MCP endpoint (/mcp)' : 'the API (/v1)'}, not for this endpoint`);
    }
    return entry.principal;
  }

  private async apiKey(token: string, request: CredentialRequest): Promise<Principal> {
    const entry = await this.cachedKey('k', token, request.authorizationDigest, async (keyHash) => {
      const row = await this.prisma.apiKey.findUnique({ where: { keyHash }, include: apiKeyInclude });
      if (!row || row.revokedAt) throw new UnauthenticatedError('The API key is not valid');
      const loaded = { principal: apiKeyPrincipal(row as ApiKeyRow), allowedIps: row.allowedIpAddresses, revokedOrExpired: row.expiresAt };
      return { entry: loaded, tags: { teamId: row.teamId } };
    });
    if (entry.revokedOrExpired && entry.revokedOrExpired.getTime() <= Date.now()) {
      throw new UnauthenticatedError('The API key has expired');
    }
    if (!isAddressAllowed(request.clientIp, entry.allowedIps)) {
      throw new PermissionDeniedError('This API key may not be used from this source address');
    }
    return entry.principal;
  }

  private async sessionToken(token: string, request: CredentialRequest): Promise<Principal> {
    const entry = await this.cachedKey('s', token, request.authorizationDigest, async (tokenHash) => {
      const row = await this.prisma.sessionToken.findUnique({ where: { tokenHash }, include: { apiKey: { include: apiKeyInclude } } });
      if (!row || row.revokedAt || row.apiKey.revokedAt) {
        throw new UnauthenticatedError('The session token is not valid or has been revoked');
      }
      const principal = sessionTokenPrincipal({ ...row, apiKey: row.apiKey as ApiKeyRow });
      return { entry: { principal, allowedIps: [], revokedOrExpired: principal.expiresAt }, tags: { teamId: row.teamId } };
    });
    if (entry.revokedOrExpired && entry.revokedOrExpired.getTime() <= Date.now()) {
      throw new UnauthenticatedError('The session token has expired');
    }
    return entry.principal;
  }

  /**
   * A constituent's access token (docs/api/constituent-auth.md). Not cached: one indexed read per
   * request, so a logout, a refresh or a detected reuse ends the old token on every instance at once.
   * It is the only principal of its request: a team selection next to it is refused, not ignored.
   */
  private async constituent(token: string, teamSelector: string | null): Promise<Principal> {
    if (teamSelector) {
      throw new ConstituentTokenNotAllowedError('A constituent token is the only credential of its request: send it without X-Team-Id or teamSimplyId');
    }
    this.loads++;
    const rows = await this.prisma.$queryRaw<{ id: bigint; simplyId: string; dataRecordId: bigint; accessExpiresAt: Date; teamId: bigint; teamSimplyId: string; teamName: string }[]>`
      SELECT s.id, s."simplyId", s."dataRecordId", s."accessExpiresAt", t.id AS "teamId", t."simplyId" AS "teamSimplyId", t.name AS "teamName"
        FROM "ConstituentSession" s
        JOIN "Team" t ON t.id = s."teamId"
        JOIN "DataRecord" r ON r.id = s."dataRecordId" AND r."teamId" = s."teamId" AND r."deletedAt" IS NULL
       WHERE s."accessTokenHash" = ${hashToken(token)} AND s."revokedAt" IS NULL`;
    const row = rows[0];
    if (!row || row.accessExpiresAt.getTime() <= Date.now()) throw new UnauthenticatedError('The constituent access token is not valid or has expired');
    // what the session list shows; written at most once a minute per session
    await this.prisma.$executeRaw`
      UPDATE "ConstituentSession" SET "lastActiveAt" = now() WHERE "teamId" = ${row.teamId} AND id = ${row.id} AND "lastActiveAt" < now() - interval '1 minute'`;
    return {
      ...ANONYMOUS,
      kind: 'CONSTITUENT',
      credentialId: row.simplyId,
      team: { id: row.teamId, simplyId: row.teamSimplyId, name: row.teamName },
      scopes: new Set(),
      expiresAt: row.accessExpiresAt,
      constituent: { sessionId: row.id, sessionSimplyId: row.simplyId, dataRecordId: row.dataRecordId },
    };
  }

  private async user(token: string, teamSelector: string | null): Promise<Principal> {
    const verified = await this.jwt.verify(token);
    const cacheKey = `u:${verified.subject}|${verified.sessionSimplyId ?? ''}|${teamSelector ?? ''}`;
    const cached = this.cache.get(cacheKey) as CachedUser | undefined;
    if (cached) return cached.principal;

    const generation = this.cache.generation();
    this.loads++;
    const user = await this.findUser(verified);
    if (!user || !user.isActive) throw new UnauthenticatedError('The user does not exist or is deactivated');
    // a revoked sign-in session refuses its access tokens at once (revoking invalidates the user's cache entries)
    if (verified.sessionSimplyId) {
      const session = await this.prisma.userSession.findUnique({ where: { simplyId: verified.sessionSimplyId }, select: { userId: true, revokedAt: true } });
      if (!session || session.userId !== user.id || session.revokedAt) throw new UnauthenticatedError('The sign-in session has ended');
    }

    const base: Principal = {
      ...ANONYMOUS,
      kind: 'USER',
      credentialId: user.simplyId,
      userId: user.id,
      userSimplyId: user.simplyId,
      isSystemAdmin: user.isSystemAdmin,
      teamError: teamContextRequired(),
      sessionSimplyId: verified.sessionSimplyId,
    };
    let principal = base;
    let teamId: bigint | null = null;
    if (teamSelector && !teamIdKind.is(teamSelector)) {
      principal = {
        ...base,
        teamError: new InvalidTeamSelectionError(),
      };
    } else if (teamSelector) {
      const membership = teamIdKind.is(teamSelector)
        ? await this.prisma.teamMembership.findFirst({
            where: { userId: user.id, isActive: true, team: { simplyId: teamSelector } },
            include: { team: { select: teamSelect }, role: { include: roleInclude } },
          })
        : null;
      if (membership) {
        teamId = membership.teamId;
        principal = memberOf(base, membership);
      } else if (user.isSystemAdmin && teamIdKind.is(teamSelector)) {
        // system administrators may act in any team
        const team = await this.prisma.team.findUnique({ where: { simplyId: teamSelector }, select: teamSelect });
        if (team) {
          teamId = team.id;
          principal = { ...base, team, teamError: null };
        }
      }
      if (!principal.team) {
        principal = {
          ...base,
          teamError: new PermissionDeniedError('The user is not an active member of the selected team'),
        };
      }
    }
    this.cache.set(cacheKey, { principal }, { userId: user.id, teamId }, generation);
    return principal;
  }

  /**
   * A member acting in a team as they may now, without a token: work a person started that runs
   * later (a background task) acts with the starter's current role. Null when the user is
   * deactivated or no longer an active member of the team.
   */
  async memberPrincipal(userId: bigint, teamId: bigint): Promise<Principal | null> {
    const user = await this.prisma.user.findUnique({ where: { id: userId } });
    if (!user || !user.isActive) return null;
    const membership = await this.prisma.teamMembership.findFirst({
      where: { userId, teamId, isActive: true },
      include: { team: { select: teamSelect }, role: { include: roleInclude } },
    });
    if (!membership) return null;
    const base: Principal = { ...ANONYMOUS, kind: 'USER', credentialId: user.simplyId, userId: user.id, userSimplyId: user.simplyId, isSystemAdmin: user.isSystemAdmin };
    return memberOf(base, membership);
  }

  private async findUser(verified: Awaited<ReturnType<JwtService['verify']>>) {
    if (verified.source === 'first-party') {
      return userIdKind.is(verified.subject)
        ? this.prisma.user.findUnique({ where: { simplyId: verified.subject } })
        : null;
    }
    const linked = await this.prisma.user.findUnique({ where: { externalSubject: verified.subject } });
    if (linked) return linked;
    // first sign-in through the external provider: link by verified email, never create users implicitly
    if (!verified.email || !verified.emailVerified) return null;
    const byEmail = await this.prisma.user.findUnique({ where: { email: verified.email } });
    if (!byEmail || byEmail.externalSubject) return null;
    return this.prisma.user.update({ where: { id: byEmail.id }, data: { externalSubject: verified.subject } });
  }
}

interface MembershipRow {
  isTeamAdmin: boolean;
  team: { id: bigint; simplyId: string; name: string };
  role: RoleRow | null;
}

function memberOf(base: Principal, membership: MembershipRow): Principal {
  return {
    ...base,
    team: membership.team,
    teamError: null,
    isTeamAdmin: membership.isTeamAdmin,
    features: roleFeatures(membership.role),
    data: dataGrantsOf(membership.role),
    teamRoleSimplyId: membership.role?.simplyId ?? null,
  };
}
