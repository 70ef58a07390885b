// The SQL of public access tokens where Prisma would take more round trips: the rotating write
// (one statement that also says whether a token was replaced) and the lookup every public request
// makes (the token and its view in one indexed read). Every other read and write goes through Prisma.
import type pg from 'pg';
import type { DataViewType } from '../../generated/prisma/client.ts';
import type { TokenType } from './views.public-tokens.input.ts';

export interface NewPublicToken {
  teamId: bigint;
  viewId: bigint;
  tokenType: TokenType;
  tokenHash: string;
  tokenHint: string;
  allowedOrigins: readonly string[];
  createdByKind: string;
  createdById: string | null;
}

/**
 * Stores the view's one token of the type: a new row, or the existing one replaced (new secret,
 * creator, origins; lastUsedAt cleared), so the old secret stops working in the same commit.
 * `rotated`: a token was replaced. Throws the foreign-key violation (23503) when the view is gone.
 */
export async function upsertPublicToken(db: pg.Pool, t: NewPublicToken): Promise<{ createdAt: Date; rotated: boolean }> {
  const { rows } = await db.query(
    `INSERT INTO "DataViewPublicToken" ("teamId", "viewId", "tokenType", "tokenHash", "tokenHint", "allowedOrigins", "createdByKind", "createdById")
     VALUES ($1, $2, $3::"DataViewTokenType", $4, $5, $6::text[], $7, $8)
     ON CONFLICT ("teamId", "viewId", "tokenType") DO UPDATE
       SET "tokenHash" = EXCLUDED."tokenHash", "tokenHint" = EXCLUDED."tokenHint", "allowedOrigins" = EXCLUDED."allowedOrigins",
           "createdByKind" = EXCLUDED."createdByKind", "createdById" = EXCLUDED."createdById", "createdAt" = now(), "lastUsedAt" = NULL
     RETURNING "createdAt", (xmax <> 0) AS rotated`,
    [t.teamId, t.viewId, t.tokenType, t.tokenHash, t.tokenHint, t.allowedOrigins, t.createdByKind, t.createdById],
  );
  return { createdAt: rows[0].createdAt as Date, rotated: rows[0].rotated === true };
}

/** A view as a public request needs it. */
export interface SharedViewRow {
  id: bigint;
  teamId: bigint;
  simplyId: string;
  collectionId: bigint;
  name: unknown;
  viewType: DataViewType;
  isPublished: boolean;
  config: unknown;
  updatedAt: Date;
}

export interface PublicTokenHit {
  tokenId: bigint;
  tokenType: TokenType;
  allowedOrigins: string[];
  lastUsedAt: Date | null;
  view: SharedViewRow;
}

const VIEW_COLUMNS = `v.id AS "viewId", v."teamId", v."simplyId", v."collectionId", v.name, v."viewType", v."isPublished", v.config, v."updatedAt"`;

function viewOf(r: Record<string, any>): SharedViewRow {
  return {
    id: BigInt(r.viewId),
    teamId: BigInt(r.teamId),
    simplyId: r.simplyId,
    collectionId: BigInt(r.collectionId),
    name: r.name,
    viewType: r.viewType,
    isPublished: r.isPublished === true,
    config: r.config,
    updatedAt: r.updatedAt,
  };
}

/** The token with this hash and its view (one unique-index read), or null. */
export async function findPublicToken(db: pg.Pool, tokenHash: string): Promise<PublicTokenHit | null> {
  const { rows } = await db.query({
    name: 'svc_view_public_token',
    text: `SELECT t.id AS "tokenId", t."tokenType", t."allowedOrigins", t."lastUsedAt", ${VIEW_COLUMNS}
             FROM "DataViewPublicToken" t JOIN "DataView" v ON v."teamId" = t."teamId" AND v.id = t."viewId"
            WHERE t."tokenHash" = $1`,
    values: [tokenHash],
  });
  const r = rows[0];
  if (!r) return null;
  return { tokenId: BigInt(r.tokenId), tokenType: r.tokenType, allowedOrigins: r.allowedOrigins ?? [], lastUsedAt: r.lastUsedAt, view: viewOf(r) };
}

/** A view of the team by its simplyId (internal tokens name it), or null. */
export async function findViewOfTeam(db: pg.Pool, teamId: bigint, viewSimplyId: string): Promise<SharedViewRow | null> {
  const { rows } = await db.query(`SELECT ${VIEW_COLUMNS} FROM "DataView" v WHERE v."teamId" = $1 AND v."simplyId" = $2`, [teamId, viewSimplyId]);
  return rows[0] ? viewOf(rows[0]) : null;
}

/** How stale lastUsedAt may get: a busy feed writes it once a minute, not on every poll. */
const LAST_USED_RESOLUTION_SECONDS = 60;

export function shouldTouch(lastUsedAt: Date | null, now = Date.now()): boolean {
  return lastUsedAt === null || now - lastUsedAt.getTime() >= LAST_USED_RESOLUTION_SECONDS * 1000;
}

/** Marks the token used now (unless another request just did). */
export async function touchPublicToken(db: pg.Pool, teamId: bigint, tokenId: bigint): Promise<void> {
  await db.query(
    `UPDATE "DataViewPublicToken" SET "lastUsedAt" = now()
      WHERE "teamId" = $1 AND id = $2 AND ("lastUsedAt" IS NULL OR "lastUsedAt" < now() - make_interval(secs => $3))`,
    [teamId, tokenId, LAST_USED_RESOLUTION_SECONDS],
  );
}
