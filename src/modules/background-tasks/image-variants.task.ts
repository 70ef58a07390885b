// IMAGE_VARIANT_GENERATION: the files area's rendering of an image version's variants, run as a
// visible background task. Two ways in:
// - the platform: when an uploaded image's variants are due, the files area calls
//   `services.imageVariantWork.queue(tx, …)` (image-variants.work.ts, provided by this area's
//   manifest); the task row and its one pg-boss job are written in that transaction, with
//   userId = the uploader when a signed-in user uploaded it (null otherwise: API keys, tokens);
// - a person: POST /v1/background-tasks { enumBackgroundTaskTypeId: 'IMAGE_VARIANT_GENERATION',
//   queueData: { fileSimplyId } } regenerates the current version's variants, with the files
//   area's edit rule (media-library edit) checked at creation.
// The work is the files area's renderVersionVariants: it replaces the version's set in one
// transaction, so a run repeated after a crash leaves one set, never two. progress 0/1 → 1/1;
// result { fileSimplyId, versionNumber, variantCount }; an image that cannot be decoded ends the
// task FAILED with IMAGE_UNREADABLE (no retry: it would fail the same way).
import { z } from 'zod';
import { NotFoundError, ValidationError } from '../../app/errors.ts';
import { requireTeam } from '../../app/require-team.ts';
import { parseInput } from '../../app/validate.ts';
import { fileId, renderVersionVariants, requireMediaLibraryEdit, UnreadableImageError } from '../files/index.ts';
import { TaskFailedError } from './task-run.ts';
import { defineTaskType } from './task-types.ts';

export interface ImageVariantQueueData {
  fileSimplyId: string;
  versionNumber: number;
}

// wrapped so a problem is named `queueData.<field>`, as the other types name theirs
const regenerateInput = z.object({ queueData: z.strictObject({ fileSimplyId: z.string().min(1).max(100) }) });

export const imageVariantTask = defineTaskType<ImageVariantQueueData>({
  type: 'IMAGE_VARIANT_GENERATION',
  creatableByApi: true,
  async prepare(ctx, raw) {
    const team = requireTeam(ctx);
    const input = parseInput(regenerateInput, { queueData: raw }, 'Invalid queueData for IMAGE_VARIANT_GENERATION').queueData;
    fileId.assert(input.fileSimplyId, 'queueData.fileSimplyId');
    requireMediaLibraryEdit(ctx.principal, 'Regenerating variants');
    const file = await ctx.services.prisma.storedFile.findUnique({ where: { teamId_simplyId: { teamId: team.id, simplyId: input.fileSimplyId } } });
    if (!file || file.deletedAt) throw new NotFoundError('File', input.fileSimplyId);
    if (file.fileType !== 'IMAGE') throw new ValidationError('Only images have variants', [{ field: 'queueData.fileSimplyId', message: `file ${input.fileSimplyId} is not an image` }]);
    return { queueData: { fileSimplyId: file.simplyId, versionNumber: file.currentVersionNumber }, totalCount: 1 };
  },
  async run(run) {
    const { fileSimplyId, versionNumber } = run.queueData;
    const file = await run.services.prisma.storedFile.findUnique({ where: { teamId_simplyId: { teamId: run.task.teamId, simplyId: fileSimplyId } }, select: { id: true } });
    await run.progress({ processedCount: 0, totalCount: 1 }, { force: true });
    let outcome;
    try {
      outcome = file ? await renderVersionVariants(run.services, file.id, versionNumber) : ({ variantCount: 0, skipped: 'FILE_GONE' } as const);
    } catch (error) {
      if (error instanceof UnreadableImageError) {
        // sharp's own message may name the worker's temporary copy: the entry says what it means instead
        throw new TaskFailedError('IMAGE_UNREADABLE', 'The image cannot be decoded (damaged, or a format this server cannot read, such as HEIC), so it has no variants', {
          fileSimplyId,
          versionNumber,
        });
      }
      throw error;
    }
    await run.progress({ processedCount: 1, totalCount: 1 }, { force: true });
    // nothing to render (the file was deleted, or replaced by a newer version meanwhile) is not a failure
    return { result: { fileSimplyId, versionNumber, variantCount: outcome.variantCount, ...(outcome.skipped ? { skipped: outcome.skipped } : {}) } };
  },
});
