// An agent's (or the system's) EMAIL message to the visitor, as mail: queued through services.mail
// on the post's own connection, so the mail exists exactly when the message does and is retried
// by the mail area's delivery jobs until the SMTP server takes it (a mail outage keeps it QUEUED,
// never loses it). The message's deliveryStatus then follows the mail row (the
// conversation_mail_state trigger: QUEUED → SENT or FAILED, DELIVERED when reported).
//
// The mail: From the team's default EMAIL sender when it is verified (else the platform's
// MAIL_FROM), To the visitor, Reply-To the conversation's reply address, a Message-ID stored on the
// message, In-Reply-To the thread's latest email and References its earlier ones (the first and
// the latest, at most MAX_REFERENCES), and the subject of the thread: "Re: <subject>" once the
// thread has mail, the conversation's subject on the first mail of an outbound-first conversation.
// INTERNAL_NOTE messages never come here (outbound-channels.ts plans no delivery for them).
import type pg from 'pg';
import type { Services } from '../../app/context.ts';
import { mailMessageIdOf, MAX_REFERENCES } from '../mail/index.ts';
import { senderIsVerified } from '../messages/index.ts';
import type { ConversationRow } from './conversations.sql.ts';
import { replyAddressOf } from './email-addresses.ts';
import { insertEmail, threadEmails } from './email.sql.ts';
import { htmlText } from './message-content.ts';
import type { MessageRow } from './messages.sql.ts';

/** The mail subject's limit (the mail area's MAX_SUBJECT). */
const MAX_SUBJECT = 255;
const REPLY_PREFIX = /^\s*re\s*:/i;

export interface QueuedEmail {
  teamId: bigint;
  conversationId: bigint;
  mailId: string;
  headerMessageId: string;
  inReplyTo: string | null;
  references: string[];
  contactAddress: string;
  subject: string;
}

/** `Name <address>` of the team's default EMAIL sender if it is active and verified, else undefined (MAIL_FROM). */
async function teamSender(services: Services, teamId: bigint): Promise<string | undefined> {
  const row = await services.prisma.messageSender.findFirst({ where: { teamId, deliveryMethod: 'EMAIL', archivedAt: null, isDefault: true } });
  if (!row?.emailAddress || !senderIsVerified(services.config, row)) return undefined;
  const name = [...row.name.replace(/["<>\\\r\n]/g, '').trim()].slice(0, 100).join('').trim();
  return name ? `${name} <${row.emailAddress}>` : row.emailAddress;
}

function subjectOf(conversation: ConversationRow, thread: { subject: string | null; direction: string }[]): string {
  const base = [...thread].reverse().find((e) => e.direction === 'INBOUND' && e.subject)?.subject ?? conversation.subject ?? thread.find((e) => e.subject)?.subject ?? null;
  if (thread.length === 0) return base ?? 'Your conversation with us';
  const text = base ?? 'Your conversation with us';
  return [...(REPLY_PREFIX.test(text) ? text : `Re: ${text}`)].slice(0, MAX_SUBJECT).join('');
}

/** Queues the mail of an outbound EMAIL message (before the message row, so the history can name the mail). */
export async function queueConversationEmail(
  services: Services,
  db: pg.PoolClient,
  conversation: ConversationRow,
  message: { simplyId: string; content: string; contentType: string },
): Promise<QueuedEmail> {
  const thread = await threadEmails(db, conversation.teamId, conversation.id);
  const ids = thread.map((e) => e.headerMessageId);
  const inReplyTo = ids.at(-1) ?? null;
  // the thread's root and its latest mails: what clients need to thread, within a header's reasonable length
  const references = ids.length <= MAX_REFERENCES ? ids : [ids[0]!, ...ids.slice(-(MAX_REFERENCES - 1))];
  const subject = subjectOf(conversation, thread);
  const html = message.contentType === 'HTML' ? message.content : undefined;
  const queued = await services.mail.enqueue(
    {
      teamId: conversation.teamId,
      from: await teamSender(services, conversation.teamId),
      to: [conversation.visitorEmail!],
      replyTo: replyAddressOf(services.config, await replyTokenOf(db, conversation)),
      subject,
      text: html ? htmlText(html) : message.content,
      ...(html ? { html } : {}),
      source: 'CONVERSATION',
      sourceId: message.simplyId,
      ...(inReplyTo ? { threading: { inReplyTo, references } } : {}),
    },
    db,
  );
  return {
    teamId: conversation.teamId,
    conversationId: conversation.id,
    mailId: queued.id,
    headerMessageId: mailMessageIdOf(services.config, queued.simplyId),
    inReplyTo,
    references,
    contactAddress: conversation.visitorEmail!.toLowerCase(),
    subject,
  };
}

async function replyTokenOf(db: pg.PoolClient, conversation: ConversationRow): Promise<string> {
  const { rows } = await db.query(`SELECT "replyToken" FROM "Conversation" WHERE "teamId" = $1 AND id = $2`, [conversation.teamId, conversation.id]);
  return rows[0].replyToken as string;
}

/** Ties the stored message to its mail: the Message-ID replies will name, and the mail whose state it follows. */
export async function linkOutboundEmail(db: pg.PoolClient, email: QueuedEmail, message: MessageRow): Promise<void> {
  await insertEmail(db, {
    teamId: email.teamId,
    conversationId: email.conversationId,
    messageId: message.id,
    direction: 'OUTBOUND',
    headerMessageId: email.headerMessageId,
    inReplyTo: email.inReplyTo,
    references: email.references,
    mailMessageId: email.mailId,
    contactAddress: email.contactAddress,
    subject: email.subject,
    fullText: null,
    fullHtml: null,
  });
}
