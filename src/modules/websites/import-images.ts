// The images of imported pages, brought in as team files through the upload inspection pipeline
// (files' platform uploads: checksum, content inspection, malware scan, storage limit), read
// through the guarded fetch. Each source address is read once per import; the design references
// the stored file by the platform's file address. An image that cannot be read or is refused
// becomes a marked placeholder the review offers to remove.
import type { Services } from '../../app/context.ts';
import { platformUploadOutcomes, platformUploadRefusal, stagePlatformUpload } from '../files/index.ts';
import type { DesignComponent } from './design-document.ts';
import { newComponentId } from './design-document.ts';
import type { ImageRef } from './import-convert.ts';
import { type FetchPolicy, guardedGet, IMPORT_LIMITS } from './import-fetch.ts';

const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
const OUTCOME_WAIT_MS = 20_000;
/** distinct images one import brings in; the rest become placeholders */
export const MAX_IMAGES_PER_IMPORT = 300;

/** the platform's address of a team file, as designs reference it */
export const fileAddress = (fileSimplyId: string): string => `/v1/files/${fileSimplyId}/download`;

export interface ImageOutcome {
  fileSimplyId: string | null;
  problem: string | null;
}

export interface ImageImportTarget {
  teamId: bigint;
  teamSimplyId: string;
  origin: string;
}

function filenameOf(url: URL, contentType: string): string {
  const last = decodeURIComponent(url.pathname.split('/').pop() ?? '').replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 100);
  const extension = contentType.split('/')[1] === 'jpeg' ? 'jpg' : contentType.split('/')[1];
  return last && /\.[a-z0-9]{2,5}$/i.test(last) ? last : `${last || 'image'}.${extension}`;
}

/** Reads and stages the images not seen yet, waits for their inspection, and answers each source's outcome (kept in `known`). */
export async function importImages(services: Services, policy: FetchPolicy, target: ImageImportTarget, sources: readonly string[], known: Map<string, ImageOutcome>, signal?: AbortSignal): Promise<void> {
  const staged = new Map<string, string>();
  const client = await services.pool.connect();
  try {
    for (const source of new Set(sources)) {
      if (known.has(source)) continue;
      if (known.size + staged.size >= MAX_IMAGES_PER_IMPORT) {
        known.set(source, { fileSimplyId: null, problem: `an import brings in at most ${MAX_IMAGES_PER_IMPORT} images` });
        continue;
      }
      try {
        const fetched = await guardedGet(new URL(source), policy, { maxBytes: IMPORT_LIMITS.imageBytes, accept: (t) => IMAGE_TYPES.has(t), signal });
        const refusal = platformUploadRefusal(fetched.contentType, fetched.body.length);
        if (refusal) {
          known.set(source, { fileSimplyId: null, problem: refusal });
          continue;
        }
        const upload = await stagePlatformUpload(services, client, { ...target, filename: filenameOf(fetched.url, fetched.contentType), contentType: fetched.contentType, bytes: fetched.body });
        staged.set(upload, source);
      } catch (error) {
        known.set(source, { fileSimplyId: null, problem: (error as Error).message.slice(0, 300) });
      }
    }
  } finally {
    client.release();
  }
  const deadline = Date.now() + OUTCOME_WAIT_MS;
  while (staged.size > 0) {
    const outcomes = await platformUploadOutcomes(services.pool, target.teamId, [...staged.keys()]);
    for (const [upload, source] of [...staged]) {
      const outcome = outcomes.get(upload);
      if (!outcome || outcome.status === 'PENDING') continue;
      known.set(source, outcome.fileSimplyId ? { fileSimplyId: outcome.fileSimplyId, problem: null } : { fileSimplyId: null, problem: outcome.rejectionReason ?? outcome.status });
      staged.delete(upload);
    }
    if (staged.size === 0) break;
    if (Date.now() > deadline) {
      for (const source of staged.values()) known.set(source, { fileSimplyId: null, problem: 'the file was still being inspected' });
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Points each image at its file, or turns it into a placeholder; answers the placeholders' ids. */
export function placeImages(images: readonly ImageRef[], known: ReadonlyMap<string, ImageOutcome>): string[] {
  const missing: string[] = [];
  for (const image of images) {
    const outcome = known.get(image.sourceUrl);
    const c: DesignComponent = image.component;
    if (outcome?.fileSimplyId) {
      c.attributes = { ...c.attributes, src: fileAddress(outcome.fileSimplyId), 'data-file-simply-id': outcome.fileSimplyId };
      continue;
    }
    const alt = String(c.attributes?.alt ?? '');
    const id = String(c.attributes?.id ?? newComponentId());
    for (const key of Object.keys(c)) delete c[key];
    Object.assign(c, {
      type: 'text',
      tagName: 'div',
      attributes: { id, 'data-import-missing-image': 'true' },
      classes: ['import-missing-image'],
      components: [{ type: 'textnode', content: `Image not imported${alt ? `: ${alt}` : ''}` }],
    });
    missing.push(id);
  }
  return missing;
}
