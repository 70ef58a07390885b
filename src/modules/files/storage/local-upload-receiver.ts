// Receives one signed upload form (POST /storage/uploads) as it streams in: the signed fields
// first, then exactly one file part, which goes to a temp file while it is hashed and counted.
// Nothing of the body is held in memory beyond the stream buffers; a body that breaks the
// signed binding is cut off at once and its temp file removed.
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { rm } from 'node:fs/promises';
import { Transform, type Readable } from 'node:stream';
import busboy from 'busboy';
import type { ErrorDetail } from '../../../app/errors.ts';
import { writeStreamToFile } from './atomic-files.ts';
import { SIGNED_UPLOAD_FIELDS, type LocalObjectStorage, type SignedUploadFields } from './local-storage.ts';

export interface Refusal {
  status: number;
  code: string;
  message: string;
  details?: ErrorDetail[];
}

export interface ReceivedUpload {
  /** the flushed temp file holding exactly the signed bytes */
  tempFile: string;
  fields: SignedUploadFields;
}

export type UploadReceipt = { ok: true; upload: ReceivedUpload } | { ok: false; refusal: Refusal };

const FILE_PART = 'file';
const SIGNATURE_FIELD = 'signature';
const FORM_FIELDS: ReadonlySet<string> = new Set([...SIGNED_UPLOAD_FIELDS, SIGNATURE_FIELD]);

function invalid(field: string, message: string): UploadReceipt {
  return { ok: false, refusal: { status: 400, code: 'VALIDATION_ERROR', message, details: [{ field, message }] } };
}

const SIGNATURE_MISMATCH: UploadReceipt = {
  ok: false,
  refusal: { status: 403, code: 'SIGNATURE_MISMATCH', message: 'The upload form does not carry a valid signature for these fields' },
};
const SIGNATURE_EXPIRED: UploadReceipt = {
  ok: false,
  refusal: { status: 403, code: 'SIGNATURE_EXPIRED', message: 'The upload form has expired; create a new upload' },
};

class TooManyBytes extends Error {}

/**
 * Pieces of 64 KiB (busboy's default is 16 KiB): fewer hash updates and writes per MiB. 1 MiB
 * pieces were no faster in the bench and held ~20 MiB more memory per upload (docs/benchmark.md).
 */
const STREAM_CHUNK = 64 * 1024;

/**
 * Reads the form of `req`; resolves once the upload is stored in a temp file or refused, rejects
 * only when the server itself fails (the temp folder cannot be written).
 */
export function receiveUpload(req: IncomingMessage, storage: LocalObjectStorage): Promise<UploadReceipt> {
  return new Promise((resolve, reject) => {
    let form: busboy.Busboy;
    try {
      form = busboy({
        headers: req.headers,
        highWaterMark: STREAM_CHUNK,
        fileHwm: STREAM_CHUNK,
        // a form holds the signed fields and one file; an unknown field is refused by name below, these are the backstop
        limits: { fieldNameSize: 64, fieldSize: 1024, fields: FORM_FIELDS.size * 2, files: 1, parts: FORM_FIELDS.size * 2 + 1 },
      });
    } catch {
      resolve(invalid('Content-Type', 'The request must be multipart/form-data with a boundary'));
      return;
    }
    const fields = new Map<string, string>();
    const cutOff = new AbortController();
    let file: Promise<UploadReceipt> | null = null;
    let settled = false;

    // stop reading: the file part (if running) fails and removes its temp file
    const stopReading = () => {
      cutOff.abort();
      req.unpipe(form);
      req.resume();
      void file?.then(
        async (done) => {
          if (done.ok) await rm(done.upload.tempFile, { force: true });
        },
        () => {},
      );
    };
    const settle = (receipt: UploadReceipt) => {
      if (settled) {
        if (receipt.ok) void rm(receipt.upload.tempFile, { force: true });
        return;
      }
      settled = true;
      if (!receipt.ok) stopReading();
      resolve(receipt);
    };
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      stopReading();
      reject(error);
    };

    form.on('field', (name, value, info) => {
      if (file) return settle(invalid(name, 'Every field must come before the file part'));
      if (name === FILE_PART) return settle(invalid(FILE_PART, 'The file part must carry a filename'));
      if (!FORM_FIELDS.has(name)) return settle(invalid(name, `Unknown field ${JSON.stringify(name)}; send the signed fields unchanged`));
      if (fields.has(name)) return settle(invalid(name, `The field ${name} appears twice`));
      if (info.nameTruncated || info.valueTruncated) return settle(invalid(name, `The field ${name} is too long`));
      fields.set(name, value);
    });

    form.on('file', (name, stream, info) => {
      if (settled) return void stream.resume();
      if (name !== FILE_PART) {
        stream.resume();
        return settle(invalid(name, `The file part must be named "${FILE_PART}"`));
      }
      const missing = [...FORM_FIELDS].filter((field) => !fields.has(field));
      if (missing.length > 0) {
        stream.resume();
        return settle({
          ok: false,
          refusal: {
            status: 400,
            code: 'VALIDATION_ERROR',
            message: `Every signed field must come before the file part; missing: ${missing.join(', ')}`,
            details: missing.map((field) => ({ field, message: 'missing before the file part' })),
          },
        });
      }
      const signed = Object.fromEntries(SIGNED_UPLOAD_FIELDS.map((field) => [field, fields.get(field)!])) as SignedUploadFields;
      const check = storage.checkUploadSignature(signed, fields.get(SIGNATURE_FIELD)!);
      if (check !== 'valid') {
        stream.resume();
        return settle(check === 'expired' ? SIGNATURE_EXPIRED : SIGNATURE_MISMATCH);
      }
      if (info.mimeType !== signed['Content-Type']) {
        stream.resume();
        return settle(invalid(FILE_PART, `The file part's Content-Type is ${info.mimeType}; the upload was signed for ${signed['Content-Type']}`));
      }
      file = receiveFile(stream, signed, storage, cutOff.signal).then((receipt) => {
        if (!receipt.ok) settle(receipt);
        return receipt;
      });
      file.catch(fail);
    });

    form.on('filesLimit', () => settle(invalid(FILE_PART, 'A form carries exactly one file part')));
    form.on('fieldsLimit', () => settle(invalid('form', 'The form has more fields than an upload signs')));
    form.on('partsLimit', () => settle(invalid('form', 'The form has more parts than an upload signs')));
    form.on('error', (error: Error) => settle(invalid('form', `The multipart body is malformed: ${error.message}`)));
    form.on('close', () => {
      if (!file) return settle(invalid(FILE_PART, 'The form has no file part'));
      file.then((receipt) => {
        if (receipt.ok) settle(receipt);
      }, fail);
    });
    // a client that goes away mid-body: nobody to answer, but the temp file must go
    req.on('close', () => {
      if (!req.complete) settle(invalid('form', 'The request ended before the form was complete'));
    });
    req.pipe(form);
  });
}

/** Streams the file part to a temp file, hashing and counting; refuses it as soon as it outgrows the signed size. */
async function receiveFile(stream: Readable, signed: SignedUploadFields, storage: LocalObjectStorage, signal: AbortSignal): Promise<UploadReceipt> {
  const expectedBytes = Number(signed.sizeBytes);
  const hash = createHash('sha256');
  let bytes = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      bytes += chunk.length;
      if (bytes > expectedBytes) return callback(new TooManyBytes());
      hash.update(chunk);
      callback(null, chunk);
    },
  });
  const tempFile = await storage.newTempPath();
  try {
    await writeStreamToFile(stream, tempFile, { through: meter, signal });
  } catch (error) {
    if (error instanceof TooManyBytes) return invalid(FILE_PART, `The file holds more than the signed ${expectedBytes} bytes`);
    // the disk failing (no space, no permission) is the server's fault, not the form's
    if (!signal.aborted && typeof (error as NodeJS.ErrnoException).syscall === 'string') throw error;
    return invalid(FILE_PART, 'The file part ended before it was complete');
  }
  const refusal =
    bytes !== expectedBytes
      ? invalid(FILE_PART, `The file holds ${bytes} bytes; the upload was signed for ${expectedBytes}`)
      : hash.digest('base64') !== signed.checksumSha256
        ? invalid(FILE_PART, 'The file does not match the signed checksumSha256')
        : null;
  if (refusal) {
    await rm(tempFile, { force: true });
    return refusal;
  }
  return { ok: true, upload: { tempFile, fields: signed } };
}
