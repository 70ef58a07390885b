// An external-access link's form, served by the front door under /wizard-links/ (AppModule.httpEndpoints):
//   GET  /wizard-links/<secret>  the form, pre-filled with the record's values of the fields the wizard collects
//   POST /wizard-links/<secret>  runs the wizard with the submitted form: 200 the answer page; the form
//                                again naming the problems with 400 (a form this server did not render
//                                for the link, or one too old) or 422 (the run failed: a value that
//                                does not fit, a required field left empty; nothing was changed)
// A secret that opens nothing (unknown, revoked, expired, used up, or its wizard or record gone) is
// one 404 page whatever the reason. No credential is read: no cookie is set or expected.
//
// Every request takes from the platform's rate limit of callers without a credential, by address
// (RATE_LIMIT_ANONYMOUS_PER_MINUTE): 429 with Retry-After. A POST a browser marks as sent from another
// site (Sec-Fetch-Site cross-site or same-site) is refused with 403: the form posts to its own page.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Services } from '../../app/context.ts';
import { ApiError } from '../../app/errors.ts';
import { PayloadTooLargeError, readUpTo } from '../../app/http/read-body.ts';
import type { AppFaces, HttpEndpoint } from '../../app/module.ts';
import { currentValues, formSteps, LinkNoLongerUsableError, openExternalLink, type OpenLink, readSubmittedForm, submitExternalForm } from './wizard-external-form.ts';
import { donePage, formPage, messagePage, readerLanguages, sendFormPage, unavailablePage } from './wizard-external-form-page.ts';
import { EXTERNAL_FORM_PATH } from './wizard-external-links.service.ts';
import { formTokensFor } from './wizard-form-token.ts';

/** the whole form as sent: room for long formatted texts, not for a stream */
export const MAX_FORM_BYTES = 1024 * 1024;

export function externalFormEndpoints(services: Services, { rateLimited }: AppFaces): HttpEndpoint[] {
  const tokens = formTokensFor(services.config.secretsKeyFile);
  return [
    {
      prefix: EXTERNAL_FORM_PATH,
      route: `${EXTERNAL_FORM_PATH}{secret}`,
      handle: async (req, res, url, requestId) => {
        const limited = rateLimited(req);
        if (limited) return sendFormPage(req, res, 429, messagePage('Too many requests', limited.message), limited.headers);
        const method = req.method ?? 'GET';
        if (!['GET', 'HEAD', 'POST'].includes(method)) {
          return sendFormPage(req, res, 405, messagePage('Method not allowed', 'This page answers GET and POST.'), { Allow: 'GET, HEAD, POST' });
        }
        const secret = url.pathname.slice(EXTERNAL_FORM_PATH.length);
        const languages = readerLanguages(req.headers['accept-language']);
        try {
          const open = await openExternalLink(services, secret);
          if (!open) return notFound(req, res);
          if (method !== 'POST') {
            return sendFormPage(req, res, 200, formPage({ ...formOf(open, languages), values: currentValues(open), formToken: tokens.mint(open.link.simplyId) }));
          }
          const site = req.headers['sec-fetch-site'];
          if (site === 'cross-site' || site === 'same-site') {
            return sendFormPage(req, res, 403, messagePage('Not allowed', 'This form can only be sent from its own page.'));
          }
          const form = await readForm(req);
          const submitted = readSubmittedForm(open, form);
          const again = (status: number, extra: { errors?: { message: string; dataFieldSimplyId?: string }[]; notice?: string }) =>
            sendFormPage(req, res, status, formPage({ ...formOf(open, languages), values: { ...currentValues(open), ...submitted.shown }, formToken: tokens.mint(open.link.simplyId), ...extra }));
          const nonce = tokens.verify(open.link.simplyId, form.get('formToken'));
          if (!nonce) return again(400, { notice: 'This form was open too long or did not come from this page: check your answers and submit it again.' });
          let result;
          try {
            result = await submitExternalForm(services, open, submitted.formData, nonce, requestId);
          } catch (error) {
            if (error instanceof LinkNoLongerUsableError) return notFound(req, res);
            if (!(error instanceof ApiError)) throw error;
            // the record or the wizard went away meanwhile: the link opens nothing any more
            if (error.status === 404 || error.status === 409) return notFound(req, res);
            return again(400, { notice: error.message, errors: (error.details ?? []).map((d) => ({ message: d.message })) });
          }
          if (!result.success) return again(422, { notice: 'Nothing was saved. Please correct the following and submit again.', errors: result.errors });
          return sendFormPage(req, res, 200, donePage(open.config.row.name, languages));
        } catch (error) {
          if (error instanceof PayloadTooLargeError) return sendFormPage(req, res, 413, messagePage('Too much data', error.message), error.headers ?? {});
          throw error;
        }
      },
    },
  ];
}

function formOf(open: OpenLink, languages: readonly string[]) {
  return { wizardName: open.config.row.name, steps: formSteps(open.config), expiresAt: open.link.expiresAt, languages };
}

function notFound(req: IncomingMessage, res: ServerResponse): void {
  sendFormPage(req, res, 404, unavailablePage());
}

/** The submitted form: urlencoded or multipart, read by the WHATWG form parser; anything else reads as empty. */
async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (Number.isFinite(declared) && declared > MAX_FORM_BYTES) throw new PayloadTooLargeError(MAX_FORM_BYTES, true);
  const body = await readUpTo(req, MAX_FORM_BYTES);
  const type = req.headers['content-type'] ?? 'application/x-www-form-urlencoded';
  const out = new URLSearchParams();
  try {
    const form = await new Response(new Uint8Array(body), { headers: { 'content-type': type } }).formData();
    for (const [name, value] of form) if (typeof value === 'string' && !out.has(name)) out.append(name, value);
  } catch {
    // not a form: no inputs, so the token check answers
  }
  return out;
}
