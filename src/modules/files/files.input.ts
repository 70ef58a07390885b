// Inputs of the file routes shared by both faces: filenames, PATCH, move, delete, batches.
import { z } from 'zod';
import { VARIANT_FORMATS } from './variants/image-variant-types.ts';

export const FILENAME_MAX = 255;
/** ids one batch (download URLs, bulk delete) may name */
export const FILE_BATCH_MAX = 100;

/** A filename as shown and offered for download: no path, no control characters. */
export const filenameSchema = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(FILENAME_MAX, `must be at most ${FILENAME_MAX} characters`)
  // eslint-disable-next-line no-control-regex
  .refine((name) => !/[\u0000-\u001f\u007f/\\]/.test(name), 'must not contain slashes, backslashes or control characters')
  .refine((name) => name !== '.' && name !== '..', 'must be a file name');

export const updateFileInput = z.strictObject({
  filename: filenameSchema.optional(),
  altText: z.string().max(1000, 'must be at most 1000 characters').nullish(),
  labelSimplyIds: z.array(z.string()).max(50, 'at most 50 labels').optional(),
});

export const moveFileInput = z.strictObject({ fileFolderSimplyId: z.string().nullable() });

export const deleteFileInput = z.strictObject({ force: z.boolean().optional() }).optional();

const idList = (field: string) =>
  z.array(z.string()).min(1, `${field} must name at least one file`).max(FILE_BATCH_MAX, `at most ${FILE_BATCH_MAX} files per request`);

/** what a variant download may ask for: the formats the variant list shows */
export const variantFormatInput = z.enum(VARIANT_FORMATS, { error: `must be one of ${VARIANT_FORMATS.join(', ')}` });

export const downloadUrlsInput = z.strictObject({
  fileSimplyIds: idList('fileSimplyIds'),
  variantType: z.string().optional(),
  format: variantFormatInput.optional(),
});

export const bulkDeleteInput = z.strictObject({ fileSimplyIds: idList('fileSimplyIds'), force: z.boolean().optional() });

export const FILE_SORT_FIELDS = ['createdAt', 'updatedAt', 'filename', 'fileSizeBytes'] as const;
export const FILE_KINDS = ['IMAGE', 'VIDEO', 'AUDIO', 'DOCUMENT', 'TEXT', 'ARCHIVE'] as const;

/** GET /v1/files: `page`/`pageSize` paging (Document 1 §8) and the filters. */
export const listFilesInput = z.strictObject({
  page: z.number().int().min(1, 'must be 1 or more').max(10_000, 'must be at most 10000').nullish(),
  pageSize: z.number().int().min(1, 'must be from 1 to 100').max(100, 'must be from 1 to 100').nullish(),
  fileType: z.enum(FILE_KINDS).nullish(),
  /** absent: every folder; null (REST: the string "null"): the root only */
  fileFolderSimplyId: z.string().nullish(),
  search: z.string().max(128, 'must be at most 128 characters').nullish(),
  labelSimplyIds: z.array(z.string()).max(50).nullish(),
  sortBy: z.enum(FILE_SORT_FIELDS).nullish(),
  sortOrder: z.enum(['asc', 'desc']).nullish(),
  includeDeleted: z.boolean().nullish(),
});

export type ListFilesInput = z.output<typeof listFilesInput>;

// folders: their names follow the filename rules
export const createFolderInput = z.strictObject({ name: filenameSchema, parentFileFolderSimplyId: z.string().nullish() });
export const updateFolderInput = z.strictObject({ name: filenameSchema.optional(), parentFileFolderSimplyId: z.string().nullish() });

// the compatibility endpoints (POST /v1/files/batch, /v1/files/temp-cleanup): strict, so no storage address gets in
export const BATCH_UPLOADS_MAX = 25;

export const batchUploadsInput = z.strictObject({
  files: z.array(z.unknown()).min(1, 'must hold at least one file').max(BATCH_UPLOADS_MAX, `at most ${BATCH_UPLOADS_MAX} files per request`),
});

export const tempCleanupInput = z.strictObject({ fileUploadSimplyIds: z.array(z.string()).max(100).optional() }).optional();

