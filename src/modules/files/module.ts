// Files and the media library: signed direct uploads checked before promotion (inspection,
// malware scanning, storage limit), versions, image variants, folders and labels, on local disk
// or S3-compatible storage.
import { defineModule } from '../../app/module.ts';
import { filesConfig } from './files.config.ts';
import * as filesSchema from './files.schema.ts';
import * as uploadsSchema from './file-uploads.schema.ts';
import * as foldersSchema from './file-folders.schema.ts';
import * as recordFilesSchema from './record-files.schema.ts';
import { fileFolderId, fileId, fileUploadId, fileVariantId, teamLabelId } from './files.ids.ts';
import { fileJobs } from './files.jobs.ts';
import { findLiveFileKinds } from './files.sql.ts';
import { createObjectStorage, setStorageBaseUrl } from './storage/create-storage.ts';
import { localStorageEndpoints } from './storage/local-storage-endpoints.ts';
import type { ObjectStorage } from './storage/object-storage.ts';
import { createMalwareScanner } from './scanning/create-scanner.ts';
import type { MalwareScanner } from './scanning/malware-scanner.ts';
import './files.events.ts';

declare module '../../app/context.ts' {
  interface Services {
    fileStorage: ObjectStorage;
    malwareScanner: MalwareScanner;
  }
}

export const filesModule = defineModule({
  name: 'files',
  description: 'Files and the media library: signed direct uploads, inspection and malware scanning, versions, image variants, folders and labels.',
  config: filesConfig,
  schema: { filesSchema, uploadsSchema, foldersSchema, recordFilesSchema },
  ids: [fileId, fileFolderId, fileUploadId, fileVariantId, teamLabelId],
  services: async (services) => ({
    fileStorage: await createObjectStorage(services.config),
    malwareScanner: createMalwareScanner(services.config),
    fileReferences: { liveFileKinds: findLiveFileKinds },
  }),
  jobs: (services) => fileJobs(services),
  httpEndpoints: (services) => localStorageEndpoints(services.fileStorage),
  onListening: (services, baseUrl) => setStorageBaseUrl(services.fileStorage, baseUrl),
  topics: ['fileUploadStatus'],
});
