// The errors of the files area beyond the shared ones (docs/api/files.md "Errors").
import { ApiError } from '../../app/errors.ts';

/** The team's stored bytes plus this upload would exceed its storage limit (at intent creation; at promotion the upload is REJECTED instead). */
export class StorageLimitExceededError extends ApiError {
  constructor(usedBytes: bigint, quotaBytes: bigint, sizeBytes: number) {
    super(409, 'STORAGE_LIMIT_EXCEEDED', `The team stores ${usedBytes} of ${quotaBytes} bytes; ${sizeBytes} more would exceed its storage limit`);
  }
}

/** `complete` before the bytes were posted to upload.url: the intent stays open until it lapses. */
export class UploadNotReceivedError extends ApiError {
  constructor(uploadSimplyId: string) {
    super(409, 'UPLOAD_NOT_RECEIVED', `Nothing has been uploaded for ${uploadSimplyId} yet: post the file to upload.url with upload.fields, then complete`);
  }
}

export class FolderNotEmptyError extends ApiError {
  constructor(folderSimplyId: string) {
    super(409, 'FOLDER_NOT_EMPTY', `Folder ${folderSimplyId} still holds files or folders; move or delete them first`);
  }
}
