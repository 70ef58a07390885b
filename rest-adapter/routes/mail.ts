// /v1/mail-messages → src/modules/mail/mail.schema.ts. Not in the interface documents: our own
// routes, documented in docs/api/mail.md.
import { z } from 'zod';
import { MAIL_MESSAGE, MAIL_MESSAGE_SUMMARY } from '../../src/modules/mail/mail.fragments.ts';
import { MAIL_STATUSES } from '../../src/modules/mail/mail.input.ts';
import { operation, PAGINATION } from '../../src/app/graphql/fragments.ts';
import { defineRoutes, respond, route } from '../route.ts';
import { pageQuery } from '../schemas.ts';

export const mailRoutes = defineRoutes([
  route({
    method: 'GET',
    path: '/v1/mail-messages',
    summary: "The team's outgoing mail, newest first, without bodies (privileged; team admin or OUTGOING_MESSAGES_VIEW): limit, offset, status (optional)",
    operation: operation`query MailMessages($limit: Int, $offset: Int, $status: String) {
      mailMessages(limit: $limit, offset: $offset, status: $status) { nodes { ${MAIL_MESSAGE_SUMMARY} } pagination { ${PAGINATION} } } }`,
    // the service checks the status, so both faces refuse an unknown one with the same 400
    query: pageQuery.extend({ status: z.string().optional().describe(`only messages in this status: ${MAIL_STATUSES.join(', ')}`) }),
    variables: ({ query }) => query,
    respond: respond.page,
  }),
  route({
    method: 'GET',
    path: '/v1/mail-messages/{mailSimplyId}',
    summary: 'One outgoing message with its text and html bodies (privileged; team admin or OUTGOING_MESSAGES_VIEW)',
    operation: operation`query MailMessage($id: String!) { mailMessage(mailSimplyId: $id) { ${MAIL_MESSAGE} } }`,
    variables: ({ params }) => ({ id: params.mailSimplyId }),
  }),
]);
