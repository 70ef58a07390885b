// The local driver's HTTP face, mounted by the server under /storage/ (AppModule.httpEndpoints):
//   POST /storage/uploads           a signed upload form (local-upload-receiver.ts) → 204
//   GET|HEAD /storage/objects/<key> a signed download URL → the bytes, ranges allowed; a URL
//                                   signed with an alternative (an AVIF beside a WebP) answers
//                                   by the request's Accept header, with Vary: Accept
// The signature is the only authorization: no credential, no cookie. Objects are served so that a
// browser cannot be made to run them as a page of the platform's origin: the signed type exactly,
// nosniff, and a sandboxing Content-Security-Policy on anything a browser renders as a document.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FileHandle } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import type { HttpEndpoint } from '../../../app/module.ts';
import { sendError } from '../../../app/http/envelope.ts';
import { prefersAlternative } from './accept-negotiation.ts';
import { parseRange } from './byte-range.ts';
import { contentDisposition } from './content-disposition.ts';
import {
  LocalObjectStorage,
  OBJECTS_PATH,
  SIGNED_ALTERNATIVE_PARAMS,
  SIGNED_DOWNLOAD_PARAMS,
  UPLOADS_PATH,
  type SignedAlternativeParams,
  type SignedDownloadParams,
} from './local-storage.ts';
import { receiveUpload } from './local-upload-receiver.ts';
import type { ObjectStorage } from './object-storage.ts';
import { isObjectKey } from './storage-input.ts';

export const STORAGE_PREFIX = '/storage/';

/** The endpoints the driver needs served: the local driver's, none for S3. */
export function localStorageEndpoints(storage: ObjectStorage): HttpEndpoint[] {
  if (!(storage instanceof LocalObjectStorage)) return [];
  return [
    {
      prefix: STORAGE_PREFIX,
      route: STORAGE_PREFIX,
      handle: (req, res, url, requestId) => handleStorageRequest(storage, req, res, url, requestId),
    },
  ];
}

// What a browser renders as media or hands to its PDF viewer. A sandboxing CSP on those would
// block the very bytes of the document (media-src, img-src 'none'), and they cannot run script in
// the origin; everything else (SVG, XML, text…) gets the sandbox.
const RENDERED_WITHOUT_SCRIPT = /^(?:image\/(?!svg\+xml$)[a-z0-9.+-]+|video\/[a-z0-9.+-]+|audio\/[a-z0-9.+-]+|application\/pdf)$/;
const SANDBOX_CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

async function handleStorageRequest(storage: LocalObjectStorage, req: IncomingMessage, res: ServerResponse, url: URL, requestId: string): Promise<void> {
  const method = req.method ?? 'GET';
  if (url.pathname === UPLOADS_PATH) {
    if (method !== 'POST') return sendError(res, requestId, { status: 405, code: 'METHOD_NOT_ALLOWED', message: 'Allowed methods: POST', headers: { Allow: 'POST' } });
    return acceptUpload(storage, req, res, requestId);
  }
  if (url.pathname.startsWith(OBJECTS_PATH)) {
    if (method !== 'GET' && method !== 'HEAD') {
      return sendError(res, requestId, { status: 405, code: 'METHOD_NOT_ALLOWED', message: 'Allowed methods: GET, HEAD', headers: { Allow: 'GET, HEAD' } });
    }
    return serveObject(storage, req, res, url, requestId);
  }
  return sendError(res, requestId, { status: 404, code: 'NOT_FOUND', message: `No route for ${method} ${url.pathname}` });
}

/** An upload may take long (500 MiB), but not stall: a client silent this long is cut off. */
const UPLOAD_IDLE_MS = 60_000;

async function acceptUpload(storage: LocalObjectStorage, req: IncomingMessage, res: ServerResponse, requestId: string): Promise<void> {
  req.setTimeout(UPLOAD_IDLE_MS, () => req.destroy(new Error('upload stalled')));
  // on any answer before the whole body is read, the connection ends with the answer
  const receipt = await receiveUpload(req, storage).catch((error: unknown) => {
    res.setHeader('connection', 'close');
    throw error;
  });
  if (!receipt.ok) {
    return sendError(res, requestId, { ...receipt.refusal, headers: { connection: 'close' } });
  }
  const { tempFile, fields } = receipt.upload;
  await storage.commit(tempFile, fields.key, fields['Content-Type'], {
    uploadSimplyId: fields.uploadSimplyId,
    teamSimplyId: fields.teamSimplyId,
    checksumSha256: fields.checksumSha256,
  });
  res.writeHead(204, { 'cache-control': 'no-store' });
  res.end();
}

function forbidden(res: ServerResponse, requestId: string, check: 'mismatch' | 'expired'): void {
  sendError(
    res,
    requestId,
    check === 'expired'
      ? { status: 403, code: 'SIGNATURE_EXPIRED', message: 'The download URL has expired; ask for a new one' }
      : { status: 403, code: 'SIGNATURE_MISMATCH', message: 'The download URL does not carry a valid signature' },
  );
}

async function serveObject(storage: LocalObjectStorage, req: IncomingMessage, res: ServerResponse, url: URL, requestId: string): Promise<void> {
  const key = url.pathname.slice(OBJECTS_PATH.length);
  if (!isObjectKey(key)) return sendError(res, requestId, { status: 404, code: 'NOT_FOUND', message: 'No such object' });
  const query = url.searchParams;
  const sig = query.get('sig');
  const values = SIGNED_DOWNLOAD_PARAMS.map((name) => query.get(name));
  if (sig === null || values.some((value) => value === null)) return forbidden(res, requestId, 'mismatch');
  const params = Object.fromEntries(SIGNED_DOWNLOAD_PARAMS.map((name, i) => [name, values[i]!])) as SignedDownloadParams;
  const altValues = SIGNED_ALTERNATIVE_PARAMS.map((name) => query.get(name));
  if (altValues.some((value) => value === null) && altValues.some((value) => value !== null)) return forbidden(res, requestId, 'mismatch');
  const alternative = altValues[0] === null ? null : (Object.fromEntries(SIGNED_ALTERNATIVE_PARAMS.map((name, i) => [name, altValues[i]!])) as SignedAlternativeParams);
  const check = storage.checkDownloadSignature(key, params, sig, alternative);
  if (check !== 'valid') return forbidden(res, requestId, check);
  if (params.disp !== 'attachment' && params.disp !== 'inline') return forbidden(res, requestId, 'mismatch');
  if (alternative && !isObjectKey(alternative.alt)) return forbidden(res, requestId, 'mismatch');

  // the signature covers both representations; the request's Accept header picks one
  const useAlternative = alternative !== null && prefersAlternative(req.headers.accept, params.type, alternative.altType);
  const served = useAlternative ? { key: alternative.alt, params: { ...params, name: alternative.altName, type: alternative.altType } } : { key, params };
  const handle = await storage.openObject(served.key);
  if (!handle) return sendError(res, requestId, { status: 404, code: 'NOT_FOUND', message: 'No such object' });
  try {
    await sendObject(handle, req, res, served.params, { negotiated: alternative !== null });
  } finally {
    // the read stream closes the handle when it streamed; this covers HEAD, 416 and errors
    await handle.close().catch(() => {});
  }
}

async function sendObject(handle: FileHandle, req: IncomingMessage, res: ServerResponse, params: SignedDownloadParams, options: { negotiated: boolean }): Promise<void> {
  const { size } = await handle.stat();
  const remaining = Math.max(0, Number(params.exp) - Math.floor(Date.now() / 1000));
  const headers: Record<string, string | number> = {
    'content-type': params.type,
    'content-disposition': contentDisposition(params.disp as 'attachment' | 'inline', params.name),
    'x-content-type-options': 'nosniff',
    'accept-ranges': 'bytes',
    'cache-control': `private, max-age=${remaining}`,
  };
  if (!RENDERED_WITHOUT_SCRIPT.test(params.type)) headers['content-security-policy'] = SANDBOX_CSP;
  // a cache must not hand one client's choice to another that accepts other types
  if (options.negotiated) headers.vary = 'Accept';

  const range = parseRange(req.headers.range, size);
  if (range.kind === 'unsatisfiable') {
    res.writeHead(416, { ...headers, 'content-range': `bytes */${size}`, 'content-length': 0 });
    res.end();
    return;
  }
  const [status, start, end] = range.kind === 'part' ? [206, range.start, range.end] : [200, 0, size - 1];
  if (range.kind === 'part') headers['content-range'] = `bytes ${start}-${end}/${size}`;
  headers['content-length'] = end - start + 1;
  res.writeHead(status, headers);
  if (req.method === 'HEAD' || size === 0) {
    res.end();
    return;
  }
  // a client that goes away mid-download ends the pipeline early: nothing to answer then
  await pipeline(handle.createReadStream({ start, end, autoClose: false }), res).catch(() => {});
}
