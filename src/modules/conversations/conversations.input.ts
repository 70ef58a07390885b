// Inputs of the conversation routes (docs/api/conversations.md), shared by the GraphQL face and the
// REST table: REST validates a body before the operation runs, the service again for GraphQL
// callers, so both answer 400 VALIDATION_ERROR naming the field.
import { z } from 'zod';
import { optionalText, parseEmail } from '../../kernel/index.ts';

/** The origin channel of a conversation (Document 2 §2.4). */
export const CONVERSATION_CHANNELS = ['CHAT', 'FORM', 'EMAIL', 'SMS', 'WHATSAPP', 'FACEBOOK'] as const;
/** The channel of one message: the origin channels and the team's own notes. */
export const MESSAGE_CHANNELS = [...CONVERSATION_CHANNELS, 'INTERNAL_NOTE'] as const;
export const STATUSES = ['OPEN', 'PENDING', 'RESOLVED', 'CLOSED', 'ESCALATED'] as const;
export const PRIORITIES = ['LOW', 'NORMAL', 'HIGH', 'URGENT'] as const;
export const AUTHOR_TYPES = ['END_USER', 'AI', 'AGENT', 'SYSTEM'] as const;
export const CONTENT_TYPES = ['TEXT', 'HTML'] as const;
/** What an outbound message's delivery stands at (null for the end user's messages and internal notes). */
export const DELIVERY_STATUSES = ['SENT', 'QUEUED', 'DELIVERED', 'FAILED'] as const;

export type ConversationChannel = (typeof CONVERSATION_CHANNELS)[number];
export type MessageChannel = (typeof MESSAGE_CHANNELS)[number];
export type ConversationStatus = (typeof STATUSES)[number];
export type Priority = (typeof PRIORITIES)[number];
export type AuthorType = (typeof AUTHOR_TYPES)[number];

/** Document 2 §8 and the limits this area adds. */
export const CONVERSATION_LIMITS = {
  defaultLimit: 25,
  maxLimit: 100,
  messagesDefaultLimit: 50,
  messagesMaxLimit: 100,
  /** messages the inbox detail shows (the newest, in order) unless asked otherwise */
  recentMessagesDefault: 20,
  subject: 255,
  visitorName: 200,
  /** characters of a message's text (TEXT) or of its HTML before sanitizing */
  content: 20_000,
  htmlContent: 100_000,
  /** the inbox's text search */
  query: 128,
  /** how far ahead a snooze may reach */
  snoozeMaxDays: 365,
  /** the characters of the last message the lists show */
  preview: 200,
} as const;

const oneOf = <T extends readonly [string, ...string[]]>(values: T) => z.enum(values, { message: `must be one of ${values.join(', ')}` });

export const channelSchema = oneOf(CONVERSATION_CHANNELS);
export const messageChannelSchema = oneOf(MESSAGE_CHANNELS);
export const statusSchema = oneOf(STATUSES);
export const prioritySchema = oneOf(PRIORITIES);

const userSimplyId = z.string({ message: 'must be a user simplyId (usr-XXXX-XXXX-XXXX)' }).regex(/^usr-[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}$/, 'must be a user simplyId (usr-XXXX-XXXX-XXXX)');
const recordSimplyId = z.string({ message: 'must be a record simplyId (XXXX-XXXX-XXXX)' }).regex(/^[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}$/, 'must be a record simplyId (XXXX-XXXX-XXXX)');
const conversationSimplyId = z.string({ message: 'must be a conversation simplyId (cnv-XXXX-XXXX-XXXX)' }).regex(/^cnv-[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}$/, 'must be a conversation simplyId (cnv-XXXX-XXXX-XXXX)');
const messageSimplyId = z.string({ message: 'must be a message simplyId (cvm-XXXX-XXXX-XXXX)' }).regex(/^cvm-[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}$/, 'must be a message simplyId (cvm-XXXX-XXXX-XXXX)');

const email = z
  .string({ message: 'must be an email address' })
  .transform((raw, ctx) => {
    if (raw.trim() === '') return null;
    const parsed = parseEmail(raw);
    if (parsed.ok) return parsed.value;
    ctx.addIssue({ code: 'custom', message: parsed.message });
    return z.NEVER;
  })
  .nullable();

/** E.164 ("+14155552671"): the phone is matched against the team's PHONE_NUMBER fields, which hold E.164. */
const phone = z
  .string({ message: 'must be a phone number such as "+14155552671"' })
  .transform((raw, ctx) => {
    const compact = raw.replace(/[\s().\-/]/g, '');
    if (compact === '') return null;
    if (!/^\+[1-9]\d{6,14}$/.test(compact)) {
      ctx.addIssue({ code: 'custom', message: 'must be an international number: + and 7 to 15 digits (e.g. "+14155552671")' });
      return z.NEVER;
    }
    return compact;
  })
  .nullable();

const NOT_AN_OBJECT = { error: 'The request body must be a JSON object' };

/** POST /v1/conversations: every field optional; channel CHAT and priority NORMAL unless given. */
export const createConversationInput = z.strictObject(
  {
    subject: optionalText(CONVERSATION_LIMITS.subject, { lineOf: 'the subject' }).optional(),
    channel: channelSchema.nullish(),
    priority: prioritySchema.nullish(),
    visitorName: optionalText(CONVERSATION_LIMITS.visitorName, { lineOf: 'a name' }).optional(),
    visitorEmail: email.optional(),
    visitorPhone: phone.optional(),
    /** ties the conversation to this record; without it, the visitor's email or phone is matched */
    dataRecordSimplyId: recordSimplyId.nullish(),
  },
  NOT_AN_OBJECT,
);
export type CreateConversationInput = z.output<typeof createConversationInput>;

/** PUT /v1/conversations/{id}: any of the four; an explicit null clears subject or assignedUserId. */
export const updateConversationInput = z
  .strictObject(
    {
      status: statusSchema.optional(),
      priority: prioritySchema.optional(),
      subject: optionalText(CONVERSATION_LIMITS.subject, { lineOf: 'the subject' }).optional(),
      assignedUserId: userSimplyId.nullable().optional(),
    },
    NOT_AN_OBJECT,
  )
  .refine((v) => Object.values(v).some((x) => x !== undefined), { message: 'give at least one of status, priority, subject, assignedUserId' });
export type UpdateConversationInput = z.output<typeof updateConversationInput>;

/** POST …/messages: content is required; channel CHAT, contentType TEXT and authorType AGENT unless given. */
export const postMessageInput = z.strictObject(
  {
    content: z.string({ message: 'is required' }).max(CONVERSATION_LIMITS.htmlContent, `must be at most ${CONVERSATION_LIMITS.htmlContent} characters`),
    channel: messageChannelSchema.nullish(),
    contentType: oneOf(CONTENT_TYPES).nullish(),
    /**
     * Who wrote it: AGENT (default), END_USER (an integration relaying what the visitor wrote) or
     * SYSTEM. AI messages are the assistant's own (a later phase).
     */
    authorType: oneOf(['AGENT', 'END_USER', 'SYSTEM'] as const).nullish(),
  },
  NOT_AN_OBJECT,
);
export type PostMessageInput = z.output<typeof postMessageInput>;

/** GET /v1/conversations: the table's filters (assignedUserId "null": unassigned). */
export const listConversationsInput = z.strictObject({
  limit: z.number().nullish(),
  offset: z.number().nullish(),
  status: statusSchema.nullish(),
  channel: channelSchema.nullish(),
  assignedUserId: z.union([z.literal('null'), userSimplyId]).nullish(),
});
export type ListConversationsInput = z.output<typeof listConversationsInput>;

export const ASSIGNED_FILTERS = ['me', 'unassigned', 'any'] as const;
export const SNOOZE_FILTERS = ['AWAKE', 'SNOOZED', 'ANY'] as const;
export type SnoozeFilter = (typeof SNOOZE_FILTERS)[number];
export const INBOX_SORTS = ['-lastMessageAt', 'lastMessageAt'] as const;

/** GET /v1/conversations/inbox: lists of values are any of them. */
export const inboxListInput = z.strictObject({
  limit: z.number().nullish(),
  offset: z.number().nullish(),
  status: z.array(statusSchema).max(STATUSES.length).nullish(),
  channel: z.array(channelSchema).max(CONVERSATION_CHANNELS.length).nullish(),
  priority: z.array(prioritySchema).max(PRIORITIES.length).nullish(),
  assigned: oneOf(ASSIGNED_FILTERS).nullish(),
  assignedUserId: userSimplyId.nullish(),
  snoozed: oneOf(SNOOZE_FILTERS).nullish(),
  unread: z.boolean().nullish(),
  q: z.string().max(CONVERSATION_LIMITS.query, `must be at most ${CONVERSATION_LIMITS.query} characters`).nullish(),
  sort: oneOf(INBOX_SORTS).nullish(),
});
export type InboxListInput = z.output<typeof inboxListInput>;

export const pageInput = z.strictObject({ limit: z.number().nullish(), offset: z.number().nullish() });

/** POST …/inbox/{id}/read: up to the given message, else up to the latest. */
export const readInput = z.strictObject({ messageSimplyId: messageSimplyId.nullish() }, NOT_AN_OBJECT);

/** PUT …/inbox/{id}/snooze: an ISO 8601 time in the future, at most a year ahead. */
export const snoozeInput = z.strictObject(
  {
    until: z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date-time with a time zone (e.g. "2026-12-24T09:00:00Z")' }),
  },
  NOT_AN_OBJECT,
);

/**
 * POST …/inbox/{id}/merge: exactly one of `into` (this conversation goes into that one), `source`
 * (that one comes into this one) and `unmerge: true` (this merged conversation comes back out).
 */
export const mergeInput = z
  .strictObject(
    {
      into: conversationSimplyId.nullish(),
      source: conversationSimplyId.nullish(),
      unmerge: z.boolean({ message: 'must be true or false' }).nullish(),
    },
    NOT_AN_OBJECT,
  )
  .superRefine((v, ctx) => {
    const given = [v.into != null, v.source != null, v.unmerge === true].filter(Boolean).length;
    if (given !== 1) ctx.addIssue({ code: 'custom', path: ['into'], message: 'give exactly one of into, source and unmerge: true' });
  });
export type MergeInput = z.output<typeof mergeInput>;
