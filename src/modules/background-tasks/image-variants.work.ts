// The files area's hook (services.imageVariantWork, declared in files/variant-jobs.ts): when an
// image version's variants are due, an IMAGE_VARIANT_GENERATION task row and its one pg-boss job
// are written in the files area's transaction, so the work is a task people can follow from the
// start. userId is the uploader when a signed-in user stored the version, null otherwise (API
// keys, session tokens, the platform): such tasks are seen by team admins only (rule 1).
// Kept apart from image-variants.task.ts because it starts tasks through background-tasks.jobs.ts,
// which imports every task type.
import type { Services } from '../../app/context.ts';
import type { Tx } from '../../app/transaction.ts';
import type { ImageVariantWork, VariantWorkItem } from '../files/index.ts';
import { startTask } from './background-tasks.jobs.ts';
import type { ImageVariantQueueData } from './image-variants.task.ts';

export function imageVariantWorkOf(services: Services): ImageVariantWork {
  return {
    async queue(tx: Tx, item: VariantWorkItem) {
      const uploader = item.createdByKind === 'USER' && item.createdById ? await tx.user.findUnique({ where: { simplyId: item.createdById }, select: { id: true } }) : null;
      const queueData: ImageVariantQueueData = { fileSimplyId: item.fileSimplyId, versionNumber: item.versionNumber };
      await startTask(services, tx, { teamId: item.teamId, taskType: 'IMAGE_VARIANT_GENERATION', userId: uploader?.id ?? null, queueData, totalCount: 1 });
    },
  };
}
