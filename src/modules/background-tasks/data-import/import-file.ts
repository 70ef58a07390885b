// The CSV file an import reads: an uploaded file of the team that the starter may read, text/csv,
// within the configured size. The version current at creation is pinned, so a new version
// uploaded while the task waits does not change what it imports; the worker streams its bytes
// from the files module's storage.
import type { Readable } from 'node:stream';
import type { RequestContext, Services } from '../../../app/context.ts';
import { NotFoundError, ValidationError } from '../../../app/errors.ts';
import { requireTeam } from '../../../app/require-team.ts';
import { fileId, readableFiles } from '../../files/index.ts';
import { TaskFailedError } from '../task-run.ts';

const CSV_TYPES = new Set(['text/csv']);

export interface ImportFile {
  versionNumber: number;
  fileSizeBytes: number;
}

/** Checks the file for the starter now (404 for anything they cannot see, 400 when it cannot be imported). */
export async function importFileFor(ctx: RequestContext, fileSimplyId: string, maxBytes: number): Promise<ImportFile> {
  const team = requireTeam(ctx);
  const file = fileId.is(fileSimplyId) ? await ctx.services.prisma.storedFile.findUnique({ where: { teamId_simplyId: { teamId: team.id, simplyId: fileSimplyId } } }) : null;
  if (!file || file.deletedAt || (await readableFiles(ctx, [file])).length === 0) throw new NotFoundError('File', fileSimplyId);
  if (!CSV_TYPES.has(file.mimeType)) {
    throw new ValidationError('The file to import is not a CSV file', [{ field: 'queueData.fileSimplyId', message: `is ${file.mimeType}; upload the data as text/csv` }]);
  }
  if (Number(file.fileSizeBytes) > maxBytes) {
    throw new ValidationError(`The file is larger than an import takes (${maxBytes} bytes)`, [
      { field: 'queueData.fileSimplyId', message: `is ${file.fileSizeBytes} bytes; at most ${maxBytes} bytes are imported at once: split the file` },
    ]);
  }
  return { versionNumber: file.currentVersionNumber, fileSizeBytes: Number(file.fileSizeBytes) };
}

/** The pinned version's bytes as a stream; the task fails (no retry) when the file is gone. */
export async function openImportFile(services: Services, teamId: bigint, fileSimplyId: string, versionNumber: number): Promise<Readable> {
  const version = await services.prisma.fileVersion.findFirst({ where: { teamId, versionNumber, file: { teamId, simplyId: fileSimplyId, deletedAt: null } } });
  if (!version) throw new TaskFailedError('FILE_UNREADABLE', 'The file to import was deleted before the import could read it', { fileSimplyId });
  return services.fileStorage.read(version.storageKey);
}
