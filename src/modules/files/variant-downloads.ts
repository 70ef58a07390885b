// Which stored object a variant download serves. Every variant has a WebP; the larger ones may
// have an AVIF beside it (variants/image-variants.ts). A caller naming a format gets exactly that
// one, or 404 when this variant was not kept in it. Without a format the URL serves the WebP and
// carries the AVIF as its alternative, so the platform's own storage endpoint can answer by the
// request's Accept header (storage/accept-negotiation.ts): an <img> in a browser with AVIF gets
// it, any other client the WebP. S3 URLs cannot choose per request and serve the WebP.
import { z } from 'zod';
import type { RequestContext } from '../../app/context.ts';
import { NotFoundError, ValidationError } from '../../app/errors.ts';
import { parseInput } from '../../app/validate.ts';
import type { FileVariant, StoredFile } from '../../generated/prisma/client.ts';
import type { DownloadRequest } from './storage/object-storage.ts';
import { variantFormatInput } from './files.input.ts';
import type { VariantFormat, VariantType } from './variants/image-variant-types.ts';

/** Document 1 §8: variant URLs last five minutes. */
export const VARIANT_URL_SECONDS = 300;

/** The requested format (null: none, the storage endpoint chooses); a format without a variant is refused. */
export function parseVariantFormat(value: string | null | undefined, variantType: VariantType | null): VariantFormat | null {
  if (value === undefined || value === null) return null;
  const format = parseInput(z.object({ format: variantFormatInput }), { format: value }, 'Invalid variant format');
  if (!variantType) throw new ValidationError('format applies to variants only', [{ field: 'format', message: 'give variantType as well: the original is served as stored' }]);
  return format.format;
}

function variantFilename(file: StoredFile, variant: FileVariant): string {
  const base = file.filename.replace(/\.[^.]*$/, '') || 'file';
  return `${base}-${variant.variantType.toLowerCase()}.${variant.format}`;
}

function describe(file: StoredFile, variant: FileVariant) {
  return { key: variant.storageKey, filename: variantFilename(file, variant), contentType: `image/${variant.format}` };
}

/**
 * What to presign for one variant of the current version, or null when it has not been rendered
 * (in the requested format, when one is given).
 */
export async function variantDownloadRequest(ctx: RequestContext, file: StoredFile, variantType: VariantType, format: VariantFormat | null): Promise<DownloadRequest | null> {
  const variants = await ctx.services.prisma.fileVariant.findMany({ where: { fileId: file.id, versionNumber: file.currentVersionNumber, variantType } });
  const webp = variants.find((v) => v.format === 'webp');
  const avif = variants.find((v) => v.format === 'avif');
  const base = { expiresInSeconds: VARIANT_URL_SECONDS };
  if (format) {
    const chosen = format === 'avif' ? avif : webp;
    return chosen ? { ...base, ...describe(file, chosen) } : null;
  }
  if (!webp) return avif ? { ...base, ...describe(file, avif) } : null;
  return { ...base, ...describe(file, webp), ...(avif ? { alternative: describe(file, avif) } : {}) };
}

/** The 404 of a variant that is not there: not rendered yet, or not kept in the requested format. */
export function missingVariant(file: StoredFile, variantType: VariantType, format: VariantFormat | null): NotFoundError {
  if (format === 'avif') {
    return new NotFoundError(`The AVIF of variant ${variantType} of file`, `${file.simplyId} (AVIF is kept only for larger variants where it is clearly smaller than the WebP; the variant list shows each variant's formats)`);
  }
  return new NotFoundError(`Variant ${variantType} of file`, `${file.simplyId} (variants are generated in the first seconds after upload)`);
}
