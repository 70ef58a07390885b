// /v1/files, /v1/file-uploads → src/modules/files/{files,file-uploads,file-folders}.schema.ts
// (docs/api/files.md). Standard tier; the service applies rule 4 and the read rules.
import { z } from 'zod';
import { operation } from '../../src/app/graphql/fragments.ts';
import {
  CREATED_FILE_UPLOAD,
  FILE,
  FILE_BULK_DELETE_RESULT,
  FILE_DETAIL,
  FILE_DOWNLOAD,
  FILE_DOWNLOAD_RESULT,
  FILE_FOLDER,
  FILE_STORAGE_USAGE,
  FILE_UPLOAD,
  FILE_VARIANT,
  FILE_VERSION,
} from '../../src/modules/files/files.fragments.ts';
import {
  FILE_KINDS,
  FILE_SORT_FIELDS,
  batchUploadsInput,
  bulkDeleteInput,
  createFolderInput,
  deleteFileInput,
  downloadUrlsInput,
  moveFileInput,
  tempCleanupInput,
  updateFileInput,
  updateFolderInput,
  variantFormatInput,
} from '../../src/modules/files/files.input.ts';
import { createUploadInput } from '../../src/modules/files/file-uploads.input.ts';
import { VARIANT_TYPES } from '../../src/modules/files/variants/image-variant-types.ts';
import { defineRoutes, respond, route } from '../route.ts';
import { actOn, createOne, getOne, updateOne } from '../route-shapes.ts';
import { queryBool, queryInt, queryList } from '../schemas.ts';

const ONE = '/v1/files/{fileSimplyId}';
const FOLDER = '/v1/files/folders/{fileFolderSimplyId}';
const UPLOAD = '/v1/file-uploads/{fileUploadSimplyId}';

const listQuery = z.strictObject({
  page: queryInt().describe('1 or more, default 1'),
  pageSize: queryInt().describe('1-100, default 25'),
  fileType: z.enum(FILE_KINDS).optional(),
  fileFolderSimplyId: z.string().optional().describe('a folder, or "null" for the root only; absent: every folder'),
  search: z.string().optional().describe('part of the filename (at most 128 characters)'),
  labelSimplyIds: queryList().describe('comma-separated: files carrying any of them'),
  sortBy: z.enum(FILE_SORT_FIELDS).optional(),
  sortOrder: z.enum(['asc', 'desc']).optional(),
  includeDeleted: queryBool().describe('true: soft-deleted files too'),
});
type ListQuery = z.output<typeof listQuery>;

const FINAL = new Set(['COMPLETED', 'REJECTED', 'EXPIRED']);

/** `{ nodes, pagination }` → data and meta.pagination, paged by page/pageSize (not limit/offset) */
const filePage = respond.custom(
  (page: { nodes: unknown[]; pagination: unknown }) => ({ data: page.nodes, meta: { pagination: page.pagination } }),
  (field) => ({
    data: respond.property(field, 'nodes'),
    meta: { type: 'object', properties: { pagination: respond.property(field, 'pagination') }, required: ['pagination'] },
  }),
);

export const fileRoutes = defineRoutes([
  route<Record<string, string>, ListQuery>({
    method: 'GET',
    path: '/v1/files',
    summary: 'List files',
    description: 'Files, paged by page/pageSize: fileType, fileFolderSimplyId ("null": root), search, labelSimplyIds, sortBy, sortOrder, includeDeleted',
    operation: operation`query Files($page: Int, $pageSize: Int, $fileType: FileType, $fileFolderSimplyId: String, $search: String, $labelSimplyIds: [String!], $sortBy: FileSortField, $sortOrder: FileSortOrder, $includeDeleted: Boolean) {
      files(page: $page, pageSize: $pageSize, fileType: $fileType, fileFolderSimplyId: $fileFolderSimplyId, search: $search, labelSimplyIds: $labelSimplyIds, sortBy: $sortBy, sortOrder: $sortOrder, includeDeleted: $includeDeleted) {
        nodes { ${FILE} } pagination { total page pageSize totalPages hasMore } } }`,
    query: listQuery,
    variables: ({ query }) => ({
      ...query,
      labelSimplyIds: query.labelSimplyIds.length ? query.labelSimplyIds : undefined,
      // null: the root only; absent (undefined): every folder
      fileFolderSimplyId: query.fileFolderSimplyId === 'null' ? null : query.fileFolderSimplyId,
    }),
    respond: filePage,
  }),
  getOne({ path: '/v1/files/storage-usage', summary: 'Get storage usage', description: "The team's storage usage and limit", name: 'FileStorageUsage', field: 'fileStorageUsage', select: FILE_STORAGE_USAGE }),
  route({
    method: 'GET',
    path: '/v1/files/folders',
    summary: 'List folders',
    description: 'Folders directly in parentFileFolderSimplyId (absent: at the root), by name (TEAM_ADMIN_MEDIA_LIBRARY view)',
    operation: operation`query FileFolders($parent: String) { fileFolders(parentFileFolderSimplyId: $parent) { ${FILE_FOLDER} } }`,
    query: z.strictObject({ parentFileFolderSimplyId: z.string().optional() }),
    variables: ({ query }) => ({ parent: (query as { parentFileFolderSimplyId?: string }).parentFileFolderSimplyId }),
  }),
  createOne({
    path: '/v1/files/folders',
    summary: 'Create a folder',
    description: 'Create a folder: { name, parentFileFolderSimplyId? } (TEAM_ADMIN_MEDIA_LIBRARY edit)',
    name: 'CreateFileFolder',
    inputType: 'CreateFileFolderInput',
    body: createFolderInput,
    select: FILE_FOLDER,
  }),
  updateOne({
    method: 'PATCH',
    path: FOLDER,
    summary: 'Update a folder',
    description: 'Rename and/or move a folder: { name?, parentFileFolderSimplyId? } (null: to the root)',
    name: 'UpdateFileFolder',
    inputType: 'UpdateFileFolderInput',
    body: updateFolderInput,
    select: FILE_FOLDER,
  }),
  actOn({ method: 'DELETE', path: FOLDER, summary: 'Delete a folder', description: 'Delete an empty folder (409 FOLDER_NOT_EMPTY otherwise)', name: 'DeleteFileFolder', field: 'deleteFileFolder' }),
  route({
    method: 'POST',
    path: '/v1/files/download-urls',
    summary: 'Get download URLs of files',
    description: 'Presigned URLs of up to 100 files: { fileSimplyIds, variantType? }; each file answers on its own',
    operation: operation`mutation FileDownloadUrls($input: FileDownloadUrlsInput!) { fileDownloadUrls(input: $input) { ${FILE_DOWNLOAD_RESULT} } }`,
    body: downloadUrlsInput,
    variables: ({ body }) => ({ input: body }),
  }),
  route({
    method: 'POST',
    path: '/v1/files/bulk-delete',
    summary: 'Delete files in bulk',
    description: 'Delete up to 100 files: { fileSimplyIds, force? }; per-file results',
    operation: operation`mutation BulkDeleteFiles($input: FileBulkDeleteInput!) { bulkDeleteFiles(input: $input) { ${FILE_BULK_DELETE_RESULT} } }`,
    body: bulkDeleteInput,
    variables: ({ body }) => ({ input: body }),
  }),
  route({
    method: 'POST',
    path: '/v1/files/batch',
    summary: 'Create upload intents in batch',
    description: 'Compatibility: up to 25 upload intents at once: { files: [ <POST /v1/file-uploads body> ] }; per-item results; never a storage address',
    operation: operation`mutation BatchCreateFileUploads($input: FileBatchUploadsInput!) { batchCreateFileUploads(input: $input) { index upload { ${CREATED_FILE_UPLOAD} } error { code message details } } }`,
    body: batchUploadsInput,
    variables: ({ body }) => ({ input: body }),
  }),
  route({
    method: 'POST',
    path: '/v1/files/temp-cleanup',
    summary: 'End open upload intents',
    description: "Compatibility: ends this credential's open upload intents (all, or { fileUploadSimplyIds }) as EXPIRED and removes their objects",
    operation: operation`mutation CleanUpTemporaryFileUploads($ids: [String!]) { cleanUpTemporaryFileUploads(fileUploadSimplyIds: $ids) { expired } }`,
    body: tempCleanupInput,
    variables: ({ body }) => ({ ids: (body as { fileUploadSimplyIds?: string[] } | undefined)?.fileUploadSimplyIds }),
  }),
  route({
    method: 'GET',
    path: ONE,
    summary: 'Get a file',
    description: 'One file with a presigned originalUrl (3600 s) and, for images, thumbnailUrl; includeDeleted=true shows a soft-deleted file',
    operation: operation`query File($id: String!, $includeDeleted: Boolean) { file(fileSimplyId: $id, includeDeleted: $includeDeleted) { ${FILE_DETAIL} } }`,
    query: z.strictObject({ includeDeleted: queryBool() }),
    variables: ({ params, query }) => ({ id: params.fileSimplyId, includeDeleted: (query as { includeDeleted?: boolean }).includeDeleted ?? false }),
  }),
  route({
    method: 'GET',
    path: `${ONE}/download`,
    summary: 'Get a download URL',
    description: 'A presigned URL: the original (expiresIn 3600) or ?variantType= (five minutes)',
    operation: operation`query FileDownload($id: String!, $variantType: String, $format: String) { fileDownload(fileSimplyId: $id, variantType: $variantType, format: $format) { ${FILE_DOWNLOAD} } }`,
    query: z.strictObject({
      variantType: z.enum(VARIANT_TYPES).optional(),
      format: variantFormatInput.optional().describe('with variantType: webp or avif; absent: WebP, or AVIF when the URL is fetched with Accept: image/avif (platform storage)'),
    }),
    variables: ({ params, query }) => ({ id: params.fileSimplyId, ...(query as { variantType?: string; format?: string }) }),
  }),
  getOne({ path: `${ONE}/variants`, summary: 'List variants of a file', description: 'Variants of the current version (images)', name: 'FileVariants', select: FILE_VARIANT }),
  actOn({
    method: 'POST',
    path: `${ONE}/variants/regenerate`,
    summary: 'Regenerate variants',
    description: 'Images only: queue the variants again (TEAM_ADMIN_MEDIA_LIBRARY edit); 202',
    name: 'RegenerateFileVariants',
    select: 'fileSimplyId queued',
    status: 202,
  }),
  updateOne({
    method: 'PATCH',
    path: ONE,
    summary: 'Update a file',
    description: 'Change filename, altText, labelSimplyIds (TEAM_ADMIN_MEDIA_LIBRARY edit)',
    name: 'UpdateFile',
    inputType: 'UpdateFileInput',
    body: updateFileInput,
    example: { filename: 'team-photo-2026.jpg', altText: 'The whole team on the town hall steps' },
    select: FILE,
  }),
  route({
    method: 'PUT',
    path: `${ONE}/folder`,
    summary: 'Move a file',
    description: 'Move into a folder: { fileFolderSimplyId } (null: the root)',
    operation: operation`mutation MoveFile($id: String!, $folder: String) { moveFile(fileSimplyId: $id, fileFolderSimplyId: $folder) { ${FILE} } }`,
    body: moveFileInput,
    variables: ({ params, body }) => ({ id: params.fileSimplyId, folder: (body as { fileFolderSimplyId: string | null }).fileFolderSimplyId }),
  }),
  route({
    method: 'DELETE',
    path: ONE,
    summary: 'Delete a file',
    description: 'Soft delete (hidden, object kept); body { force: true } destroys the file and every version',
    operation: operation`mutation DeleteFile($id: String!, $force: Boolean) { deleteFile(fileSimplyId: $id, force: $force) }`,
    body: deleteFileInput,
    variables: ({ params, body }) => ({ id: params.fileSimplyId, force: (body as { force?: boolean } | undefined)?.force }),
    respond: respond.deleted('fileSimplyId'),
  }),
  getOne({ path: `${ONE}/versions`, summary: 'List versions of a file', description: 'Every version, newest first', name: 'FileVersions', select: FILE_VERSION }),
  route({
    method: 'GET',
    path: `${ONE}/versions/{versionNumber}/download`,
    summary: 'Get a version download URL',
    description: 'A presigned URL (3600 s) of one version',
    operation: operation`query FileVersionDownload($id: String!, $version: Int!) { fileVersionDownload(fileSimplyId: $id, versionNumber: $version) { ${FILE_DOWNLOAD} } }`,
    params: z.object({ fileSimplyId: z.string(), versionNumber: z.string().regex(/^[1-9]\d{0,8}$/, 'must be a version number (1 or more)').transform(Number) }),
    variables: ({ params }) => ({ id: params.fileSimplyId, version: params.versionNumber }),
  }),
  createOne({
    path: '/v1/file-uploads',
    summary: 'Create an upload intent',
    description: 'An upload intent: { filename, contentType, fileSizeBytes, checksumSha256, fileFolderSimplyId?, isNewVersionOfFileSimplyId? } → upload.url and upload.fields (ten minutes)',
    name: 'CreateFileUpload',
    inputType: 'CreateFileUploadInput',
    body: createUploadInput,
    example: {
      filename: 'annual-report-2026.pdf',
      contentType: 'application/pdf',
      fileSizeBytes: 482133,
      checksumSha256: 'n4bQgYhMfWWaL+qgxVrQFaO/TxsrC4Is0V1sFbDwCgg=',
    },
    select: CREATED_FILE_UPLOAD,
  }),
  actOn({
    method: 'POST',
    path: `${UPLOAD}/complete`,
    summary: 'Complete an upload',
    description: '202 while checks run (PENDING), otherwise the final status (COMPLETED, REJECTED, EXPIRED); 409 UPLOAD_NOT_RECEIVED before the bytes were posted',
    name: 'CompleteFileUpload',
    select: FILE_UPLOAD,
    respond: respond.custom(
      (upload: { status: string }) => ({ data: upload, status: FINAL.has(upload.status) ? 200 : 202 }),
      (field) => ({ data: field }),
    ),
  }),
  getOne({ path: UPLOAD, summary: 'Get an upload', description: 'The durable status of an upload this credential created (no storage coordinates)', name: 'FileUpload', select: FILE_UPLOAD }),
]);
