// The statements of the signing area's write paths. They run on the caller's pg connection so the
// state change, the audit events, the invitation mails and their history rows commit together.
import type pg from 'pg';

export interface RequestRow {
  id: bigint;
  simplyId: string;
  teamId: bigint;
  status: string;
  sourceCollectionId: bigint;
  sourceRecordId: bigint;
  reviewFieldSimplyIds: string[];
  signatureFieldSimplyIds: string[];
  fileTarget: { fileFieldSimplyId: string; fileSimplyId?: string | null; sourceFileVersionNumber?: number | null } | null;
  signingProfileSimplyId: string | null;
  signingWizardSimplyId: string | null;
  contentTemplateId: bigint | null;
  consentText: Record<string, string> | null;
  consentVersion: string | null;
  signingBaseUrl: string | null;
  expiresAt: Date;
  voidedAt: Date | null;
  voidReason: string | null;
  completedAt: Date | null;
  sourceDocumentSha256: string | null;
  completedDocumentSha256: string | null;
  signedFileId: bigint | null;
  signedFileVersionNumber: number | null;
  createdByKind: string;
  createdById: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface SignerRow {
  id: bigint;
  simplyId: string;
  teamId: bigint;
  signingRequestId: bigint;
  roleKey: string;
  name: string | null;
  email: string | null;
  signingOrder: number;
  status: string;
  internalTeamUserLinkSimplyId: string | null;
  linkedConstituentRecordId: bigint | null;
  linkTokenHash: string | null;
  linkIssuedAt: Date | null;
  linkExpiresAt: Date | null;
  signedAt: Date | null;
  declinedAt: Date | null;
  declineReason: string | null;
  typedName: string | null;
  signatureImage: Buffer | null;
  consentVersionAccepted: string | null;
}

export interface EventDraft {
  signerId: bigint | null;
  eventType: string;
  ipAddress?: string | null;
  userAgent?: string | null;
  detail?: Record<string, unknown> | null;
}

// pg returns BIGINT columns as strings; the rows here carry bigints like Prisma's
export function requestOf(row: Record<string, unknown>): RequestRow {
  const r = row as unknown as RequestRow;
  return {
    ...r,
    id: BigInt(row.id as string),
    teamId: BigInt(row.teamId as string),
    sourceCollectionId: BigInt(row.sourceCollectionId as string),
    sourceRecordId: BigInt(row.sourceRecordId as string),
    contentTemplateId: row.contentTemplateId == null ? null : BigInt(row.contentTemplateId as string),
    signedFileId: row.signedFileId == null ? null : BigInt(row.signedFileId as string),
  };
}

export function signerOf(row: Record<string, unknown>): SignerRow {
  const s = row as unknown as SignerRow;
  return {
    ...s,
    id: BigInt(row.id as string),
    teamId: BigInt(row.teamId as string),
    signingRequestId: BigInt(row.signingRequestId as string),
    linkedConstituentRecordId: row.linkedConstituentRecordId == null ? null : BigInt(row.linkedConstituentRecordId as string),
  };
}

/** A request's internal key: every statement names the team as well as the row. */
export interface RequestKey {
  teamId: bigint;
  id: bigint;
}

/** The request, locked until the transaction ends: every state move of one request takes turns. */
export async function lockRequest(db: pg.PoolClient, key: RequestKey): Promise<RequestRow | null> {
  const { rows } = await db.query(`SELECT * FROM "SigningRequest" WHERE "teamId" = $1 AND id = $2 FOR UPDATE`, [key.teamId, key.id]);
  return rows[0] ? requestOf(rows[0]) : null;
}

export async function findRequestById(db: pg.Pool | pg.PoolClient, key: RequestKey): Promise<RequestRow | null> {
  const { rows } = await db.query(`SELECT * FROM "SigningRequest" WHERE "teamId" = $1 AND id = $2`, [key.teamId, key.id]);
  return rows[0] ? requestOf(rows[0]) : null;
}

export async function findRequestBySimplyId(db: pg.Pool | pg.PoolClient, teamId: bigint, simplyId: string): Promise<RequestRow | null> {
  const { rows } = await db.query(`SELECT * FROM "SigningRequest" WHERE "teamId" = $1 AND "simplyId" = $2`, [teamId, simplyId]);
  return rows[0] ? requestOf(rows[0]) : null;
}

export async function signersOf(db: pg.Pool | pg.PoolClient, key: RequestKey): Promise<SignerRow[]> {
  const { rows } = await db.query(`SELECT * FROM "SigningRequestSigner" WHERE "teamId" = $1 AND "signingRequestId" = $2 ORDER BY "signingOrder", id`, [key.teamId, key.id]);
  return rows.map(signerOf);
}

/** The signer a link token opens (its hash), with the request id; null when no live link has it. */
export async function signerByTokenHash(db: pg.Pool | pg.PoolClient, hash: string): Promise<SignerRow | null> {
  const { rows } = await db.query(`SELECT * FROM "SigningRequestSigner" WHERE "linkTokenHash" = $1`, [hash]);
  return rows[0] ? signerOf(rows[0]) : null;
}

export async function insertRequest(db: pg.PoolClient, r: Omit<RequestRow, 'id' | 'createdAt' | 'updatedAt' | 'voidedAt' | 'voidReason' | 'completedAt' | 'sourceDocumentSha256' | 'completedDocumentSha256' | 'signedFileId' | 'signedFileVersionNumber'>): Promise<RequestRow> {
  const { rows } = await db.query(
    `INSERT INTO "SigningRequest" ("simplyId", "teamId", status, "sourceCollectionId", "sourceRecordId", "reviewFieldSimplyIds", "signatureFieldSimplyIds",
       "fileTarget", "signingProfileSimplyId", "signingWizardSimplyId", "contentTemplateId", "consentText", "consentVersion", "signingBaseUrl", "expiresAt",
       "createdByKind", "createdById", "updatedAt")
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, now()) RETURNING *`,
    [
      r.simplyId, r.teamId, r.status, r.sourceCollectionId, r.sourceRecordId, r.reviewFieldSimplyIds, r.signatureFieldSimplyIds,
      r.fileTarget === null ? null : JSON.stringify(r.fileTarget), r.signingProfileSimplyId, r.signingWizardSimplyId, r.contentTemplateId,
      r.consentText === null ? null : JSON.stringify(r.consentText), r.consentVersion, r.signingBaseUrl, r.expiresAt, r.createdByKind, r.createdById,
    ],
  );
  return requestOf(rows[0]);
}

export interface SignerDraft {
  simplyId: string;
  roleKey: string;
  name: string | null;
  email: string;
  signingOrder: number;
  internalTeamUserLinkSimplyId: string | null;
  linkedConstituentRecordId: bigint | null;
}

export async function insertSigners(db: pg.PoolClient, request: RequestRow, signers: readonly SignerDraft[]): Promise<SignerRow[]> {
  const { rows } = await db.query(
    `INSERT INTO "SigningRequestSigner" ("simplyId", "teamId", "signingRequestId", "roleKey", name, email, "signingOrder", status,
       "internalTeamUserLinkSimplyId", "linkedConstituentRecordId", "updatedAt")
     SELECT s."simplyId", $1, $2, s."roleKey", s.name, s.email, s."signingOrder", 'WAITING', s.tul, s.lc, now()
       FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::int[], $8::text[], $9::bigint[])
         AS s("simplyId", "roleKey", name, email, "signingOrder", tul, lc)
     RETURNING *`,
    [
      request.teamId, request.id, signers.map((s) => s.simplyId), signers.map((s) => s.roleKey), signers.map((s) => s.name), signers.map((s) => s.email),
      signers.map((s) => s.signingOrder), signers.map((s) => s.internalTeamUserLinkSimplyId), signers.map((s) => s.linkedConstituentRecordId),
    ],
  );
  return rows.map(signerOf).sort((a, b) => a.signingOrder - b.signingOrder || Number(a.id - b.id));
}

export async function insertEvents(db: pg.PoolClient, request: Pick<RequestRow, 'id' | 'teamId'>, events: readonly EventDraft[]): Promise<void> {
  if (events.length === 0) return;
  await db.query(
    `INSERT INTO "SigningRequestEvent" ("teamId", "signingRequestId", "signerId", "eventType", "ipAddress", "userAgent", detail)
     SELECT $1, $2, e.signer, e.type, e.ip, e.ua, e.detail FROM unnest($3::bigint[], $4::text[], $5::text[], $6::text[], $7::jsonb[]) WITH ORDINALITY AS e(signer, type, ip, ua, detail, n)
     ORDER BY e.n`,
    [
      request.teamId, request.id, events.map((e) => e.signerId), events.map((e) => e.eventType), events.map((e) => e.ipAddress || null),
      events.map((e) => e.userAgent || null), events.map((e) => (e.detail ? JSON.stringify(e.detail) : null)),
    ],
  );
}

export async function setRequestStatus(db: pg.PoolClient, key: RequestKey, status: string, extra: { voidReason?: string | null; completedAt?: boolean } = {}): Promise<void> {
  await db.query(
    `UPDATE "SigningRequest" SET status = $2, "updatedAt" = now(),
       "voidedAt" = CASE WHEN $2 = 'VOIDED' THEN now() ELSE "voidedAt" END,
       "voidReason" = CASE WHEN $2 = 'VOIDED' THEN $3 ELSE "voidReason" END,
       "completedAt" = CASE WHEN $4 THEN now() ELSE "completedAt" END
     WHERE "teamId" = $5 AND id = $1`,
    [key.id, status, extra.voidReason ?? null, extra.completedAt === true, key.teamId],
  );
}

/** Every link of the request stops working (a terminal state). */
export async function disableLinks(db: pg.PoolClient, key: RequestKey): Promise<void> {
  await db.query(`UPDATE "SigningRequestSigner" SET "linkTokenHash" = NULL, "updatedAt" = now() WHERE "teamId" = $1 AND "signingRequestId" = $2 AND "linkTokenHash" IS NOT NULL`, [key.teamId, key.id]);
}

/**
 * Moves in-flight requests whose expiry has passed to EXPIRED (one team's, one request, or all),
 * disables their links and records an EXPIRED event; answers how many moved. The conditional
 * update makes concurrent sweeps and reads expire each request once.
 */
export async function expireDue(db: pg.Pool | pg.PoolClient, scope: { teamId?: bigint; request?: RequestKey } = {}): Promise<number> {
  const { rows } = await db.query(
    `WITH expired AS (
       UPDATE "SigningRequest" SET status = 'EXPIRED', "updatedAt" = now()
        WHERE status IN ('CREATED', 'SENT', 'VIEWED', 'PARTIALLY_SIGNED') AND "expiresAt" <= now()
          AND ($1::bigint IS NULL OR "teamId" = $1) AND ($2::bigint IS NULL OR ("teamId" = $3 AND id = $2))
        RETURNING id, "teamId"
     ), links AS (
       UPDATE "SigningRequestSigner" s SET "linkTokenHash" = NULL, "updatedAt" = now() FROM expired e WHERE s."teamId" = e."teamId" AND s."signingRequestId" = e.id AND s."linkTokenHash" IS NOT NULL
     ), events AS (
       INSERT INTO "SigningRequestEvent" ("teamId", "signingRequestId", "eventType") SELECT "teamId", id, 'EXPIRED' FROM expired
     )
     SELECT count(*)::int AS n FROM expired`,
    [scope.teamId ?? null, scope.request?.id ?? null, scope.request?.teamId ?? null],
  );
  return rows[0].n as number;
}
