// /v1/mail-messages → src/modules/mail/mail.schema.ts. Not in the interface documents: our own
// routes, documented in docs/api/mail.md.
import { z } from 'zod';
import { MAIL_MESSAGE, MAIL_MESSAGE_SUMMARY } from '../../src/modules/mail/mail.fragments.ts';
import { MAIL_STATUSES } from '../../src/modules/mail/mail.input.ts';
import { defineRoutes, type RouteExtension } from '../route.ts';
import { getOne, listPage } from '../route-shapes.ts';

const PRIVILEGED = 'privileged; team admin or OUTGOING_MESSAGES_VIEW';

const MAIL = 'the outgoing mail log (docs/api/mail.md), ours';

/** Served routes the documents do not list, each with why it exists (OpenAPI `x-extension`). */
const EXTENSIONS: Record<string, RouteExtension> = {
  'GET /v1/mail-messages': { reason: MAIL },
  'GET /v1/mail-messages/{mailSimplyId}': { reason: MAIL },
};

export const mailRoutes = defineRoutes([
  listPage({
    path: '/v1/mail-messages',
    summary: 'List outgoing mail',
    description: `The team's outgoing mail, newest first, without bodies (${PRIVILEGED}): limit, offset, status (optional)`,
    name: 'MailMessages',
    select: MAIL_MESSAGE_SUMMARY,
    // the service checks the status, so both faces refuse an unknown one with the same 400
    filters: { status: { type: 'String', schema: z.string().optional().describe(`only messages in this status: ${MAIL_STATUSES.join(', ')}`) } },
  }),
  getOne({ path: '/v1/mail-messages/{mailSimplyId}', summary: 'Get a mail message', description: `One outgoing message with its text and html bodies (${PRIVILEGED})`, name: 'MailMessage', select: MAIL_MESSAGE }),
], EXTENSIONS);
