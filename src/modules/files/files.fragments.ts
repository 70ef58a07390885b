// The selections of this area's types that other faces (REST tables, tests) use.
import { fragment } from '../../app/graphql/fragments.ts';

const FILE_FIELDS = `id fileSimplyId filename fileType mimeType fileSizeBytes width height altText fileFolderSimplyId
  currentVersionNumber checksumSha256 labelSimplyIds isDeleted deletedAt createdAt updatedAt`;

/** a file in lists: no presigned URLs */
export const FILE = fragment('FileFields', 'File', FILE_FIELDS);
/** what a record read expands (expand=files): enough to show and fetch each file */
export const FILE_BRIEF = fragment('FileBriefFields', 'File', 'fileSimplyId filename fileType mimeType fileSizeBytes width height altText isDeleted');

/** one file: with its presigned URLs */
export const FILE_DETAIL = fragment('FileDetailFields', 'File', `${FILE_FIELDS} originalUrl thumbnailUrl`);

export const FILE_DOWNLOAD = fragment('FileDownloadFields', 'FileDownload', 'fileSimplyId url expiresAt expiresIn variantType versionNumber');
export const FILE_DOWNLOAD_RESULT = fragment('FileDownloadUrlResultFields', 'FileDownloadUrlResult', 'fileSimplyId url expiresAt expiresIn variantType error { code message }');
export const FILE_BULK_DELETE_RESULT = fragment('FileBulkDeleteResultFields', 'FileBulkDeleteResult', 'fileSimplyId deleted error { code message }');
export const FILE_VARIANT = fragment('FileVariantFields', 'FileVariant', 'id fileVariantSimplyId variantType format width height fileSizeBytes versionNumber createdAt');
export const FILE_VERSION = fragment('FileVersionFields', 'FileVersion', 'versionNumber isCurrent filename mimeType fileSizeBytes checksumSha256 width height createdAt');
export const FILE_STORAGE_USAGE = fragment(
  'FileStorageUsageFields',
  'FileStorageUsage',
  'usedBytes quotaBytes availableBytes isTeamQuota fileCount deletedFileCount versionBytes variantBytes deletedBytes',
);
export const FILE_FOLDER = fragment('FileFolderFields', 'FileFolder', 'id fileFolderSimplyId name parentFileFolderSimplyId createdAt updatedAt');
export const FILE_UPLOAD = fragment(
  'FileUploadFields',
  'FileUpload',
  `id fileUploadSimplyId status filename contentType fileSizeBytes checksumSha256 fileFolderSimplyId isNewVersionOfFileSimplyId
   expectedVersionNumber rejectionReason rejectionMessage fileSimplyId versionNumber expiresAt createdAt completedAt`,
);
export const CREATED_FILE_UPLOAD = fragment('CreatedFileUploadFields', 'CreatedFileUpload', 'id fileUploadSimplyId status expiresAt upload { url fields expiresAt expiresIn }');
