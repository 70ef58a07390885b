// Uploading the CSV an import reads, through the files module's upload flow as any client does
// (docs/api/files.md "Uploading a file"): an intent, the signed form posted with the bytes,
// `complete`, then waiting for the upload's final status. Answers the new file's simplyId.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ApiCallError, type ApiClient } from '../../../app/cli/api-client.ts';

const POLL_MS = 300;
const WAIT_MS = 5 * 60_000;

export async function uploadCsv(client: ApiClient, file: string): Promise<string> {
  const bytes = fs.readFileSync(file);
  const intent = await client.call('POST', '/v1/file-uploads', {
    filename: path.basename(file),
    contentType: 'text/csv',
    fileSizeBytes: bytes.length,
    checksumSha256: createHash('sha256').update(bytes).digest('base64'),
  });
  await client.postForm(intent.upload.url, intent.upload.fields, { bytes, filename: path.basename(file), contentType: 'text/csv' });
  const id = encodeURIComponent(intent.fileUploadSimplyId);
  await client.call('POST', `/v1/file-uploads/${id}/complete`);
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const upload = await client.call('GET', `/v1/file-uploads/${id}`);
    if (upload.status === 'COMPLETED') return upload.fileSimplyId as string;
    if (upload.status === 'REJECTED' || upload.status === 'EXPIRED') {
      throw new ApiCallError(422, `UPLOAD_${upload.status}`, `the CSV upload was ${upload.status.toLowerCase()}: ${upload.rejectionReason ?? ''} ${upload.rejectionMessage ?? ''}`.trim());
    }
    if (Date.now() > deadline) throw new ApiCallError(504, 'UPLOAD_TIMED_OUT', 'the CSV upload was not checked within 5 minutes');
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
