// What the model is given about a conversation (docs/api/conversations.md "What the model sees"):
// the thread's newest messages, the linked record's display values, and the team's canned
// responses with their merge tags filled from that record. Two readers:
//
//   an agent (suggest-replies)  the thread with its internal notes (the agent sees them; they may
//                               inform a draft the agent reviews), and only the record fields the
//                               agent may read (none without records:read or a role)
//   the AI answering on its own  no internal notes at all: what it writes goes to the visitor
//                               unreviewed; the record's fields, as the visitor's own record
import { hasDataAccess, type Principal } from '../../app/auth/principal.ts';
import type { Services } from '../../app/context.ts';
import { accessTo, findRecords, toDisplayText, type FieldDefinition } from '../../kernel/index.ts';
import { cannedResponsePage } from '../content-templates/index.ts';
import { renderTemplate, type MergeField, type MergeRecord } from '../merge-tags/index.ts';
import { AI_LIMITS } from './ai-input.ts';
import type { ConversationRow } from './conversations.sql.ts';
import { htmlText } from './message-content.ts';
import { recentMessages, type MessageRow } from './messages.sql.ts';

export interface GroundingMessage {
  messageSimplyId: string;
  /** VISITOR, AGENT, AI or SYSTEM */
  author: string;
  /** an internal note: the team's own, never for the visitor */
  internal: boolean;
  at: string;
  text: string;
}

export interface GroundingCanned {
  cannedResponseSimplyId: string;
  name: string;
  text: string;
}

export interface Grounding {
  conversation: { subject: string | null; channel: string; status: string; visitorName: string | null; visitorLanguage: string | null };
  messages: GroundingMessage[];
  record: { name: string; fields: { field: string; value: string }[] } | null;
  cannedResponses: GroundingCanned[];
}

/** Who the grounding is for: an agent's principal, or the AI answering the visitor itself. */
export type GroundingReader = { principal: Principal } | 'AI';

const cut = (text: string, max: number) => (text.length > max ? `${[...text].slice(0, max).join('')}…` : text);

export function messageText(m: Pick<MessageRow, 'content' | 'contentType'>): string {
  return m.contentType === 'HTML' ? htmlText(m.content) : m.content;
}

function label(title: unknown, fallback: string): string {
  if (typeof title === 'string' && title.trim()) return title;
  if (title && typeof title === 'object') {
    const first = Object.values(title as Record<string, unknown>).find((v) => typeof v === 'string' && v.trim());
    if (typeof first === 'string') return first;
  }
  return fallback;
}

interface RecordSource {
  fields: FieldDefinition[];
  record: MergeRecord & { calculatedName: string };
}

/** The linked record and the fields the reader may read of it, or null (none linked, or unreadable). */
async function recordSource(services: Services, conversation: ConversationRow, reader: GroundingReader): Promise<RecordSource | null> {
  if (conversation.dataRecordSimplyId === null) return null;
  if (reader !== 'AI') {
    const p = reader.principal;
    if (!p.data && !p.isTeamAdmin && !p.isSystemAdmin) return null;
    if (p.scopes !== null && !p.scopes.has('records:read')) return null;
  }
  const [schema, [row]] = await Promise.all([services.schemas.get(conversation.teamId), findRecords(services.pool, conversation.teamId, [conversation.dataRecordSimplyId])]);
  const collection = row && schema.collectionsById.get(row.collectionId);
  if (!row || !collection) return null;
  if (reader !== 'AI' && !hasDataAccess(reader.principal, collection.simplyId, 'READ')) return null;
  const fields = reader === 'AI' ? schema.fieldsOf(collection) : accessTo(reader.principal, schema, collection).readable;
  return { fields, record: { simplyId: row.simplyId, calculatedName: row.calculatedName, values: row.values } };
}

export async function groundingFor(services: Services, conversation: ConversationRow, reader: GroundingReader): Promise<Grounding> {
  const [thread, source, canned] = await Promise.all([
    // a few more than shown, so that dropping the notes for the AI still leaves a full window
    recentMessages(services.pool, conversation.teamId, conversation.id, AI_LIMITS.groundingMessages * 2, null),
    recordSource(services, conversation, reader),
    cannedResponsePage(services.pool, conversation.teamId, null, AI_LIMITS.groundingCannedResponses, 0),
  ]);
  const messages = thread.messages
    .filter((m) => reader !== 'AI' || m.channel !== 'INTERNAL_NOTE')
    .slice(-AI_LIMITS.groundingMessages)
    .map((m) => ({
      messageSimplyId: m.simplyId,
      author: m.authorType === 'END_USER' ? 'VISITOR' : m.authorType,
      internal: m.channel === 'INTERNAL_NOTE',
      at: m.createdAt.toISOString(),
      text: cut(messageText(m), AI_LIMITS.groundingMessageCharacters),
    }));
  const record = source
    ? {
        name: source.record.calculatedName,
        fields: source.fields
          .map((f) => ({ field: label(f.title, f.columnName), value: cut(toDisplayText(f, source.record.values?.[f.dataFieldSimplyId]), 300) }))
          .filter((f) => f.value !== '')
          .slice(0, AI_LIMITS.groundingFields),
      }
    : null;
  const mergeFields = (source?.fields ?? []) as MergeField[];
  const cannedResponses = canned.rows
    .filter((t) => (t.textContent ?? '').trim() !== '')
    .map((t) => ({
      cannedResponseSimplyId: t.simplyId,
      name: label(t.name, t.simplyId),
      text: cut(renderTemplate(t.textContent ?? '', { fields: mergeFields, record: source?.record ?? null }, { maxLength: 20_000 }), AI_LIMITS.groundingCannedCharacters),
    }));
  return {
    conversation: { subject: conversation.subject, channel: conversation.channel, status: conversation.status, visitorName: conversation.visitorName, visitorLanguage: conversation.visitorLanguage },
    messages,
    record,
    cannedResponses,
  };
}

/** The internal notes' texts of a grounding (what no text for the visitor may quote). */
export function noteTexts(grounding: Grounding): string[] {
  return grounding.messages.filter((m) => m.internal).map((m) => m.text);
}
