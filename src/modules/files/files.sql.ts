// The statements of the files area where SQL says it better than Prisma: storage sums, the file
// list, and (asked of the kernel, which owns record storage) whether a readable record references a file.
import type pg from 'pg';
import type { Services } from '../../app/context.ts';
import { type CollectionField, valuesHeldInFields } from '../../kernel/index.ts';

export interface TeamStorage {
  usedBytes: bigint;
  quotaBytes: bigint;
  /** the team's own limit, or null when the configured default applies */
  teamQuotaBytes: bigint | null;
}

/** Bytes the team stores (every version, soft-deleted files included, and every variant) and its limit. */
export async function teamStorage(services: Services, teamId: bigint, db: pg.Pool | pg.PoolClient = services.pool): Promise<TeamStorage> {
  const { rows } = await db.query<{ used: string; quota: string | null }>(
    `SELECT (SELECT COALESCE(SUM("fileSizeBytes"), 0) FROM "FileVersion" WHERE "teamId" = $1)
          + (SELECT COALESCE(SUM("fileSizeBytes"), 0) FROM "FileVariant" WHERE "teamId" = $1) AS used,
            (SELECT "quotaBytes" FROM "TeamStorageQuota" WHERE "teamId" = $1) AS quota`,
    [teamId],
  );
  const teamQuota = rows[0]!.quota === null ? null : BigInt(rows[0]!.quota);
  return { usedBytes: BigInt(rows[0]!.used), quotaBytes: teamQuota ?? BigInt(services.config.FILE_STORAGE_QUOTA_BYTES), teamQuotaBytes: teamQuota };
}

export interface StorageBreakdown {
  fileCount: number;
  deletedFileCount: number;
  versionBytes: bigint;
  variantBytes: bigint;
  deletedBytes: bigint;
}

export async function storageBreakdown(pool: pg.Pool, teamId: bigint): Promise<StorageBreakdown> {
  const { rows } = await pool.query<{ files: string; deleted: string; versions: string; variants: string; deleted_bytes: string }>(
    `SELECT (SELECT COUNT(*) FROM "StoredFile" WHERE "teamId" = $1 AND "deletedAt" IS NULL) AS files,
            (SELECT COUNT(*) FROM "StoredFile" WHERE "teamId" = $1 AND "deletedAt" IS NOT NULL) AS deleted,
            (SELECT COALESCE(SUM("fileSizeBytes"), 0) FROM "FileVersion" WHERE "teamId" = $1) AS versions,
            (SELECT COALESCE(SUM("fileSizeBytes"), 0) FROM "FileVariant" WHERE "teamId" = $1) AS variants,
            (SELECT COALESCE(SUM(v."fileSizeBytes"), 0) FROM "FileVersion" v JOIN "StoredFile" f ON f.id = v."fileId"
              WHERE v."teamId" = $1 AND f."deletedAt" IS NOT NULL) AS deleted_bytes`,
    [teamId],
  );
  const r = rows[0]!;
  return { fileCount: Number(r.files), deletedFileCount: Number(r.deleted), versionBytes: BigInt(r.versions), variantBytes: BigInt(r.variants), deletedBytes: BigInt(r.deleted_bytes) };
}

/** A file or image field the caller may read, on the records of one collection. */
export type ReadableFileField = CollectionField;

/**
 * The file simplyIds among `ids` that a live record holds in one of `fields` (a file or image
 * field the caller may read). Values are `"file-…"` or arrays of them (collections/values); a file
 * id typed into any other field grants nothing.
 */
export async function filesReferencedByRecords(pool: pg.Pool, teamId: bigint, ids: readonly string[], fields: readonly ReadableFileField[]): Promise<Set<string>> {
  return valuesHeldInFields(pool, teamId, ids, fields);
}

/** fileType by simplyId of the team's live files among `ids` (record values must name these). */
export async function findLiveFileKinds(db: pg.Pool | pg.PoolClient, teamId: bigint, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const { rows } = await db.query<{ simplyId: string; fileType: string }>(
    `SELECT "simplyId", "fileType" FROM "StoredFile" WHERE "teamId" = $1 AND "simplyId" = ANY($2::text[]) AND "deletedAt" IS NULL`,
    [teamId, ids],
  );
  return new Map(rows.map((r) => [r.simplyId, r.fileType]));
}
