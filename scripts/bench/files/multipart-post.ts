// A signed upload form posted the way a browser or a careful client does: every field, then the
// file part streamed from disk, so the bench measures the server's receiving and not the client's
// buffering.
import fs from 'node:fs';
import https from 'node:https';
import { randomBytes } from 'node:crypto';

export async function postFormFromFile(options: { url: string; fields: Record<string, string>; file: string; contentType: string; ca: string }): Promise<{ status: number; text: string }> {
  const boundary = `----svc-bench-${randomBytes(12).toString('hex')}`;
  const head =
    Object.entries(options.fields)
      .map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
      .join('') + `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="upload.bin"\r\nContent-Type: ${options.contentType}\r\n\r\n`;
  const tail = `\r\n--${boundary}--\r\n`;
  const size = fs.statSync(options.file).size;
  const length = Buffer.byteLength(head) + size + Buffer.byteLength(tail);
  return new Promise((resolve, reject) => {
    const req = https.request(options.url, {
      method: 'POST',
      ca: options.ca,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(length) },
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.write(head);
    const body = fs.createReadStream(options.file, { highWaterMark: 1024 * 1024 });
    body.on('error', reject);
    body.on('end', () => req.end(tail));
    body.pipe(req, { end: false });
  });
}
