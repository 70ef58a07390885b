// Image variants are rendered after promotion, off the upload's path (variants/image-variants.ts):
// one unit of work per image version; regenerate queues it again. The new set replaces the old in
// one transaction, and the old objects are removed after it commits, so running it twice for a
// version leaves one set. Who runs it: the area that provides `services.imageVariantWork` (the
// background-tasks area, which makes it a visible IMAGE_VARIANT_GENERATION task calling
// renderVersionVariants), or else this area's own job. The files area never imports that area:
// it states what it needs here and the other one supplies it.
import type { Job } from 'pg-boss';
import type { Services } from '../../app/context.ts';
import { runTransaction, type Tx } from '../../app/transaction.ts';
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

/** The version whose variants are due, as `imageVariantWork.queue` gets it. */
export interface VariantWorkItem {
  teamId: bigint;
  fileId: bigint;
  fileSimplyId: string;
  versionNumber: number;
  /** who stored the version (FileVersion.createdByKind / createdById) */
  createdByKind: string;
  createdById: string | null;
}

/** Takes over the rendering: queues its own unit of work in `tx` (which commits it). */
export interface ImageVariantWork {
  queue(tx: Tx, item: VariantWorkItem): Promise<void>;
}

declare module '../../app/context.ts' {
  interface Services {
    /** set by the background-tasks area; absent, this area's RENDER_VARIANTS job renders */
    imageVariantWork?: ImageVariantWork;
  }
}

export async function queueVariants(services: Services, fileId: bigint, versionNumber: number): Promise<void> {
  const work = services.imageVariantWork;
  if (!work) {
    const job: RenderVariantsJob = { fileId: String(fileId), versionNumber };
    await services.jobs.send(RENDER_VARIANTS, job, { singletonKey: `${fileId}:${versionNumber}` });
    return;
  }
  await runTransaction(services.prisma, async (tx) => {
    const version = await tx.fileVersion.findUnique({ where: { fileId_versionNumber: { fileId, versionNumber } }, include: { file: { select: { simplyId: true } } } });
    if (!version) return;
    await work.queue(tx, {
      teamId: version.teamId,
      fileId,
      fileSimplyId: version.file.simplyId,
      versionNumber,
      createdByKind: version.createdByKind,
      createdById: version.createdById,
    });
  });
}

/** Jobs queued by this area (no imageVariantWork, or queued before it was provided). */
export async function renderVariants(services: Services, jobs: Job<RenderVariantsJob>[]): Promise<void> {
  for (const job of jobs) {
    try {
      await renderVersionVariants(services, BigInt(job.data.fileId), job.data.versionNumber);
    } catch (error) {
      // undecodable here for good (no HEVC decoder for HEIC, a damaged JPEG, an SVG too slow to
      // rasterize): the file stays without variants rather than being retried
      if (!(error instanceof UnreadableImageError)) throw error;
      services.logger.warn({ err: error, fileId: job.data.fileId, versionNumber: job.data.versionNumber }, 'image variants cannot be rendered for this file');
    }
  }
}

/** What one rendering did: the variants stored, or why there was nothing to do. */
export type VariantOutcome = { variantCount: number; skipped: null } | { variantCount: 0; skipped: 'FILE_GONE' | 'NOT_AN_IMAGE' | 'VERSION_NOT_CURRENT' };

/**
 * Renders and stores the variants of one image version, replacing its previous set (and the sets
 * of older versions). Throws UnreadableImageError when the image cannot be decoded here.
 */
export async function renderVersionVariants(services: Services, fileId: bigint, versionNumber: number): Promise<VariantOutcome> {
  const { prisma, fileStorage } = services;
  const file = await prisma.storedFile.findUnique({ where: { id: fileId }, include: { versions: { where: { versionNumber } } } });
  const version = file?.versions[0];
  // a destroyed file or a version that is no longer current needs no variants
  if (!file || !version) return { variantCount: 0, skipped: 'FILE_GONE' };
  if (file.fileType !== 'IMAGE') return { variantCount: 0, skipped: 'NOT_AN_IMAGE' };
  if (file.currentVersionNumber !== versionNumber) return { variantCount: 0, skipped: 'VERSION_NOT_CURRENT' };
  const teamSimplyId = await teamSimplyIdOf(services, file.teamId);
  const copy = await fileStorage.localCopy(version.storageKey);
  let rendered;
  try {
    // sharp (~20 MiB resident) is loaded by the first rendering, not at start
    const { renderImageVariants } = await import('./variants/image-variants.ts');
    rendered = await renderImageVariants(copy.path);
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
    // two renderings of one file (the upload's own and a regenerate) take turns here: the later one
    // then sees the earlier one's set and replaces it, rather than colliding with it
    const locked = await tx.$queryRaw<unknown[]>`SELECT id FROM "StoredFile" WHERE id = ${fileId} FOR UPDATE`;
    if (locked.length === 0) return null;
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
    await fileStorage.delete(written.map((w) => w.storageKey));
    throw error;
  });
  if (replaced === null) {
    // the file went away meanwhile (force delete): the new objects have no rows
    await fileStorage.delete(written.map((w) => w.storageKey));
    return { variantCount: 0, skipped: 'FILE_GONE' };
  }
  await fileStorage.delete(replaced);
  return { variantCount: written.length, skipped: null };
}
