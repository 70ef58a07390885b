// The upload flow as a client runs it (Document 1 §4.7 rules 1-2): an intent, a multipart post of
// every returned field and then the file part to upload.url, `complete`, and the wait for the
// final status. Shared by the files suites and the benchmark.
import { createHash } from 'node:crypto';
import { Agent, fetch as undiciFetch, FormData } from 'undici';
import type { TestServer } from './server.ts';
import { until } from './until.ts';

export const sha256Base64 = (bytes: Buffer | string): string => createHash('sha256').update(bytes).digest('base64');

export interface UploadIntent {
  fileUploadSimplyId: string;
  status: string;
  expiresAt: string;
  upload: { url: string; fields: Record<string, string>; expiresAt: string; expiresIn: number };
}

export interface IntentOptions {
  filename?: string;
  contentType?: string;
  token?: string;
  teamId?: string;
  fileFolderSimplyId?: string;
  isNewVersionOfFileSimplyId?: string;
  /** declare another size or checksum than the bytes have */
  fileSizeBytes?: number;
  checksumSha256?: string;
}

const agents = new WeakMap<TestServer, Agent>();
function agentFor(server: TestServer): Agent {
  let agent = agents.get(server);
  if (!agent) {
    agent = new Agent({ connect: { ca: server.ca || undefined } });
    agents.set(server, agent);
  }
  return agent;
}

export async function createIntent(server: TestServer, token: string, bytes: Buffer, o: IntentOptions = {}) {
  return server.request('POST', '/v1/file-uploads', {
    token: o.token ?? token,
    teamId: o.teamId,
    body: {
      filename: o.filename ?? 'file.txt',
      contentType: o.contentType ?? 'text/plain',
      fileSizeBytes: o.fileSizeBytes ?? bytes.length,
      checksumSha256: o.checksumSha256 ?? sha256Base64(bytes),
      ...(o.fileFolderSimplyId ? { fileFolderSimplyId: o.fileFolderSimplyId } : {}),
      ...(o.isNewVersionOfFileSimplyId ? { isNewVersionOfFileSimplyId: o.isNewVersionOfFileSimplyId } : {}),
    },
  });
}

/** Posts the form to the signed URL: `fields` (optionally changed) then the file part. */
export async function postToSignedUrl(
  server: TestServer,
  intent: UploadIntent,
  bytes: Buffer,
  o: { fields?: Record<string, string>; partType?: string } = {},
): Promise<{ status: number; text: string }> {
  const form = new FormData();
  for (const [name, value] of Object.entries({ ...intent.upload.fields, ...o.fields })) form.append(name, value);
  const type = o.partType ?? 'application/octet-stream';
  form.append('file', new Blob([new Uint8Array(bytes)], { type }), 'upload.bin');
  const url = intent.upload.url;
  const response = await undiciFetch(url, { method: 'POST', body: form, dispatcher: url.startsWith('https:') ? agentFor(server) : undefined });
  return { status: response.status, text: await response.text() };
}

export async function completeUpload(server: TestServer, token: string, id: string, teamId?: string) {
  return server.request('POST', `/v1/file-uploads/${id}/complete`, { token, teamId });
}

const FINAL = new Set(['COMPLETED', 'REJECTED', 'EXPIRED']);

/** Polls the durable status until it is final. */
export async function finalStatus(server: TestServer, token: string, id: string, timeoutMs = 20_000, teamId?: string) {
  return until(
    `upload ${id} to end`,
    async () => {
      const res = await server.request('GET', `/v1/file-uploads/${id}`, { token, teamId });
      return res.status === 200 && FINAL.has(res.body.data.status) ? res.body.data : null;
    },
    timeoutMs,
    50,
  );
}

/** The whole flow; answers the final upload status. */
export async function uploadFile(server: TestServer, token: string, bytes: Buffer, o: IntentOptions = {}) {
  const created = await createIntent(server, token, bytes, o);
  if (created.status !== 201) throw new Error(`intent: ${created.status} ${created.text}`);
  const intent = created.body.data as UploadIntent;
  const posted = await postToSignedUrl(server, intent, bytes, { partType: o.contentType ?? 'text/plain' });
  if (posted.status >= 300) throw new Error(`post: ${posted.status} ${posted.text}`);
  const completed = await completeUpload(server, o.token ?? token, intent.fileUploadSimplyId, o.teamId);
  if (completed.status !== 200 && completed.status !== 202) throw new Error(`complete: ${completed.status} ${completed.text}`);
  return finalStatus(server, o.token ?? token, intent.fileUploadSimplyId, 20_000, o.teamId);
}

/**
 * File rows for suites about record values, which need ids that name live files of the team but
 * never their bytes (no object is stored under the placeholder keys).
 */
export async function insertFileRows(server: TestServer, teamId: bigint, files: { simplyId: string; fileType?: string }[]): Promise<void> {
  await server.app.services.prisma.storedFile.createMany({
    data: files.map((f) => ({
      simplyId: f.simplyId,
      teamId,
      filename: `${f.simplyId}.bin`,
      nameKey: `${f.simplyId}.bin`,
      fileType: f.fileType ?? 'IMAGE',
      mimeType: f.fileType === 'DOCUMENT' ? 'application/pdf' : 'image/png',
      fileSizeBytes: 1n,
      checksumSha256: 'none',
      storageKey: `teams/fixture/objects/${f.simplyId}`,
      createdByKind: 'API_KEY',
      createdById: 'fixture',
    })),
  });
}
