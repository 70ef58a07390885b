// Mail that comes back: the conversations' handler of the inbound SMTP listener (registered on
// services.inboundMail by module.ts; the listener is mail-feedback's). A mail becomes an END_USER
// EMAIL message, synchronously, before the listener answers 250: a failure (the database away)
// answers 451 and the sending server retries, so no mail is lost, and a retried or duplicated
// delivery finds its Message-ID stored and adds nothing (one per team, under an advisory lock).
//
// Where it goes (email-threading.ts decides; docs/api/conversations.md "Email"):
//   1. to a reply address, from that conversation's contact: that conversation (merges followed)
//   2. In-Reply-To/References naming an email of the team whose contact is the sender: its conversation
//   3. otherwise a new EMAIL conversation of the team the address names (reply or inbox address)
// A reply never joins another contact's thread: a newsletter's replies, a forwarded thread, a reply
// address passed on to someone else each start the sender's own conversation.
import { createHash } from 'node:crypto';
import type { ParsedMail } from 'mailparser';
import type { Services } from '../../app/context.ts';
import { onFirstUse } from '../../app/on-first-use.ts';
import { inTransaction } from '../../app/transaction.ts';
import { matchContact } from '../constituent-auth/index.ts';
import { platformUploadRefusal, stagePlatformUpload } from '../files/index.ts';
import type { InboundMail, InboundMailHandler } from '../mail-feedback/index.ts';
import { queueNotifications } from './conversation-notifications.ts';
import { publishConversationEvent } from './conversations.events.ts';
import { conversationId, conversationMessageId } from './conversations.ids.ts';
import { CONVERSATION_LIMITS } from './conversations.input.ts';
import { findConversationById, insertConversation, updateConversation, type ConversationChanges, type ConversationRow } from './conversations.sql.ts';
import { afterConversationCreated, afterMessagePosted } from './routing-hooks.ts';
import { readEmailAddress } from './email-addresses.ts';
import { inboundBody } from './email-content.ts';
import { chooseThread, referencedIds, type Recipients } from './email-threading.ts';
import { insertAttachments, insertEmail, replyTokenExists, storedEmail, targetOfReplyToken, teamOfInboundKey, type AttachmentDraft } from './email.sql.ts';
import { insertMessage } from './messages.sql.ts';
import { previewOf } from './message-content.ts';
import { randomSecret } from '../../app/ids.ts';
import { afterVisitorMessage } from './ai-hooks.ts';

/** The largest mail taken for a conversation (attachments included); larger ones are refused (552) at DATA. */
export const MAX_INBOUND_EMAIL_BYTES = 25 * 1024 * 1024;
/** attachments stored per mail; further ones are noted (TOO_MANY) without their bytes */
export const MAX_ATTACHMENTS = 20;

const SYSTEM_ACTOR = { kind: 'SYSTEM', id: null };
/** the credential recorded on messages and conversations the inbound mail wrote */
const INBOUND_CREDENTIAL = 'inbound-email';

const mailparser = onFirstUse<typeof import('mailparser')>('mailparser');

export function conversationEmailHandler(services: Services): InboundMailHandler {
  return {
    name: 'conversations',
    maxBytes: MAX_INBOUND_EMAIL_BYTES,
    async claims(address) {
      const named = readEmailAddress(services.config, address);
      if (!named) return false;
      return named.kind === 'reply' ? replyTokenExists(services.pool, named.token) : (await teamOfInboundKey(services.pool, named.key)) !== null;
    },
    receive: (mail) => receiveConversationEmail(services, mail),
  };
}

/** Auto-replies (out of office, vacation) are not the visitor writing: they would reopen and notify for nothing. */
function isAutoReply(mail: ParsedMail): boolean {
  const submitted = String(mail.headers.get('auto-submitted') ?? '').toLowerCase();
  const precedence = String(mail.headers.get('precedence') ?? '').toLowerCase();
  return (submitted !== '' && !submitted.startsWith('no')) || precedence === 'auto_reply' || mail.headers.has('x-autoreply') || mail.headers.has('x-autorespond');
}

/** The mail's Message-ID, or one made from its bytes (a redelivery of a mail without one is the same mail). */
function headerMessageIdOf(mail: ParsedMail, raw: Buffer): string {
  const given = mail.messageId?.trim();
  if (given) return (given.startsWith('<') ? given : `<${given}>`).slice(0, 250);
  return `<${createHash('sha256').update(raw).digest('hex').slice(0, 40)}@inbound.invalid>`;
}

/** The recipients' teams and, per team, the conversations their reply addresses name. */
async function recipientsByTeam(services: Services, addresses: readonly string[]): Promise<Map<bigint, Recipients>> {
  const teams = new Map<bigint, Recipients>();
  const of = (teamId: bigint, teamSimplyId: string) => {
    let entry = teams.get(teamId);
    if (!entry) teams.set(teamId, (entry = { teamId, teamSimplyId, replyTargets: [] }));
    return entry;
  };
  for (const address of addresses) {
    const named = readEmailAddress(services.config, address);
    if (named?.kind === 'reply') {
      const target = await targetOfReplyToken(services.pool, named.token);
      if (target) of(target.teamId, target.teamSimplyId).replyTargets.push(target);
    } else if (named?.kind === 'inbox') {
      const team = await teamOfInboundKey(services.pool, named.key);
      if (team) of(team.teamId, team.teamSimplyId);
    }
  }
  return teams;
}

export async function receiveConversationEmail(services: Services, inbound: InboundMail): Promise<void> {
  let mail: ParsedMail;
  try {
    mail = await mailparser().simpleParser(inbound.raw, { skipHtmlToText: true, skipImageLinks: true, skipTextLinks: true, skipTextToHtml: true });
  } catch (error) {
    // unreadable mail stays unreadable: refusing it would only have it retried
    services.logger.warn({ err: error, bytes: inbound.raw.length }, 'conversation email: unparseable mail dropped');
    return;
  }
  const from = mail.from?.value.find((a) => a.address)?.address?.trim().toLowerCase();
  if (!from || !/^[^\s@]+@[^\s@]+$/.test(from)) {
    services.logger.info({ recipients: inbound.recipients }, 'conversation email: mail without a sender address dropped');
    return;
  }
  if (isAutoReply(mail)) {
    services.logger.info({ recipients: inbound.recipients, from }, 'conversation email: auto-reply dropped');
    return;
  }
  const headerMessageId = headerMessageIdOf(mail, inbound.raw);
  const references = referencedIds(mail.inReplyTo, mail.references);
  for (const recipients of (await recipientsByTeam(services, inbound.recipients)).values()) {
    const stored = await storeForTeam(services, recipients, mail, { from, headerMessageId, references });
    services.logger.info(
      { team: recipients.teamSimplyId, message: stored.messageSimplyId, conversation: stored.conversationSimplyId, outcome: stored.outcome, ms: Date.now() - inbound.receivedAt.getTime() },
      'conversation email received',
    );
  }
}

interface Facts {
  from: string;
  headerMessageId: string;
  references: string[];
}

interface Stored {
  outcome: 'DUPLICATE' | 'THREADED' | 'NEW_CONVERSATION';
  messageSimplyId: string | null;
  conversationSimplyId: string | null;
}

async function storeForTeam(services: Services, recipients: Recipients, mail: ParsedMail, facts: Facts): Promise<Stored> {
  const { teamId, teamSimplyId } = recipients;
  const body = inboundBody(mail);
  const subject = mail.subject?.trim() ? [...mail.subject.replace(/\s+/g, ' ').trim()].slice(0, CONVERSATION_LIMITS.subject).join('') : null;
  const fromName = mail.from?.value.find((a) => a.address?.toLowerCase() === facts.from)?.name?.trim() || null;
  // who the sender is, read before the transaction: a transaction holding its connection must not
  // wait for a second one of the same pool (under load every connection could be so held)
  const schema = await services.schemas.get(teamId);
  const matched = await matchContact(services.pool, teamId, schema, facts.from);
  return inTransaction(services.pool, async (db) => {
    // one delivery of a Message-ID at a time per team: a concurrent duplicate waits, then finds it stored
    await db.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [`conversation-email:${teamId}:${facts.headerMessageId}`]);
    const duplicate = await storedEmail(db, teamId, facts.headerMessageId);
    if (duplicate) return { outcome: 'DUPLICATE', messageSimplyId: duplicate, conversationSimplyId: null };

    const threadId = await chooseThread(db, recipients, facts.from, facts.references);
    let conversation: ConversationRow | null = null;
    if (threadId !== null) conversation = await liveLocked(db, teamId, threadId);
    const created = conversation === null;
    if (!conversation) {
      conversation = await insertConversation(db, {
        simplyId: conversationId.create(),
        teamId,
        subject,
        channel: 'EMAIL',
        priority: 'NORMAL',
        visitorName: fromName ? [...fromName].slice(0, CONVERSATION_LIMITS.visitorName).join('') : null,
        visitorEmail: facts.from,
        visitorPhone: null,
        dataRecordId: matched?.recordId ?? null,
        dataRecordSimplyId: matched?.recordSimplyId ?? null,
        recordLinkSource: matched ? 'EMAIL' : null,
        replyToken: randomSecret(24),
        createdByKind: 'SYSTEM',
        createdById: INBOUND_CREDENTIAL,
      });
      // routed and given its SLA clocks like one created over the API
      await afterConversationCreated(services, db, conversation);
      await publishConversationEvent(services, db, { teamSimplyId, type: 'CONVERSATION_CREATED', conversationSimplyId: conversation.simplyId, actor: SYSTEM_ACTOR, assignees: [null] });
      await queueNotifications(services, db, {
        teamId: String(teamId), conversationId: String(conversation.id), kind: 'NEW_CONVERSATION', key: conversation.simplyId, messageId: null, actorUserId: null, recipients: null,
      });
    }

    const message = await insertMessage(
      db,
      {
        simplyId: conversationMessageId.create(),
        teamId,
        conversationId: conversation.id,
        channel: 'EMAIL',
        authorType: 'END_USER',
        authorUserId: null,
        authorCredentialKind: 'SYSTEM',
        authorCredentialId: INBOUND_CREDENTIAL,
        content: body.visible,
        contentType: 'TEXT',
        deliveryStatus: null,
        deliverySimplyId: null,
        mentionedUserIds: [],
      },
      previewOf(body.visible, 'TEXT'),
    );
    await insertEmail(db, {
      teamId,
      conversationId: conversation.id,
      messageId: message.id,
      direction: 'INBOUND',
      headerMessageId: facts.headerMessageId,
      inReplyTo: facts.references.length > 0 ? (typeof mail.inReplyTo === 'string' ? referencedIds(mail.inReplyTo, undefined)[0] ?? null : null) : null,
      references: facts.references,
      mailMessageId: null,
      contactAddress: facts.from,
      subject,
      fullText: body.fullText,
      fullHtml: body.fullHtml,
    });
    await insertAttachments(db, teamId, message.id, await stageAttachments(services, db, teamId, teamSimplyId, message.simplyId, mail));

    // the visitor writing again reopens a finished conversation and ends its snooze (as a relayed END_USER post does)
    const changes: ConversationChanges = {};
    const reopened = conversation.status === 'RESOLVED' || conversation.status === 'CLOSED';
    if (reopened) Object.assign(changes, { status: 'OPEN', resolvedAt: null });
    if (conversation.snoozedUntil !== null) changes.snoozedUntil = null;
    if (Object.keys(changes).length > 0) await updateConversation(db, teamId, conversation.id, changes);
    await afterMessagePosted(services, db, conversation, reopened);
    // the visitor's language, and the AI's reply while it handles the conversation (ai-hooks.ts)
    await afterVisitorMessage(services, db, conversation, message);

    await publishConversationEvent(services, db, {
      teamSimplyId, type: 'MESSAGE_CREATED', conversationSimplyId: conversation.simplyId, messageSimplyId: message.simplyId, actor: SYSTEM_ACTOR, assignees: [conversation.assignedUserSimplyId],
    });
    await queueNotifications(services, db, {
      teamId: String(teamId), conversationId: String(conversation.id), kind: 'NEW_MESSAGE', key: message.simplyId, messageId: String(message.id), actorUserId: null, recipients: null,
    });
    return { outcome: created ? 'NEW_CONVERSATION' : 'THREADED', messageSimplyId: message.simplyId, conversationSimplyId: conversation.simplyId };
  });
}

/** The conversation locked, or the one it was merged into meanwhile (a merge may land between lookup and lock). */
async function liveLocked(db: import('pg').PoolClient, teamId: bigint, id: bigint): Promise<ConversationRow | null> {
  let current = await findConversationById(db, teamId, id, { lock: true });
  for (let hops = 0; current?.mergedIntoId != null && hops < 50; hops++) current = await findConversationById(db, teamId, current.mergedIntoId, { lock: true });
  return current;
}

/** Each attachment as a PLATFORM upload through the files area's inspection, or a note of why not. */
async function stageAttachments(services: Services, db: import('pg').PoolClient, teamId: bigint, teamSimplyId: string, messageSimplyId: string, mail: ParsedMail): Promise<AttachmentDraft[]> {
  const drafts: AttachmentDraft[] = [];
  for (const [position, part] of mail.attachments.entries()) {
    const filename = cleanFilename(part.filename, position);
    const contentType = (part.contentType || 'application/octet-stream').toLowerCase();
    const sizeBytes = part.content.length;
    const refused = position >= MAX_ATTACHMENTS ? 'TOO_MANY' : platformUploadRefusal(contentType, sizeBytes);
    const fileUploadSimplyId = refused
      ? null
      : await stagePlatformUpload(services, db, { teamId, teamSimplyId, filename, contentType, bytes: part.content, origin: `conversation-email:${messageSimplyId}` });
    drafts.push({ position, filename, contentType, sizeBytes, fileUploadSimplyId, rejectedReason: refused });
  }
  return drafts;
}

/** A name the files area takes: no path, no control characters, 1-255 characters. */
function cleanFilename(name: string | undefined, position: number): string {
  const base = (name ?? '').split(/[/\\]/).pop()!.replace(/\p{Cc}/gu, '').trim();
  const clean = base === '.' || base === '..' ? '' : base;
  return [...(clean || `attachment-${position + 1}`)].slice(0, 255).join('');
}
