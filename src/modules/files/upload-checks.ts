// The checks an uploaded object passes before it may become a file, in order: the credential is
// still allowed, the object carries its intent's binding, its bytes hash to the declared checksum,
// its content agrees with its declared type (inspection/), and the scanner finds nothing.
// Each failure names the rejection reason of upload-outcomes.ts.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { Services } from '../../app/context.ts';
import type { FileUpload } from '../../generated/prisma/client.ts';
import { allowedType } from './files.allowlist.ts';
import { ScanError } from './scanning/malware-scanner.ts';
import { teamSimplyIdOf, type RejectionReason } from './upload-outcomes.ts';

/**
 * Inspection needs file-type, sharp and jsdom (~100 MiB resident together): an instance loads them
 * with its first promotion, not at start (API servers that run no jobs never do).
 */
const loadInspection = () => import('./inspection/inspect-file.ts');

/** the longest the content inspection of one upload may take */
const INSPECTION_TIMEOUT_MS = 120_000;

export type CheckOutcome =
  | { ok: true; kind: string; width: number | null; height: number | null; replacement: Buffer | null }
  | { ok: false; reason: RejectionReason; message: string };

const refuse = (reason: RejectionReason, message: string): CheckOutcome => ({ ok: false, reason, message });

/** Is the credential that created the intent still valid, and still a member (users)? */
async function credentialStillValid(services: Services, upload: FileUpload): Promise<boolean> {
  const now = new Date();
  const { prisma } = services;
  switch (upload.credentialKind) {
    case 'API_KEY': {
      const key = await prisma.apiKey.findUnique({ where: { teamId_simplyId: { teamId: upload.teamId, simplyId: upload.credentialId } } });
      return Boolean(key && !key.revokedAt && (!key.expiresAt || key.expiresAt > now));
    }
    case 'SESSION_TOKEN': {
      const token = await prisma.sessionToken.findUnique({ where: { simplyId: upload.credentialId } });
      return Boolean(token && !token.revokedAt && token.expiresAt > now);
    }
    case 'USER': {
      const user = await prisma.user.findUnique({ where: { simplyId: upload.credentialId } });
      if (!user?.isActive) return false;
      const membership = await prisma.teamMembership.findUnique({ where: { teamId_userId: { teamId: upload.teamId, userId: user.id } } });
      return Boolean(membership?.isActive);
    }
    default:
      return true;
  }
}

async function sha256Base64(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('base64');
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), ms);
    timer.unref();
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

export async function checkUpload(services: Services, upload: FileUpload): Promise<CheckOutcome> {
  const { fileStorage, malwareScanner, config, prisma } = services;
  if (!(await credentialStillValid(services, upload))) return refuse('ACCESS_DENIED', 'The credential that created the upload is no longer valid');
  if (upload.folderId && !(await prisma.fileFolder.findUnique({ where: { id: upload.folderId } }))) {
    return refuse('ACCESS_DENIED', 'The target folder was deleted');
  }
  const type = allowedType(upload.contentType);
  if (!type) return refuse('UNSUPPORTED_TYPE', `${upload.contentType} is no longer an allowed content type`);

  const object = await fileStorage.stat(upload.storageKey);
  if (!object) return refuse('FAILED', 'The uploaded object is missing from storage');
  if (object.metadata.uploadSimplyId !== upload.simplyId || object.metadata.teamSimplyId !== (await teamSimplyIdOf(services, upload.teamId))) {
    return refuse('SIGNATURE_MISMATCH', 'The stored object does not carry this upload\'s signed binding');
  }
  if (BigInt(object.sizeBytes) !== upload.fileSizeBytes) {
    return refuse('CHECKSUM_MISMATCH', `The object holds ${object.sizeBytes} bytes, not the declared ${upload.fileSizeBytes}`);
  }

  const copy = await fileStorage.localCopy(upload.storageKey);
  try {
    if ((await sha256Base64(copy.path)) !== upload.checksumSha256) return refuse('CHECKSUM_MISMATCH', 'The bytes do not match checksumSha256');
    const { inspectFile } = await loadInspection();
    const inspected = await withTimeout(inspectFile({ path: copy.path, contentType: upload.contentType, sizeBytes: object.sizeBytes }), INSPECTION_TIMEOUT_MS);
    if (inspected === 'timeout') return refuse('TIMED_OUT', 'Inspecting the content took too long');
    if (!inspected.ok) return refuse('UNSUPPORTED_TYPE', inspected.message);
    try {
      const verdict = await malwareScanner.scan(copy.path, { timeoutMs: config.FILE_SCAN_TIMEOUT_MS });
      if (!verdict.clean) return refuse('MALWARE_DETECTED', `The scanner found ${verdict.signature}`);
    } catch (error) {
      if (error instanceof ScanError) return refuse(error.timedOut ? 'TIMED_OUT' : 'UNSCANNED', `The file could not be scanned: ${error.message}`);
      throw error;
    }
    // a sanitized SVG is scanned as uploaded: sanitizing only removes content
    return { ok: true, kind: inspected.kind, width: inspected.width ?? null, height: inspected.height ?? null, replacement: inspected.replacement ?? null };
  } finally {
    await copy.release();
  }
}
