// One-click unsubscribe (RFC 8058), served by the front door under /unsubscribe/ (AppModule.httpEndpoints):
//   POST /unsubscribe/<token>  body List-Unsubscribe=One-Click → the address is suppressed for the team
//   GET  /unsubscribe/<token>  a page with a button that makes that POST; it changes nothing, so a
//                              link scanner that follows every URL in a message unsubscribes no one
// The same link stands in the body of composed messages, where a person opens it in a browser:
// the page's form makes the one-click POST, so both ways end in the same suppression.
//   /unsubscribe/test-copy     the link of a test copy (SAMPLE_UNSUBSCRIBE_SEGMENT): a page saying
//                              so, whatever the method; it names no message and changes nothing
// The token (mail-tokens.ts) is the only authorization; one that this platform did not mint, or
// whose mail is gone, is a 404 either way. The pages show no address and no team.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Services } from '../../app/context.ts';
import { ValidationError } from '../../app/errors.ts';
import { sendError } from '../../app/http/envelope.ts';
import { sendLinkPage } from '../../app/http/link-page.ts';
import { PayloadTooLargeError } from '../../app/http/read-body.ts';
import type { HttpEndpoint } from '../../app/module.ts';
import { type MailRef, mailTokensFor, SAMPLE_UNSUBSCRIBE_SEGMENT, UNSUBSCRIBE_PATH } from '../mail/index.ts';
import { recipientAddresses } from './apply-feedback.ts';
import { findFeedbackMail, suppress } from './feedback.sql.ts';
import { confirmationPage, donePage, testCopyPage } from './unsubscribe-pages.ts';

/** the form's body is one field; anything longer is not a one-click request */
const MAX_BODY_BYTES = 4096;

export function unsubscribeEndpoints(services: Services): HttpEndpoint[] {
  const tokens = mailTokensFor(services.config.secretsKeyFile);
  return [
    {
      prefix: UNSUBSCRIBE_PATH,
      route: `${UNSUBSCRIBE_PATH}{token}`,
      handle: async (req, res, url, requestId) => {
        const segment = url.pathname.slice(UNSUBSCRIBE_PATH.length);
        const method = req.method ?? 'GET';
        if (segment === SAMPLE_UNSUBSCRIBE_SEGMENT && ['GET', 'HEAD', 'POST'].includes(method)) return sendPage(req, res, testCopyPage());
        const ref = tokens.read('unsubscribe', segment);
        if (!ref) return notFound(res, requestId);
        if (method === 'GET' || method === 'HEAD') return showConfirmation(services, ref, req, res, requestId);
        if (method === 'POST') return unsubscribe(services, ref, req, res, requestId);
        return sendError(res, requestId, { status: 405, code: 'METHOD_NOT_ALLOWED', message: 'Allowed methods: GET, HEAD, POST', headers: { Allow: 'GET, HEAD, POST' } });
      },
    },
  ];
}

function notFound(res: ServerResponse, requestId: string): void {
  sendError(res, requestId, { status: 404, code: 'NOT_FOUND', message: 'No such unsubscribe link' });
}

function sendPage(req: IncomingMessage, res: ServerResponse, html: string): void {
  sendLinkPage(req, res, 200, html);
}

async function showConfirmation(services: Services, ref: MailRef, req: IncomingMessage, res: ServerResponse, requestId: string): Promise<void> {
  if (!(await findFeedbackMail(services.pool, ref))) return notFound(res, requestId);
  sendPage(req, res, confirmationPage());
}

/**
 * The request body; past MAX_BODY_BYTES a 413 that closes the connection (the rest is left unread,
 * as the JSON routes do: read-body.ts).
 */
function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) return void chunks.push(chunk);
      req.off('data', onData);
      req.pause();
      reject(new PayloadTooLargeError(MAX_BODY_BYTES, true));
    };
    req.on('data', onData);
    req.once('end', () => resolve(Buffer.concat(chunks)));
    req.once('error', reject);
  });
}

/** RFC 8058: `List-Unsubscribe=One-Click`, as a urlencoded or a multipart form (the WHATWG form parser reads both). */
async function isOneClick(req: IncomingMessage, body: Buffer): Promise<boolean> {
  const type = req.headers['content-type'] ?? 'application/x-www-form-urlencoded';
  try {
    const form = await new Response(new Uint8Array(body), { headers: { 'content-type': type } }).formData();
    return form.get('List-Unsubscribe') === 'One-Click';
  } catch {
    return false;
  }
}

async function unsubscribe(services: Services, ref: MailRef, req: IncomingMessage, res: ServerResponse, requestId: string): Promise<void> {
  const body = await readBody(req);
  if (!(await isOneClick(req, body))) {
    throw new ValidationError('A one-click unsubscribe posts List-Unsubscribe=One-Click', [{ field: 'List-Unsubscribe', message: 'must be One-Click' }]);
  }
  const mail = await findFeedbackMail(services.pool, ref);
  if (!mail) return notFound(res, requestId);
  // an unsubscribable message has exactly one recipient (mail.input.ts)
  const [address] = recipientAddresses(mail);
  if (address) await suppress(services.pool, mail.teamId, address, 'UNSUBSCRIBED', mail.id);
  sendPage(req, res, donePage());
}
