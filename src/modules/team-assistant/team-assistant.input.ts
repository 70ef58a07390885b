// The request bodies of the team assistant, shared by its REST table and its services (which
// validate the GraphQL face's JSON inputs with the same schemas). Limits: Document 2 §8.
import { z } from 'zod';

export const MAX_IDEMPOTENCY_KEY = 64;
export const MAX_MESSAGE_CHARACTERS = 8000;
const MAX_SNAPSHOT_BYTES = 16 * 1024;

export const sendMessageInput = z.strictObject({
  message: z.string().trim().min(1, 'must not be blank').max(MAX_MESSAGE_CHARACTERS, `at most ${MAX_MESSAGE_CHARACTERS} characters`),
  sessionSimplyId: z.string().max(40).optional().describe('omit to start a new session'),
  contextSnapshot: z
    .record(z.string(), z.unknown())
    .optional()
    .refine((value) => value === undefined || Buffer.byteLength(JSON.stringify(value)) <= MAX_SNAPSHOT_BYTES, `at most ${MAX_SNAPSHOT_BYTES} bytes of JSON`)
    .describe('what the member is looking at (e.g. { dataRecordSimplyId, dataViewSimplyId }), shown to the model as context'),
  idempotencyKey: z.string().trim().min(1, 'is required').max(MAX_IDEMPOTENCY_KEY, `at most ${MAX_IDEMPOTENCY_KEY} characters`).describe('one per user send, normally a UUID'),
});

export const feedbackInput = z.strictObject({
  rating: z.enum(['UP', 'DOWN']),
  comment: z.string().max(1000, 'at most 1000 characters').nullish().describe('omitted, null or blank clears the comment'),
});

export const knowledgeSourcesInput = z.strictObject({
  mode: z.enum(['ALL_READABLE', 'SELECTED']).describe('ALL_READABLE: every collection the member may read; SELECTED: only the listed ones'),
  collections: z.array(z.string().max(40)).max(100).default([]).describe('collection simplyIds (mode SELECTED)'),
  views: z.array(z.string().max(40)).max(100).default([]).describe('data view simplyIds the assistant may point members to'),
});
export type KnowledgeSources = z.output<typeof knowledgeSourcesInput>;

export const supportScopeInput = z.strictObject({
  enabled: z.boolean().describe('members may hand a session over to the team\'s responders'),
  topics: z.array(z.string().trim().min(1).max(100)).max(20).default([]).describe('what responders help with (shown to members)'),
  instructions: z.string().max(2000).nullable().default(null).describe('a note the assistant follows when it offers support'),
});
export type SupportScope = z.output<typeof supportScopeInput>;

export const handoffInput = z.strictObject({
  sessionSimplyId: z.string().max(40).describe('the session a person of the team should take over'),
  topic: z.string().trim().min(1).max(100).optional().describe('one of the support scope\'s topics, when it names any'),
  note: z.string().max(1000, 'at most 1000 characters').optional().describe('what the member needs, for the responder'),
});
