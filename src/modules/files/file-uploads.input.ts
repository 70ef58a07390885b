// The upload intent's input (Document 1 §4.7 POST /v1/file-uploads), shared by both faces.
import { z } from 'zod';
import { allowedType, BINARY_MAX_BYTES, maxBytesFor } from './files.allowlist.ts';
import { FILENAME_MAX, filenameSchema } from './files.input.ts';

/** base64 of 32 bytes: 43 characters and one `=` */
const SHA256_BASE64 = /^[A-Za-z0-9+/]{43}=$/;

export const createUploadInput = z
  .strictObject({
    filename: filenameSchema,
    contentType: z.string().max(255),
    fileSizeBytes: z.number().int().min(1, 'must be at least 1 byte').max(BINARY_MAX_BYTES, `must be at most ${BINARY_MAX_BYTES} bytes (500 MiB)`),
    checksumSha256: z.string().regex(SHA256_BASE64, 'must be the base64 SHA-256 of the bytes (44 characters ending in =)'),
    fileFolderSimplyId: z.string().nullish(),
    isNewVersionOfFileSimplyId: z.string().nullish(),
  })
  .superRefine((input, issue) => {
    const type = allowedType(input.contentType);
    if (!type) {
      issue.addIssue({ code: 'custom', path: ['contentType'], message: 'is not an allowed content type (exact, lower case; see the allowlist in docs/api/files.md)' });
      return;
    }
    const max = maxBytesFor(type);
    if (input.fileSizeBytes > max) {
      issue.addIssue({ code: 'custom', path: ['fileSizeBytes'], message: `must be at most ${max} bytes for ${input.contentType}` });
    }
  });

export type CreateUploadInput = z.output<typeof createUploadInput>;
export { FILENAME_MAX };
