// Image variants are rendered after promotion, off the upload's path (variants/image-variants.ts):
// one job per image version; regenerate queues it again. The new set replaces the old in one
// transaction, and the old objects are removed after it commits.
import type { Job } from 'pg-boss';
import type { Services } from '../../app/context.ts';
import { runTransaction } from '../../db/transaction.ts';
import { fileVariantId } from './files.ids.ts';
import { variantObjectKey } from './storage/storage-keys.ts';
import { teamSimplyIdOf } from './upload-outcomes.ts';
import { UnreadableImageError } from './variants/unreadable-image-error.ts';
import type { RenderedVariant } from './variants/image-variant-types.ts';

export const RENDER_VARIANTS = 'files.render-variants';

export interface RenderVariantsJob {
  fileId: string;
  versionNumber: number;
}

export async function queueVariants(services: Services, fileId: bigint, versionNumber: number): Promise<void> {
  const job: RenderVariantsJob = { fileId: String(fileId), versionNumber };
  await services.jobs.send(RENDER_VARIANTS, job, { singletonKey: `${fileId}:${versionNumber}` });
}

export async function renderVariants(services: Services, jobs: Job<RenderVariantsJob>[]): Promise<void> {
  for (const job of jobs) await renderOne(services, BigInt(job.data.fileId), job.data.versionNumber);
}

async function renderOne(services: Services, fileId: bigint, versionNumber: number): Promise<void> {
  const { prisma, fileStorage } = services;
  const file = await prisma.storedFile.findUnique({ where: { id: fileId }, include: { versions: { where: { versionNumber } } } });
  const version = file?.versions[0];
  // a destroyed file or a version that is no longer current needs no variants
  if (!file || !version || file.fileType !== 'IMAGE' || file.currentVersionNumber !== versionNumber) return;
  const teamSimplyId = await teamSimplyIdOf(services, file.teamId);
  const copy = await fileStorage.localCopy(version.storageKey);
  let rendered;
  try {
    // sharp (~20 MiB resident) is loaded by the first rendering, not at start
    const { renderImageVariants } = await import('./variants/image-variants.ts');
    rendered = await renderImageVariants(copy.path);
  } catch (error) {
    // undecodable here for good (no HEVC decoder for HEIC, a damaged JPEG, an SVG too slow to
    // rasterize): the file stays without variants rather than being retried
    if (error instanceof UnreadableImageError) {
      services.logger.warn({ err: error, file: file.simplyId, versionNumber }, 'image variants cannot be rendered for this file');
      return;
    }
    throw error;
  } finally {
    await copy.release();
  }
  const written: (RenderedVariant & { storageKey: string })[] = [];
  for (const variant of rendered.variants) {
    const storageKey = variantObjectKey(teamSimplyId, variant.format);
    await fileStorage.write(storageKey, variant.bytes, { contentType: `image/${variant.format}` });
    written.push({ ...variant, storageKey });
  }
  const replaced = await runTransaction(prisma, async (tx) => {
    // this version's previous set, and every set of older versions (only the current one is served)
    const stale = { fileId, versionNumber: { lte: versionNumber } };
    const old = await tx.fileVariant.findMany({ where: stale, select: { storageKey: true } });
    await tx.fileVariant.deleteMany({ where: stale });
    await tx.fileVariant.createMany({
      data: written.map((v) => ({
        simplyId: fileVariantId.create(),
        teamId: file.teamId,
        fileId,
        versionNumber,
        variantType: v.variantType,
        format: v.format,
        width: v.width,
        height: v.height,
        fileSizeBytes: BigInt(v.bytes.length),
        storageKey: v.storageKey,
      })),
    });
    return old.map((o) => o.storageKey);
  }).catch(async (error) => {
    // the file went away meanwhile (force delete): the new objects have no rows
    await fileStorage.delete(written.map((w) => w.storageKey));
    throw error;
  });
  await fileStorage.delete(replaced);
}
