// GraphQL face of outgoing mail: what the platform sent (or keeps in the outbox) for the caller's
// team. Privileged: team admins, or OUTGOING_MESSAGES_VIEW; never session or OAuth tokens.
// REST: rest-adapter/routes/mail.ts. Sending is internal (services.mail.enqueue).
import { builder } from '../../app/builder.ts';
import { prismaById } from '../../app/graphql/args.ts';
import { loadPage, pageType } from '../../app/graphql/page.ts';
import { tier } from '../../app/auth/tiers.ts';
import { MAIL_FEEDBACK_STATES, MAIL_STATUSES, type MailFeedbackStateName } from './mail.input.ts';
import { countMailMessages, findMailMessage, findMailMessages, parseMailFilter } from './mail.service.ts';

export const MailStatusEnum = builder.enumType('MailStatus', {
  description: 'QUEUED: waiting for (another) SMTP attempt; SENT: accepted by the SMTP server; STORED: kept in the outbox (no SMTP configured); FAILED: every attempt failed',
  values: MAIL_STATUSES,
});

export const MailFeedbackStateEnum = builder.enumType('MailFeedbackState', {
  description:
    "What the receiving side reported after the SMTP server accepted the message: DELIVERED (a delivery status notification said so), BOUNCED (it failed after acceptance), COMPLAINED (the recipient reported it as spam). A complaint is never replaced; a bounce replaces a delivery",
  values: MAIL_FEEDBACK_STATES,
});

/**
 * Mail whose sender marked it `withheld` (it carries a live credential: a sign-in code or link, a
 * signer's link): the log shows that it was sent, not its content, so nobody reading the log can use it.
 */
export const WITHHELD_CONTENT = '[withheld: this message carries a sign-in or signing credential]';
const shown = (mail: { contentWithheld: boolean }, content: string): string => (mail.contentWithheld ? WITHHELD_CONTENT : content);

export const MailMessageRef = builder.prismaObject('MailMessage', {
  description: 'An outgoing mail message and its delivery state.',
  // only what a query selects is loaded: a list without bodies never reads them
  select: { id: true },
  fields: (t) => ({
    id: t.exposeString('simplyId'),
    mailSimplyId: t.exposeString('simplyId'),
    from: t.exposeString('fromAddress', { description: 'the From header: "Name <address>" or an address' }),
    to: t.exposeStringList('toAddresses'),
    cc: t.exposeStringList('ccAddresses'),
    bcc: t.exposeStringList('bccAddresses'),
    replyTo: t.exposeString('replyTo', { nullable: true }),
    subject: t.string({ select: { subject: true, contentWithheld: true }, resolve: (m) => shown(m, m.subject) }),
    text: t.string({ description: 'the plain-text body', select: { textBody: true, contentWithheld: true }, resolve: (m) => shown(m, m.textBody) }),
    html: t.string({ nullable: true, description: 'the HTML body, when there is one', select: { htmlBody: true, contentWithheld: true }, resolve: (m) => (m.htmlBody === null ? null : shown(m, m.htmlBody)) }),
    transport: t.exposeString('transport', { description: 'SMTP, or OUTBOX when the deployment has no SMTP server configured' }),
    status: t.field({ type: MailStatusEnum, select: { status: true }, resolve: (m) => m.status }),
    attempts: t.exposeInt('attempts', { description: 'SMTP attempts made so far' }),
    messageId: t.exposeString('messageId', { nullable: true, description: 'the Message-ID of the accepted message' }),
    errorMessage: t.exposeString('errorMessage', { nullable: true, description: 'the last delivery error, or the recipients the server refused' }),
    source: t.exposeString('source', { description: 'what sent it: AUTOMATION, WIZARD, SYSTEM, ...' }),
    sourceId: t.exposeString('sourceId', { nullable: true }),
    feedbackState: t.field({
      type: MailFeedbackStateEnum,
      nullable: true,
      description: 'null until a delivery report or complaint about the message arrives',
      select: { feedbackState: true },
      resolve: (m) => m.feedbackState as MailFeedbackStateName | null,
    }),
    feedbackAt: t.expose('feedbackAt', { type: 'DateTime', nullable: true, description: 'when feedbackState was last set' }),
    feedbackDetail: t.exposeString('feedbackDetail', {
      nullable: true,
      description: 'the report in short: action, status code and the diagnostic of the receiving server, or the complaint type',
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    sentAt: t.expose('sentAt', { type: 'DateTime', nullable: true }),
  }),
});

const MailMessagePage = pageType('MailMessagePage', MailMessageRef);

builder.queryFields((t) => ({
  mailMessages: t.field({
    type: MailMessagePage,
    description: "The team's outgoing mail, newest first. Privileged: team admin or OUTGOING_MESSAGES_VIEW.",
    authScopes: tier.privileged('OUTGOING_MESSAGES_VIEW', 'VIEW'),
    args: {
      limit: t.arg.int(),
      offset: t.arg.int(),
      status: t.arg.string({ description: `only messages in this status: ${MAIL_STATUSES.join(', ')}` }),
    },
    resolve: (_root, args, ctx, info) => {
      const filter = parseMailFilter(ctx, args);
      return loadPage(ctx, info, args, {
        findMany: (query, paging) => findMailMessages(ctx, filter, query, paging),
        count: () => countMailMessages(ctx, filter),
      });
    },
  }),
  mailMessage: t.prismaField({
    type: 'MailMessage',
    description: 'One outgoing message with its bodies. Privileged: team admin or OUTGOING_MESSAGES_VIEW.',
    authScopes: tier.privileged('OUTGOING_MESSAGES_VIEW', 'VIEW'),
    ...prismaById(t.arg, 'mailSimplyId', findMailMessage),
  }),
}));
