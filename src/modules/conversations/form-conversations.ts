// Form submissions become conversations (docs/api/conversations.md "Form submissions"): the outbox
// consumer that turns a wizard run completed through an external-access link (WIZARD_COMPLETED,
// actor PUBLIC_LINK) into a FORM message from the person, in their record's open FORM conversation
// of the same wizard or in a new FORM conversation, which then waits for routing and is told to the
// team like any new conversation.
//
// Why only external-access links: a link is the team asking someone outside it for answers, so what
// comes back is that person writing to the team. A run by a member, an API key or an automation is
// the team's own data entry (kept in the record's audit log) and never a message. A failed run
// changed nothing and showed the person the form again: no message either.
//
// Exactly once per run: it runs inside the outbox's dispatch transaction and first claims the run
// (ConversationFormSubmission, unique per run), so an event handed on again, or the consumer run
// twice, writes nothing more; the claim, the conversation, the message, the routing entry, the
// realtime event and the notification jobs commit together with the "dispatched" mark.
import type pg from 'pg';
import type { Services } from '../../app/context.ts';
import { randomSecret } from '../../app/ids.ts';
import type { DomainEventConsumer, DomainEventRow } from '../../app/outbox.ts';
import { findRecords, parseEmail, toDisplayText, type FieldDefinition, type TeamSchema } from '../../kernel/index.ts';
import { loadWizardConfig, submittedRun, WIZARD_COMPLETED, type CompletionData } from '../wizards/index.ts';
import { queueNotifications } from './conversation-notifications.ts';
import { publishConversationEvent } from './conversations.events.ts';
import { conversationId, conversationMessageId } from './conversations.ids.ts';
import { CONVERSATION_LIMITS } from './conversations.input.ts';
import { findConversationById, insertConversation, updateConversation, type ConversationRow } from './conversations.sql.ts';
import { formAnswers, oneLine, titleText } from './form-content.ts';
import { claimFormSubmission, fieldsHiddenByRoles, openFormConversation, settleFormSubmission } from './form-submissions.sql.ts';
import { insertMessage } from './messages.sql.ts';
import { previewOf } from './message-content.ts';
import { OPEN_STATUSES } from './routing-people.sql.ts';
import { afterConversationCreated, afterMessagePosted } from './routing-hooks.ts';

/** the credential kind of an external-access link (wizard-external-form.ts) */
const LINK_KIND = 'PUBLIC_LINK';

interface EventActor {
  kind?: string;
  id?: string | null;
}

/** A whole run of a wizard completed through an external-access link. */
function isLinkSubmission(event: DomainEventRow): boolean {
  const data = event.payload?.data as Partial<CompletionData> | undefined;
  const actor = event.payload?.actor as EventActor | undefined;
  return (
    event.eventType === WIZARD_COMPLETED &&
    data?.success === true &&
    data.dataWizardStepSimplyId === undefined &&
    typeof data.dataWizardInstanceSimplyId === 'string' &&
    typeof data.dataRecordSimplyId === 'string' &&
    actor?.kind === LINK_KIND
  );
}

export function formConversationConsumer(services: Services): DomainEventConsumer {
  return async (events, db) => {
    for (const event of events) if (isLinkSubmission(event)) await storeFormSubmission(services, db, event);
  };
}

/** The person's contact details the record holds: its first email and phone field with a value the team shows every role. */
function contactOf(schema: TeamSchema, collectionId: bigint, values: Record<string, unknown>, hidden: ReadonlySet<string>): { email: string | null; phone: string | null } {
  const collection = schema.collectionsById.get(collectionId);
  const fields: FieldDefinition[] = collection ? schema.fieldsOf(collection).filter((f) => !hidden.has(f.dataFieldSimplyId)) : [];
  const first = (dataType: string, accept: (text: string) => string | null) => {
    for (const field of fields.filter((f) => f.dataType === dataType)) {
      const text = toDisplayText(field, values[field.dataFieldSimplyId]).trim();
      const accepted = text === '' ? null : accept(text);
      if (accepted) return accepted;
    }
    return null;
  };
  return {
    email: first('EMAIL_ADDRESS', (text) => {
      const parsed = parseEmail(text);
      return parsed.ok ? parsed.value : null;
    }),
    phone: first('PHONE_NUMBER', (text) => (/^\+[1-9]\d{6,14}$/.test(text) ? text : null)),
  };
}

async function storeFormSubmission(services: Services, db: pg.PoolClient, event: DomainEventRow): Promise<void> {
  const data = event.payload.data as unknown as CompletionData;
  const actor = { kind: LINK_KIND, id: ((event.payload.actor as EventActor).id ?? null) as string | null };
  const teamId = event.teamId;
  const [record] = await findRecords(db, teamId, [data.dataRecordSimplyId]);
  // the record went (deleted since): nobody to tie the answers to
  if (!record) return;
  const claim = await claimFormSubmission(db, {
    teamId,
    eventId: event.eventId,
    dataWizardInstanceSimplyId: data.dataWizardInstanceSimplyId,
    dataWizardSimplyId: data.dataWizardSimplyId,
    dataRecordId: record.id,
  });
  if (claim === null) return;
  const run = await submittedRun(db, teamId, data.dataWizardInstanceSimplyId);
  const schema = await services.schemas.get(teamId);
  const config = run ? await loadWizardConfig(services.prisma, schema, data.dataWizardSimplyId) : null;
  // the wizard was deleted since (with its runs): the claim stays, there is nothing to show
  if (!run || !config) return;
  const hidden = await fieldsHiddenByRoles(db, teamId);
  const answers = formAnswers(config, run.formData, hidden);
  const { rows: teams } = await db.query(`SELECT "simplyId" FROM "Team" WHERE id = $1`, [teamId]);
  const teamSimplyId = teams[0]?.simplyId as string | undefined;
  if (!teamSimplyId) return;

  const openId = await openFormConversation(db, teamId, record.id, data.dataWizardSimplyId);
  let conversation: ConversationRow | null = openId === null ? null : await findConversationById(db, teamId, openId, { lock: true });
  // merged or finished between the lookup and the lock: a new one
  if (conversation && (conversation.mergedIntoId !== null || !(OPEN_STATUSES as readonly string[]).includes(conversation.status))) conversation = null;
  const base = { teamId: String(teamId), actorUserId: null, recipients: null };
  if (!conversation) {
    const contact = contactOf(schema, record.collectionId, record.values, hidden);
    conversation = await insertConversation(db, {
      simplyId: conversationId.create(),
      teamId,
      subject: oneLine(titleText(config.row.name), CONVERSATION_LIMITS.subject) || null,
      channel: 'FORM',
      priority: 'NORMAL',
      visitorName: oneLine(record.calculatedName ?? '', CONVERSATION_LIMITS.visitorName) || null,
      visitorEmail: contact.email,
      visitorPhone: contact.phone,
      dataRecordId: record.id,
      dataRecordSimplyId: record.simplyId,
      // the run named the record
      recordLinkSource: 'GIVEN',
      replyToken: randomSecret(24),
      createdByKind: actor.kind,
      createdById: actor.id,
    });
    // routed, given its SLA and told to the team like one started over the API
    await afterConversationCreated(services, db, conversation);
    await publishConversationEvent(services, db, { teamSimplyId, type: 'CONVERSATION_CREATED', conversationSimplyId: conversation.simplyId, actor, assignees: [null] });
    await queueNotifications(services, db, { ...base, conversationId: String(conversation.id), kind: 'NEW_CONVERSATION', key: conversation.simplyId, messageId: null });
  }

  const message = await insertMessage(
    db,
    {
      simplyId: conversationMessageId.create(),
      teamId,
      conversationId: conversation.id,
      channel: 'FORM',
      authorType: 'END_USER',
      authorUserId: null,
      authorCredentialKind: actor.kind,
      authorCredentialId: actor.id,
      content: answers.content,
      contentType: 'TEXT',
      deliveryStatus: null,
      deliverySimplyId: null,
      mentionedUserIds: [],
    },
    previewOf(answers.content, 'TEXT'),
  );
  // the person writing again ends a snooze, as any visitor message does
  if (conversation.snoozedUntil !== null) await updateConversation(db, teamId, conversation.id, { snoozedUntil: null });
  await afterMessagePosted(services, db, conversation, false);
  await publishConversationEvent(services, db, {
    teamSimplyId, type: 'MESSAGE_CREATED', conversationSimplyId: conversation.simplyId, messageSimplyId: message.simplyId, actor, assignees: [conversation.assignedUserSimplyId],
  });
  await queueNotifications(services, db, { ...base, conversationId: String(conversation.id), kind: 'NEW_MESSAGE', key: message.simplyId, messageId: String(message.id) });
  await settleFormSubmission(db, teamId, claim, conversation.id, message.id);
}
