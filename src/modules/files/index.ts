// The public API of the files area: all another area may import from it (test/app/module-structure.test.ts).
// Its manifest is module.ts; every other file of the folder is private to the area.
export { readableFiles } from './file-read-access.ts';
export { requireMediaLibraryEdit } from './files.access.ts';
export { fileId } from './files.ids.ts';
export { fieldValueWithFile, readFileVersionBytes, storeGeneratedFileVersion } from './generated-version.ts';
export type { ObjectStorage } from './storage/object-storage.ts';
export { exportObjectKey } from './storage/storage-keys.ts';
export { type ImageVariantWork, renderVersionVariants, type VariantWorkItem } from './variant-jobs.ts';
export { UnreadableImageError } from './variants/unreadable-image-error.ts';
// files that arrive without a credential (conversations' inbound email attachments), through the same inspection
export { platformUploadOutcomes, platformUploadRefusal, stagePlatformUpload, type PlatformUploadOutcome } from './platform-uploads.ts';
