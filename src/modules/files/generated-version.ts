// Documents the platform produces itself (the signed PDF of a signing request) stored as files:
// no upload intent and no malware scan, since no outside party supplied the bytes, but the same
// storage, the same version rows (file-version-commit.ts), the team's storage limit and the
// record field's rules. Also reading a version's bytes back for the platform's own use.
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Services } from '../../app/context.ts';
import { NotFoundError, ValidationError } from '../../app/errors.ts';
import { runTransaction } from '../../app/transaction.ts';
import { findRecordsById } from '../../kernel/index.ts';
import { allowedType, maxBytesFor } from './files.allowlist.ts';
import { StorageLimitExceededError } from './files.errors.ts';
import { fileId } from './files.ids.ts';
import { teamStorage } from './files.sql.ts';
import { commitStoredContent, lockTeamStorage, type CommitOutcome } from './file-version-commit.ts';
import { uploadObjectKey } from './storage/storage-keys.ts';

/** `createdByKind` of files and versions the platform wrote (no credential uploaded them). */
export const PLATFORM_CREATOR = 'PLATFORM';

const PDF_MAGIC = Buffer.from('%PDF-');
/** a PDF is not an image: only the file types of fields may hold one */
const PDF_FIELD_TYPES = new Set(['SINGLE_FILE', 'MULTI_FILE']);

async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

async function liveFile(services: Services, teamId: bigint, simplyId: string) {
  const file = fileId.is(simplyId) ? await services.prisma.storedFile.findUnique({ where: { teamId_simplyId: { teamId, simplyId } } }) : null;
  if (!file || file.deletedAt) throw new NotFoundError('File', simplyId);
  return file;
}

/** The bytes of one version of a live file of the team (the current one by default); 404 for anything else. */
export async function readFileVersionBytes(services: Services, teamId: bigint, fileSimplyId: string, versionNumber?: number): Promise<{ bytes: Buffer; contentType: string; versionNumber: number }> {
  const file = await liveFile(services, teamId, fileSimplyId);
  const wanted = versionNumber ?? file.currentVersionNumber;
  const version = Number.isInteger(wanted) && wanted >= 1
    ? await services.prisma.fileVersion.findUnique({ where: { fileId_versionNumber: { fileId: file.id, versionNumber: wanted } } })
    : null;
  if (!version) throw new NotFoundError(`Version ${wanted} of file`, fileSimplyId);
  return { bytes: await collect(await services.fileStorage.read(version.storageKey)), contentType: version.mimeType, versionNumber: wanted };
}

export interface GeneratedFileInput {
  teamId: bigint;
  dataRecordId: bigint;
  fileFieldSimplyId: string;
  fileSimplyId?: string | null;
  filename: string;
  contentType: 'application/pdf';
  bytes: Buffer;
}

/** The record's file field, checked: a live record of the team whose collection carries a file field of that id. */
async function recordFileField(services: Services, input: GeneratedFileInput): Promise<{ value: unknown; dataType: string; maxItems: number | null }> {
  const [record] = await findRecordsById(services.pool, input.teamId, [input.dataRecordId]);
  if (!record || record.deletedAt) throw new NotFoundError('Record');
  const schema = await services.schemas.get(input.teamId);
  const collection = schema.collectionsById.get(record.collectionId);
  const field = collection ? schema.fieldsOf(collection).find((f) => f.dataFieldSimplyId === input.fileFieldSimplyId) : undefined;
  if (!field) throw new NotFoundError('File field', input.fileFieldSimplyId);
  if (!PDF_FIELD_TYPES.has(field.dataType)) {
    throw new ValidationError('A PDF can only be stored in a file field', [{ field: 'fileFieldSimplyId', message: `${input.fileFieldSimplyId} is a ${field.dataType} field, not SINGLE_FILE or MULTI_FILE` }]);
  }
  const maxItems = typeof field.config.maxItems === 'number' ? field.config.maxItems : null;
  return { value: record.values[field.dataFieldSimplyId], dataType: field.dataType, maxItems };
}

function fieldHolds(value: unknown, simplyId: string): boolean {
  return value === simplyId || (Array.isArray(value) && value.includes(simplyId));
}

function checkContent(input: GeneratedFileInput): void {
  const type = allowedType(input.contentType);
  if (!type) throw new ValidationError('Unsupported content type', [{ field: 'contentType', message: `${input.contentType} is not in the allowlist` }]);
  if (input.bytes.length < 1 || input.bytes.length > maxBytesFor(type)) {
    throw new ValidationError('The document is empty or too large', [{ field: 'bytes', message: `must be 1 to ${maxBytesFor(type)} bytes` }]);
  }
  if (!input.bytes.subarray(0, 1024).includes(PDF_MAGIC)) throw new ValidationError('The document is not a PDF', [{ field: 'bytes', message: 'does not start like a PDF' }]);
  const name = input.filename.trim();
  if (!name || name.length > 255 || /[/\\\p{Cc}]/u.test(name) || name === '.' || name === '..') {
    throw new ValidationError('Invalid filename', [{ field: 'filename', message: '1-255 characters without /, \\ or control characters' }]);
  }
}

/**
 * A version this very content already became (same file target, same SHA-256, written by the
 * platform): a completion retried after a crash finds it instead of adding a second one. The
 * signed PDF is a function of its input, so a retry produces identical bytes.
 */
async function alreadyStored(services: Services, teamId: bigint, checksum: string, filename: string, fileRowId: bigint | null): Promise<{ fileSimplyId: string; versionNumber: number } | null> {
  const version = await services.prisma.fileVersion.findFirst({
    where: {
      teamId,
      checksumSha256: checksum,
      createdByKind: PLATFORM_CREATOR,
      ...(fileRowId === null ? { versionNumber: 1, filename, file: { createdByKind: PLATFORM_CREATOR, deletedAt: null } } : { fileId: fileRowId }),
    },
    include: { file: { select: { simplyId: true } } },
    orderBy: { id: 'asc' },
  });
  return version ? { fileSimplyId: version.file.simplyId, versionNumber: version.versionNumber } : null;
}

/**
 * Stores bytes the platform produced as the next version of `fileSimplyId` (which the record's
 * file field must hold), or as a new file when none is given. It does not write the record: the
 * caller puts a new file's id into the field through the records service, so the change is
 * audited and fires the record's events (see fieldValueWithFile).
 */
export async function storeGeneratedFileVersion(services: Services, input: GeneratedFileInput): Promise<{ fileSimplyId: string; versionNumber: number }> {
  checkContent(input);
  const field = await recordFileField(services, input);
  let target: { id: bigint } | null = null;
  if (input.fileSimplyId) {
    const file = await liveFile(services, input.teamId, input.fileSimplyId);
    if (!fieldHolds(field.value, input.fileSimplyId)) {
      throw new ValidationError('The file is not attached to the record field', [{ field: 'fileSimplyId', message: `${input.fileSimplyId} is not held by field ${input.fileFieldSimplyId} of the record` }]);
    }
    target = file;
  } else if (field.dataType === 'MULTI_FILE' && field.maxItems !== null && Array.isArray(field.value) && field.value.length >= field.maxItems) {
    throw new ValidationError('The file field is full', [{ field: 'fileFieldSimplyId', message: `${input.fileFieldSimplyId} already holds its ${field.maxItems} files` }]);
  }

  const checksum = createHash('sha256').update(input.bytes).digest('base64');
  const existing = await alreadyStored(services, input.teamId, checksum, input.filename.trim(), target?.id ?? null);
  if (existing) return existing;
  // an early, lock-free refusal; the binding check is the one under the lock
  const before = await teamStorage(services, input.teamId);
  if (before.usedBytes + BigInt(input.bytes.length) > before.quotaBytes) throw new StorageLimitExceededError(before.usedBytes, before.quotaBytes, input.bytes.length);

  const team = await services.prisma.team.findUniqueOrThrow({ where: { id: input.teamId }, select: { simplyId: true } });
  const storageKey = uploadObjectKey(team.simplyId);
  await services.fileStorage.write(storageKey, input.bytes, { contentType: input.contentType, metadata: { teamSimplyId: team.simplyId, generatedBy: 'platform' } });
  let outcome: CommitOutcome | { ok: 'duplicate'; fileSimplyId: string; versionNumber: number };
  try {
    outcome = await runTransaction(services.prisma, async (tx) => {
      await lockTeamStorage(tx, input.teamId);
      // a concurrent retry may have stored it while this one wrote its object
      const raced = await alreadyStored(services, input.teamId, checksum, input.filename.trim(), target?.id ?? null);
      if (raced) return { ok: 'duplicate' as const, ...raced };
      return commitStoredContent(services, tx, {
        teamId: input.teamId,
        content: { filename: input.filename.trim(), mimeType: input.contentType, fileType: allowedType(input.contentType)!.kind, fileSizeBytes: BigInt(input.bytes.length), checksumSha256: checksum, storageKey, width: null, height: null },
        createdBy: { kind: PLATFORM_CREATOR, id: null },
        target: target ? { kind: 'version', fileId: target.id } : { kind: 'new', folderId: null },
      });
    });
  } catch (error) {
    await services.fileStorage.delete([storageKey]).catch(() => {});
    throw error;
  }
  if (outcome.ok === true) return { fileSimplyId: outcome.fileSimplyId, versionNumber: outcome.versionNumber };
  await services.fileStorage.delete([storageKey]).catch(() => {});
  if (outcome.ok === 'duplicate') return { fileSimplyId: outcome.fileSimplyId, versionNumber: outcome.versionNumber };
  if (outcome.reason === 'STORAGE_LIMIT_EXCEEDED') {
    const now = await teamStorage(services, input.teamId);
    throw new StorageLimitExceededError(now.usedBytes, now.quotaBytes, input.bytes.length);
  }
  throw new NotFoundError('File', input.fileSimplyId ?? undefined);
}

/** The value to write into the file field so that it holds `fileSimplyId` (a MULTI_FILE field keeps what it had). */
export function fieldValueWithFile(current: unknown, dataType: 'SINGLE_FILE' | 'MULTI_FILE', fileSimplyId: string): string | string[] {
  if (dataType === 'SINGLE_FILE') return fileSimplyId;
  const list = Array.isArray(current) ? current.filter((v): v is string => typeof v === 'string') : [];
  return list.includes(fileSimplyId) ? list : [...list, fileSimplyId];
}
