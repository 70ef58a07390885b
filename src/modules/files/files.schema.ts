// GraphQL face of files (Document 1 §2.8, §4.7). REST: rest-adapter/routes/files.ts. Fields are
// standard tier (any credential with a team); files.service.ts applies rule 4 and the read rules.
import type { FileVariant, FileVersion } from '../../generated/prisma/client.ts';
import { builder } from '../../app/builder.ts';
import { tier } from '../../app/auth/tiers.ts';
import { givenFields } from '../../app/graphql/input-fields.ts';
import { FILE_KINDS, FILE_SORT_FIELDS } from './files.input.ts';
import { VARIANT_TYPES } from './variants/image-variant-types.ts';
import {
  bulkDeleteFiles,
  deleteFile,
  downloadFile,
  downloadUrls,
  downloadVersion,
  fileDownloadUrl,
  getFile,
  listFiles,
  listVariants,
  listVersions,
  moveFile,
  regenerateVariants,
  storageUsage,
  thumbnailUrl,
  updateFile,
  type BulkDeleteResult,
  type DownloadUrl,
  type DownloadUrlResult,
  type FilePage,
  type FileRow,
  type StorageUsage,
} from './files.service.ts';

export const FileTypeEnum = builder.enumType('FileType', { values: FILE_KINDS });
export const VariantTypeEnum = builder.enumType('FileVariantType', {
  description: 'THUMBNAIL_IMAGE fits 256×256, WEB_SIZE_IMAGE fits 1600×1600, RESPONSIVE_<n> is n pixels wide; never upscaled',
  values: VARIANT_TYPES,
});
const SortFieldEnum = builder.enumType('FileSortField', { values: FILE_SORT_FIELDS });
const SortOrderEnum = builder.enumType('FileSortOrder', { values: ['asc', 'desc'] as const });

const bytes = 'bytes (a whole number)';

export const FileRef = builder.objectRef<FileRow>('File').implement({
  description: 'A file of the media library. Its id stays the same across versions.',
  fields: (t) => ({
    id: t.exposeString('simplyId'),
    fileSimplyId: t.exposeString('simplyId'),
    filename: t.exposeString('filename'),
    fileType: t.field({ type: FileTypeEnum, resolve: (f) => f.fileType as never }),
    mimeType: t.exposeString('mimeType'),
    fileSizeBytes: t.float({ description: bytes, resolve: (f) => Number(f.fileSizeBytes) }),
    width: t.exposeInt('width', { nullable: true, description: 'images: pixels' }),
    height: t.exposeInt('height', { nullable: true, description: 'images: pixels' }),
    altText: t.exposeString('altText', { nullable: true }),
    fileFolderSimplyId: t.string({ nullable: true, description: 'null: at the root', resolve: (f) => f.folder?.simplyId ?? null }),
    currentVersionNumber: t.exposeInt('currentVersionNumber'),
    checksumSha256: t.exposeString('checksumSha256', { description: 'base64 SHA-256 of the current version as stored' }),
    labelSimplyIds: t.stringList({ resolve: (f) => f.labels.map((l) => l.label.simplyId) }),
    isDeleted: t.boolean({ resolve: (f) => f.deletedAt !== null }),
    deletedAt: t.field({ type: 'DateTime', nullable: true, resolve: (f) => f.deletedAt }),
    createdAt: t.field({ type: 'DateTime', resolve: (f) => f.createdAt }),
    updatedAt: t.field({ type: 'DateTime', resolve: (f) => f.updatedAt }),
    originalUrl: t.string({
      description: 'presigned URL of the current version, valid 3600 s',
      resolve: async (f, _args, ctx) => (await fileDownloadUrl(ctx, f)).url,
    }),
    thumbnailUrl: t.string({
      nullable: true,
      description: 'images: presigned URL of THUMBNAIL_IMAGE (five minutes); null until it is rendered',
      resolve: (f, _args, ctx) => thumbnailUrl(ctx, f),
    }),
  }),
});

const FilePaginationRef = builder.objectRef<FilePage['pagination']>('FilePagination').implement({
  fields: (t) => ({
    total: t.exposeInt('total'),
    page: t.exposeInt('page'),
    pageSize: t.exposeInt('pageSize'),
    totalPages: t.exposeInt('totalPages'),
    hasMore: t.exposeBoolean('hasMore', { description: 'true when more files exist beyond this page' }),
  }),
});

const FilePageRef = builder.objectRef<FilePage>('FilePage').implement({
  fields: (t) => ({
    nodes: t.field({ type: [FileRef], resolve: (p) => p.nodes }),
    pagination: t.field({ type: FilePaginationRef, resolve: (p) => p.pagination }),
  }),
});

export const FileDownloadRef = builder.objectRef<DownloadUrl>('FileDownload').implement({
  fields: (t) => ({
    fileSimplyId: t.exposeString('fileSimplyId'),
    url: t.exposeString('url'),
    expiresAt: t.field({ type: 'DateTime', resolve: (d) => d.expiresAt }),
    expiresIn: t.exposeInt('expiresIn', { description: 'seconds: 3600 for originals, 300 for variants' }),
    variantType: t.field({ type: VariantTypeEnum, nullable: true, resolve: (d) => d.variantType as never }),
    versionNumber: t.exposeInt('versionNumber', { nullable: true }),
  }),
});

const ItemErrorRef = builder.objectRef<{ code: string; message: string }>('FileItemError').implement({
  fields: (t) => ({ code: t.exposeString('code'), message: t.exposeString('message') }),
});

const DownloadUrlResultRef = builder.objectRef<DownloadUrlResult>('FileDownloadUrlResult').implement({
  description: 'One file of a batch: its download, or the error of that file alone',
  fields: (t) => ({
    fileSimplyId: t.exposeString('fileSimplyId'),
    url: t.string({ nullable: true, resolve: (r) => r.download?.url ?? null }),
    expiresAt: t.field({ type: 'DateTime', nullable: true, resolve: (r) => r.download?.expiresAt ?? null }),
    expiresIn: t.int({ nullable: true, resolve: (r) => r.download?.expiresIn ?? null }),
    variantType: t.field({ type: VariantTypeEnum, nullable: true, resolve: (r) => (r.download?.variantType ?? null) as never }),
    error: t.field({ type: ItemErrorRef, nullable: true, resolve: (r) => r.error }),
  }),
});

const BulkDeleteResultRef = builder.objectRef<BulkDeleteResult>('FileBulkDeleteResult').implement({
  fields: (t) => ({
    fileSimplyId: t.exposeString('fileSimplyId'),
    deleted: t.exposeBoolean('deleted'),
    error: t.field({ type: ItemErrorRef, nullable: true, resolve: (r) => r.error }),
  }),
});

const FileVariantRef = builder.objectRef<FileVariant>('FileVariant').implement({
  fields: (t) => ({
    id: t.exposeString('simplyId'),
    fileVariantSimplyId: t.exposeString('simplyId'),
    variantType: t.field({ type: VariantTypeEnum, resolve: (v) => v.variantType as never }),
    format: t.exposeString('format', { description: 'webp or avif' }),
    width: t.exposeInt('width'),
    height: t.exposeInt('height'),
    fileSizeBytes: t.float({ description: bytes, resolve: (v) => Number(v.fileSizeBytes) }),
    versionNumber: t.exposeInt('versionNumber'),
    createdAt: t.field({ type: 'DateTime', resolve: (v) => v.createdAt }),
  }),
});

const FileVersionRef = builder.objectRef<FileVersion & { isCurrent: boolean }>('FileVersion').implement({
  fields: (t) => ({
    versionNumber: t.exposeInt('versionNumber'),
    isCurrent: t.exposeBoolean('isCurrent'),
    filename: t.exposeString('filename'),
    mimeType: t.exposeString('mimeType'),
    fileSizeBytes: t.float({ description: bytes, resolve: (v) => Number(v.fileSizeBytes) }),
    checksumSha256: t.exposeString('checksumSha256'),
    width: t.exposeInt('width', { nullable: true }),
    height: t.exposeInt('height', { nullable: true }),
    createdAt: t.field({ type: 'DateTime', resolve: (v) => v.createdAt }),
  }),
});

const StorageUsageRef = builder.objectRef<StorageUsage>('FileStorageUsage').implement({
  description: 'What the team stores: every version (soft-deleted files included) and every variant count against the limit',
  fields: (t) => ({
    usedBytes: t.float({ description: bytes, resolve: (u) => Number(u.usedBytes) }),
    quotaBytes: t.float({ description: 'the storage limit, bytes', resolve: (u) => Number(u.quotaBytes) }),
    availableBytes: t.float({ resolve: (u) => Math.max(0, Number(u.quotaBytes - u.usedBytes)) }),
    isTeamQuota: t.exposeBoolean('isTeamQuota', { description: 'false: the platform default applies' }),
    fileCount: t.exposeInt('fileCount'),
    deletedFileCount: t.exposeInt('deletedFileCount'),
    versionBytes: t.float({ resolve: (u) => Number(u.versionBytes) }),
    variantBytes: t.float({ resolve: (u) => Number(u.variantBytes) }),
    deletedBytes: t.float({ description: 'held by soft-deleted files (force delete frees it)', resolve: (u) => Number(u.deletedBytes) }),
  }),
});

const UpdateFileInput = builder.inputType('UpdateFileInput', {
  fields: (t) => ({
    filename: t.string(),
    altText: t.string({ description: 'null clears it' }),
    labelSimplyIds: t.stringList({ description: 'replaces the labels' }),
  }),
});

const FORMAT_ARG = 'with variantType: webp or avif (404 when the variant was not kept in it); absent: WebP, or AVIF where the platform storage sees Accept: image/avif';

const DownloadUrlsInput = builder.inputType('FileDownloadUrlsInput', {
  fields: (t) => ({
    fileSimplyIds: t.stringList({ required: true, description: '1-100 ids' }),
    variantType: t.field({ type: VariantTypeEnum }),
    format: t.string({ description: FORMAT_ARG }),
  }),
});

const BulkDeleteInput = builder.inputType('FileBulkDeleteInput', {
  fields: (t) => ({ fileSimplyIds: t.stringList({ required: true, description: '1-100 ids' }), force: t.boolean() }),
});

builder.queryFields((t) => ({
  files: t.field({
    type: FilePageRef,
    description: 'Files of the team, paged by page/pageSize. Without TEAM_ADMIN_MEDIA_LIBRARY view: the files the credential uploaded.',
    authScopes: tier.standard,
    args: {
      page: t.arg.int({ description: '1 or more, default 1' }),
      pageSize: t.arg.int({ description: '1-100, default 25' }),
      fileType: t.arg({ type: FileTypeEnum }),
      fileFolderSimplyId: t.arg.string({ description: 'absent: every folder; null: the root only' }),
      search: t.arg.string({ description: 'part of the filename, at most 128 characters' }),
      labelSimplyIds: t.arg.stringList({ description: 'files carrying any of these labels' }),
      sortBy: t.arg({ type: SortFieldEnum }),
      sortOrder: t.arg({ type: SortOrderEnum }),
      includeDeleted: t.arg.boolean(),
    },
    resolve: (_root, args, ctx) => listFiles(ctx, givenFields(args, ['fileFolderSimplyId'])),
  }),
  file: t.field({
    type: FileRef,
    authScopes: tier.standard,
    args: { fileSimplyId: t.arg.string({ required: true }), includeDeleted: t.arg.boolean({ description: 'a soft-deleted file too' }) },
    resolve: (_root, args, ctx) => getFile(ctx, args.fileSimplyId, args.includeDeleted ?? false),
  }),
  fileDownload: t.field({
    type: FileDownloadRef,
    description: 'A presigned URL of the original (3600 s) or of one variant (five minutes)',
    authScopes: tier.standard,
    args: { fileSimplyId: t.arg.string({ required: true }), variantType: t.arg.string(), format: t.arg.string({ description: FORMAT_ARG }) },
    resolve: (_root, args, ctx) => downloadFile(ctx, args.fileSimplyId, args.variantType, args.format),
  }),
  fileVariants: t.field({
    type: [FileVariantRef],
    description: 'Variants of the current version (images; rendered in the first seconds after upload)',
    authScopes: tier.standard,
    args: { fileSimplyId: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => listVariants(ctx, args.fileSimplyId),
  }),
  fileVersions: t.field({
    type: [FileVersionRef],
    description: 'Every version, newest first',
    authScopes: tier.standard,
    args: { fileSimplyId: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => listVersions(ctx, args.fileSimplyId),
  }),
  fileVersionDownload: t.field({
    type: FileDownloadRef,
    authScopes: tier.standard,
    args: { fileSimplyId: t.arg.string({ required: true }), versionNumber: t.arg.int({ required: true }) },
    resolve: (_root, args, ctx) => downloadVersion(ctx, args.fileSimplyId, args.versionNumber),
  }),
  fileStorageUsage: t.field({ type: StorageUsageRef, authScopes: tier.standard, resolve: (_root, _args, ctx) => storageUsage(ctx) }),
}));

builder.mutationFields((t) => ({
  fileDownloadUrls: t.field({
    type: [DownloadUrlResultRef],
    description: 'Presigned URLs of up to 100 files, each answered on its own',
    authScopes: tier.standard,
    args: { input: t.arg({ type: DownloadUrlsInput, required: true }) },
    resolve: (_root, args, ctx) => downloadUrls(ctx, givenFields(args.input)),
  }),
  regenerateFileVariants: t.field({
    type: builder.objectRef<{ fileSimplyId: string; queued: boolean }>('FileVariantsQueued').implement({
      fields: (f) => ({ fileSimplyId: f.exposeString('fileSimplyId'), queued: f.exposeBoolean('queued') }),
    }),
    description: 'Images only: renders every variant again (TEAM_ADMIN_MEDIA_LIBRARY edit)',
    authScopes: tier.standard,
    args: { fileSimplyId: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => regenerateVariants(ctx, args.fileSimplyId),
  }),
  updateFile: t.field({
    type: FileRef,
    description: 'filename, altText, labelSimplyIds (TEAM_ADMIN_MEDIA_LIBRARY edit)',
    authScopes: tier.standard,
    args: { fileSimplyId: t.arg.string({ required: true }), input: t.arg({ type: UpdateFileInput, required: true }) },
    resolve: (_root, args, ctx) => updateFile(ctx, args.fileSimplyId, givenFields(args.input, ['altText'])),
  }),
  moveFile: t.field({
    type: FileRef,
    description: 'Into a folder, or to the root with null (TEAM_ADMIN_MEDIA_LIBRARY edit)',
    authScopes: tier.standard,
    args: { fileSimplyId: t.arg.string({ required: true }), fileFolderSimplyId: t.arg.string() },
    resolve: (_root, args, ctx) => moveFile(ctx, args.fileSimplyId, { fileFolderSimplyId: args.fileFolderSimplyId ?? null }),
  }),
  deleteFile: t.boolean({
    description: 'Soft delete (hidden, object kept); force: true destroys the file and every version (TEAM_ADMIN_MEDIA_LIBRARY edit)',
    authScopes: tier.standard,
    args: { fileSimplyId: t.arg.string({ required: true }), force: t.arg.boolean() },
    resolve: (_root, args, ctx) => deleteFile(ctx, args.fileSimplyId, args.force == null ? undefined : { force: args.force }),
  }),
  bulkDeleteFiles: t.field({
    type: [BulkDeleteResultRef],
    description: 'Up to 100 files, each answered on its own (TEAM_ADMIN_MEDIA_LIBRARY edit)',
    authScopes: tier.standard,
    args: { input: t.arg({ type: BulkDeleteInput, required: true }) },
    resolve: (_root, args, ctx) => bulkDeleteFiles(ctx, givenFields(args.input)),
  }),
}));
