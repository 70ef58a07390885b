// Verifying a code or a magic link, and the constituent's session afterwards: rotating refresh
// tokens (a rotated one presented again ends the whole session), logout and the profile.
// Docs: docs/api/constituent-auth.md.
import type pg from 'pg';
import { hashToken, CONSTITUENT_REFRESH_TOKEN_PREFIX } from '../../app/auth/tokens.ts';
import { requireTeam } from '../../app/require-team.ts';
import type { RequestContext } from '../../app/context.ts';
import { UnauthenticatedError } from '../../app/errors.ts';
import { parseInput } from '../../app/validate.ts';
import { inTransaction } from '../../app/transaction.ts';
import { recordSimplyIds } from '../../kernel/index.ts';
import { InvalidVerificationCodeError, VerificationUnusableError } from './constituent-auth.errors.ts';
import { constituentSessionId } from './constituent-auth.ids.ts';
import { refreshInput, verifyInput, verifyLinkQuery } from './constituent-auth.input.ts';
import { ACCESS_TTL_MS, MAX_FAILED_ATTEMPTS, REFRESH_PER_TOKEN, REFRESH_TTL_MS, VERIFY_PER_IP } from './limits.ts';
import { takeFromWindow } from './rate-limit-counters.ts';

export interface ConstituentTokens {
  accessToken: string;
  refreshToken: string;
  accessTokenExpiresAt: Date;
  refreshTokenExpiresAt: Date;
}

interface Device {
  platform?: string | null;
  deviceName?: string | null;
}

interface VerificationRow {
  id: string;
  simplyId: string;
  teamId: string;
  dataRecordId: string | null;
  method: string;
  codeHash: string | null;
  linkTokenHash: string | null;
  failedAttempts: number;
  state: string;
  expiresAt: Date;
}

type Outcome = { ok: true; tokens: ConstituentTokens } | { ok: false; error: Error };

const COLUMNS = `id, "simplyId", "teamId", "dataRecordId", method, "codeHash", "linkTokenHash", "failedAttempts", state, "expiresAt"`;

function usable(row: VerificationRow | undefined): row is VerificationRow {
  return row !== undefined && row.state === 'ISSUED' && row.expiresAt.getTime() > Date.now();
}

/** POST /verify: the verification's code (CODE) or the emailed link's token (LINK). */
export async function verify(ctx: RequestContext, raw: unknown): Promise<ConstituentTokens> {
  const input = parseInput(verifyInput, raw, 'Invalid verification');
  const { pool, constituentAuth } = ctx.services;
  const { secrets } = constituentAuth;
  await takeFromWindow(pool, { bucket: `constituent-auth:verify:ip:${ctx.clientIp}`, ...VERIFY_PER_IP });
  const field = input.code !== undefined ? 'code' : 'token';
  const outcome = await inTransaction(pool, async (db): Promise<Outcome> => {
    const row = (await db.query<VerificationRow>(`SELECT ${COLUMNS} FROM "ConstituentVerification" WHERE "simplyId" = $1 FOR UPDATE`, [input.verificationSimplyId])).rows[0];
    if (!usable(row)) return { ok: false, error: new VerificationUnusableError() };
    // a LINK verification is proven by its emailed token, a CODE one by its code: the other kind is a wrong attempt
    const rightKind = field === (row.method === 'LINK' ? 'token' : 'code');
    const computed = field === 'code' ? secrets.codeHash(row.simplyId, input.code!) : secrets.linkHash(input.token!);
    const matches = secrets.matches(field === 'code' ? row.codeHash : row.linkTokenHash, computed);
    // a decoy names no record: even a right guess fails like a wrong one
    if (!rightKind || !matches || row.dataRecordId === null) {
      await db.query(
        `UPDATE "ConstituentVerification" SET "failedAttempts" = "failedAttempts" + 1,
                state = CASE WHEN "failedAttempts" + 1 >= $2 THEN 'INVALIDATED' ELSE state END
          WHERE "teamId" = $3 AND id = $1`,
        [row.id, MAX_FAILED_ATTEMPTS, row.teamId],
      );
      return { ok: false, error: new InvalidVerificationCodeError(field) };
    }
    return { ok: true, tokens: await consume(ctx, db, row, input) };
  });
  if (!outcome.ok) throw outcome.error;
  return outcome.tokens;
}

/** GET /verify?token=: the magic link. */
export async function verifyLink(ctx: RequestContext, raw: unknown): Promise<ConstituentTokens> {
  const input = parseInput(verifyLinkQuery, raw, 'Invalid link');
  const { pool, constituentAuth } = ctx.services;
  await takeFromWindow(pool, { bucket: `constituent-auth:verify:ip:${ctx.clientIp}`, ...VERIFY_PER_IP });
  const outcome = await inTransaction(pool, async (db): Promise<Outcome> => {
    const hash = constituentAuth.secrets.linkHash(input.token);
    const row = (await db.query<VerificationRow>(`SELECT ${COLUMNS} FROM "ConstituentVerification" WHERE "linkTokenHash" = $1 FOR UPDATE`, [hash])).rows[0];
    if (!usable(row) || row.method !== 'LINK' || row.dataRecordId === null) return { ok: false, error: new VerificationUnusableError() };
    return { ok: true, tokens: await consume(ctx, db, row, input) };
  });
  if (!outcome.ok) throw outcome.error;
  return outcome.tokens;
}

/** Uses the verification up and opens the session, in the caller's transaction (the row is locked). */
async function consume(ctx: RequestContext, db: pg.PoolClient, row: VerificationRow, device: Device): Promise<ConstituentTokens> {
  await db.query(`UPDATE "ConstituentVerification" SET state = 'CONSUMED', "consumedAt" = now() WHERE "teamId" = $2 AND id = $1`, [row.id, row.teamId]);
  const tokens = newTokens(ctx);
  const session = await db.query<{ id: string }>(
    `INSERT INTO "ConstituentSession" ("simplyId", "teamId", "dataRecordId", platform, "deviceName", "accessTokenHash", "accessExpiresAt", "refreshExpiresAt")
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
    [constituentSessionId.create(), row.teamId, row.dataRecordId, device.platform ?? null, device.deviceName ?? null, hashToken(tokens.accessToken), tokens.accessTokenExpiresAt.toISOString(), tokens.refreshTokenExpiresAt.toISOString()],
  );
  await db.query(`INSERT INTO "ConstituentRefreshToken" ("teamId", "sessionId", "tokenHash") VALUES ($1, $2, $3)`, [row.teamId, session.rows[0]!.id, hashToken(tokens.refreshToken)]);
  return tokens;
}

function newTokens(ctx: RequestContext): ConstituentTokens {
  const { secrets } = ctx.services.constituentAuth;
  const now = Date.now();
  return {
    accessToken: secrets.newAccessToken(),
    refreshToken: secrets.newRefreshToken(),
    accessTokenExpiresAt: new Date(now + ACCESS_TTL_MS),
    refreshTokenExpiresAt: new Date(now + REFRESH_TTL_MS),
  };
}

interface RefreshRow {
  id: string;
  teamId: string;
  sessionId: string;
  rotatedAt: Date | null;
  revokedAt: Date | null;
  refreshExpiresAt: Date;
}

/**
 * POST /refresh: a new access token and refresh token; the old pair stops working. A refresh token
 * that was already exchanged, presented again, ends the session (whoever holds the newer pair must
 * sign in again): one of the two presenters is not the constituent.
 */
export async function refresh(ctx: RequestContext, raw: unknown): Promise<ConstituentTokens> {
  const { refreshToken } = parseInput(refreshInput, raw, 'Invalid refresh');
  const { pool } = ctx.services;
  const hash = hashToken(refreshToken);
  const found = refreshToken.startsWith(CONSTITUENT_REFRESH_TOKEN_PREFIX)
    ? (
        await pool.query<RefreshRow>(
          `SELECT t.id, t."teamId", t."sessionId", t."rotatedAt", s."revokedAt", s."refreshExpiresAt"
             FROM "ConstituentRefreshToken" t JOIN "ConstituentSession" s ON s."teamId" = t."teamId" AND s.id = t."sessionId"
            WHERE t."tokenHash" = $1`,
          [hash],
        )
      ).rows[0]
    : undefined;
  // per token: the chain of refresh tokens of one session shares a counter; an unknown token counts on its own
  await takeFromWindow(pool, { bucket: found ? `constituent-auth:refresh:session:${found.sessionId}` : `constituent-auth:refresh:token:${hash}`, ...REFRESH_PER_TOKEN });
  if (!found || found.revokedAt || found.refreshExpiresAt.getTime() <= Date.now()) {
    throw new UnauthenticatedError('The refresh token is not valid or has expired');
  }
  const outcome = await inTransaction(pool, async (db): Promise<ConstituentTokens | null> => {
    // the claim: of two concurrent uses only one wins, the other is reuse
    const claimed = await db.query(`UPDATE "ConstituentRefreshToken" SET "rotatedAt" = now() WHERE "teamId" = $2 AND id = $1 AND "rotatedAt" IS NULL`, [found.id, found.teamId]);
    if (claimed.rowCount === 0) return null;
    const tokens = newTokens(ctx);
    const live = await db.query(
      `UPDATE "ConstituentSession" SET "accessTokenHash" = $2, "accessExpiresAt" = $3, "refreshExpiresAt" = $4, "lastActiveAt" = now()
        WHERE "teamId" = $5 AND id = $1 AND "revokedAt" IS NULL`,
      [found.sessionId, hashToken(tokens.accessToken), tokens.accessTokenExpiresAt.toISOString(), tokens.refreshTokenExpiresAt.toISOString(), found.teamId],
    );
    if (live.rowCount === 0) return null;
    await db.query(`INSERT INTO "ConstituentRefreshToken" ("teamId", "sessionId", "tokenHash") VALUES ($1, $2, $3)`, [found.teamId, found.sessionId, hashToken(tokens.refreshToken)]);
    return tokens;
  });
  if (!outcome) {
    await revokeSession(pool, { teamId: BigInt(found.teamId), id: BigInt(found.sessionId) }, 'REFRESH_REUSE');
    throw new UnauthenticatedError('The refresh token was already used; its session has been ended');
  }
  return outcome;
}

async function revokeSession(pool: pg.Pool, session: { teamId: bigint; id: bigint }, reason: string): Promise<boolean> {
  const result = await pool.query(`UPDATE "ConstituentSession" SET "revokedAt" = now(), "revokedReason" = $2 WHERE "teamId" = $3 AND id = $1 AND "revokedAt" IS NULL`, [
    String(session.id),
    reason,
    String(session.teamId),
  ]);
  return (result.rowCount ?? 0) > 0;
}

function constituentOf(ctx: RequestContext) {
  const constituent = ctx.principal.constituent;
  // the `constituent` tier let only constituent tokens through
  if (!constituent) throw new UnauthenticatedError();
  return constituent;
}

/** POST /logout: ends the session of the access token used (its refresh token stops working too). */
export async function logout(ctx: RequestContext): Promise<boolean> {
  await revokeSession(ctx.services.pool, { teamId: requireTeam(ctx).id, id: constituentOf(ctx).sessionId }, 'LOGOUT');
  return true;
}

export interface ConstituentProfile {
  simplyId: string;
  sessions: { sessionSimplyId: string; platform: string | null; deviceName: string | null; lastActiveAt: Date; createdAt: Date; current: boolean }[];
}

/** GET /me: the constituent's record and their open sessions (most recently active first). */
export async function me(ctx: RequestContext): Promise<ConstituentProfile> {
  const constituent = constituentOf(ctx);
  const teamId = ctx.principal.team!.id;
  const { pool } = ctx.services;
  const [simplyIds, sessions] = await Promise.all([
    recordSimplyIds(pool, teamId, [constituent.dataRecordId]),
    pool.query<{ id: string; simplyId: string; platform: string | null; deviceName: string | null; lastActiveAt: Date; createdAt: Date }>(
      `SELECT id, "simplyId", platform, "deviceName", "lastActiveAt", "createdAt" FROM "ConstituentSession"
        WHERE "teamId" = $1 AND "dataRecordId" = $2 AND "revokedAt" IS NULL AND "refreshExpiresAt" > now()
        ORDER BY "lastActiveAt" DESC, id DESC LIMIT 100`,
      [String(teamId), String(constituent.dataRecordId)],
    ),
  ]);
  return {
    simplyId: simplyIds.get(constituent.dataRecordId) ?? '',
    sessions: sessions.rows.map((s) => ({
      sessionSimplyId: s.simplyId,
      platform: s.platform,
      deviceName: s.deviceName,
      lastActiveAt: s.lastActiveAt,
      createdAt: s.createdAt,
      current: BigInt(s.id) === constituent.sessionId,
    })),
  };
}
