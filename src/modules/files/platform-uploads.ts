// Files that arrive from outside without a credential (an inbound email's attachments): stored as
// an upload the platform made (credentialKind PLATFORM) and sent through the same promotion as any
// upload (file-promotion.ts: checksum, content inspection against the declared type, malware
// scan, the team's storage limit), so nobody can fetch the bytes before they passed. The upload
// row and its promotion job are written on the caller's connection: they exist only if the
// caller's transaction commits (an object written for a transaction that rolled back is left for
// the storage's own clean-up of unreferenced upload keys).
import { createHash } from 'node:crypto';
import type pg from 'pg';
import type { Services } from '../../app/context.ts';
import { onConnection } from '../../app/jobs.ts';
import { allowedType, maxBytesFor } from './files.allowlist.ts';
import { fileUploadId } from './files.ids.ts';
import { PROMOTE_UPLOAD, type PromoteUploadJob } from './file-promotion.ts';
import { uploadObjectKey } from './storage/storage-keys.ts';

/** `createdByKind`/credentialKind of uploads the platform received on someone's behalf. */
export const PLATFORM_UPLOADER = 'PLATFORM';
/** how long a platform upload may wait for its promotion before the sweeper ends it */
const PLATFORM_UPLOAD_TTL_MS = 24 * 60 * 60 * 1000;

export interface PlatformUploadInput {
  teamId: bigint;
  teamSimplyId: string;
  filename: string;
  contentType: string;
  bytes: Buffer;
  /** who it came for, e.g. `conversation-email:<message simplyId>` (the upload's credentialId) */
  origin: string;
}

/** Why a part is not staged at all: a type outside the allowlist, or over the type's size cap. */
export function platformUploadRefusal(contentType: string, sizeBytes: number): string | null {
  const type = allowedType(contentType);
  if (!type) return 'UNSUPPORTED_TYPE';
  if (sizeBytes < 1 || sizeBytes > maxBytesFor(type)) return 'TOO_LARGE';
  return null;
}

/** Writes the bytes and a PENDING upload with its promotion job (on `db`); answers the upload's simplyId. */
export async function stagePlatformUpload(services: Services, db: pg.PoolClient, input: PlatformUploadInput): Promise<string> {
  const simplyId = fileUploadId.create();
  const storageKey = uploadObjectKey(input.teamSimplyId);
  const checksum = createHash('sha256').update(input.bytes).digest('base64');
  // the binding the promotion checks: the object carries its upload and team
  await services.fileStorage.write(storageKey, input.bytes, { contentType: input.contentType, metadata: { uploadSimplyId: simplyId, teamSimplyId: input.teamSimplyId } });
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO "FileUpload" ("simplyId", "teamId", "credentialKind", "credentialId", filename, "contentType", "fileSizeBytes", "checksumSha256",
       "storageKey", status, "expiresAt", "completeRequestedAt", "createdAt", "updatedAt")
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'PENDING', $10, now(), now(), now())
     RETURNING id::text`,
    [simplyId, input.teamId, PLATFORM_UPLOADER, input.origin.slice(0, 200), input.filename, input.contentType, input.bytes.length, checksum, storageKey, new Date(Date.now() + PLATFORM_UPLOAD_TTL_MS)],
  );
  const job: PromoteUploadJob = { uploadId: rows[0]!.id };
  await services.jobs.boss.send(PROMOTE_UPLOAD, job, { singletonKey: simplyId, db: onConnection(db) });
  return simplyId;
}

export interface PlatformUploadOutcome {
  uploadSimplyId: string;
  /** PENDING while inspected, COMPLETED (fileSimplyId set), REJECTED or EXPIRED */
  status: string;
  fileSimplyId: string | null;
  rejectionReason: string | null;
}

/** The state of uploads of the team by simplyId, in one statement. */
export async function platformUploadOutcomes(db: pg.Pool | pg.PoolClient, teamId: bigint, uploadSimplyIds: readonly string[]): Promise<Map<string, PlatformUploadOutcome>> {
  if (uploadSimplyIds.length === 0) return new Map();
  const { rows } = await db.query<PlatformUploadOutcome>(
    `SELECT u."simplyId" AS "uploadSimplyId", u.status, f."simplyId" AS "fileSimplyId", u."rejectionReason"
       FROM "FileUpload" u LEFT JOIN "StoredFile" f ON f.id = u."fileId" AND f."teamId" = u."teamId"
      WHERE u."teamId" = $1 AND u."simplyId" = ANY($2::text[])`,
    [teamId, uploadSimplyIds],
  );
  return new Map(rows.map((r) => [r.uploadSimplyId, r]));
}
