// /v1/mail-messages → src/mail/mail.schema.ts. Not in the interface documents: our own routes,
// documented in docs/api/mail.md.
import { defineRoutes, pageVariables, respondPage } from '../legacy-route.ts';

const SUMMARY = `id from to cc bcc replyTo subject transport status attempts messageId errorMessage source sourceId createdAt sentAt`;
const DETAIL = `${SUMMARY} text html`;
const PAGINATION = `pagination { total limit offset hasMore }`;

export const mailRoutes = defineRoutes([
  {
    method: 'GET',
    path: '/v1/mail-messages',
    summary: "The team's outgoing mail, newest first, without bodies (privileged; team admin or OUTGOING_MESSAGES_VIEW): limit, offset, status (optional)",
    operation: `query MailMessages($limit: Int, $offset: Int, $status: String) {
      mailMessages(limit: $limit, offset: $offset, status: $status) { nodes { ${SUMMARY} } ${PAGINATION} } }`,
    variables: (req) => ({ ...pageVariables(req), status: req.query.get('status') }),
    respond: respondPage,
  },
  {
    method: 'GET',
    path: '/v1/mail-messages/{mailSimplyId}',
    summary: 'One outgoing message with its text and html bodies (privileged; team admin or OUTGOING_MESSAGES_VIEW)',
    operation: `query MailMessage($id: String!) { mailMessage(mailSimplyId: $id) { ${DETAIL} } }`,
    variables: (req) => ({ id: req.params.mailSimplyId }),
  },
]);
