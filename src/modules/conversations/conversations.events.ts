// The realtime topic of conversations (graphql-ws `conversationEvents`): what changed, about which
// conversation and message; subscribers read the conversation and message as they are now. Each
// event is published, inside the writing transaction, under the keys of everyone who may see it,
// so a subscriber's key holds only what its reach shows (docs/api/conversations.md "Realtime"):
//
//   <team>:all                     every conversation of the team (team-wide reach)
//   <team>:unassigned              conversations unassigned before or after the change
//   <team>:user:<user simplyId>    conversations assigned to that person before or after the change
//   <team>:conversation:<cnv-…>    one conversation
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { Services } from '../../app/context.ts';

export const CONVERSATION_EVENT_TYPES = [
  'CONVERSATION_CREATED',
  'CONVERSATION_UPDATED',
  'MESSAGE_CREATED',
  'CONVERSATION_SNOOZED',
  'CONVERSATION_WOKEN',
  'CONVERSATION_MERGED',
  'CONVERSATION_UNMERGED',
  // a conversation's SLA clock reached its warning time, or its due time unmet (sla-check.ts)
  'SLA_WARNING',
  'SLA_BREACHED',
] as const;
export type ConversationEventType = (typeof CONVERSATION_EVENT_TYPES)[number];

export interface ConversationEvent {
  /** one per change, the same under every key (a subscriber of two keys hears it once) */
  eventId: string;
  type: ConversationEventType;
  conversationSimplyId: string;
  /** MESSAGE_CREATED: the new message */
  messageSimplyId: string | null;
  occurredAt: string;
  actor: { kind: string; id: string | null };
}

declare module '../../app/pubsub/event-bus.ts' {
  interface Topics {
    /** `<team simplyId>:all | unassigned | user:<usr-…> | conversation:<cnv-…>` → conversation activity */
    conversationEvents: [string, ConversationEvent];
  }
}

export const teamKey = (teamSimplyId: string) => `${teamSimplyId}:all`;
export const unassignedKey = (teamSimplyId: string) => `${teamSimplyId}:unassigned`;
export const assigneeKey = (teamSimplyId: string, userSimplyId: string) => `${teamSimplyId}:user:${userSimplyId}`;
export const conversationKey = (teamSimplyId: string, conversationSimplyId: string) => `${teamSimplyId}:conversation:${conversationSimplyId}`;

export interface Publication {
  teamSimplyId: string;
  type: ConversationEventType;
  conversationSimplyId: string;
  messageSimplyId?: string | null;
  actor: { kind: string; id: string | null };
  /** the assignee's user simplyId before and after the change (null: unassigned) */
  assignees: readonly (string | null)[];
}

/** Publishes the change from inside its transaction: delivered by NOTIFY only if it commits. */
export async function publishConversationEvent(services: Services, db: pg.PoolClient, p: Publication): Promise<void> {
  const event: ConversationEvent = {
    eventId: randomUUID(),
    type: p.type,
    conversationSimplyId: p.conversationSimplyId,
    messageSimplyId: p.messageSimplyId ?? null,
    occurredAt: new Date().toISOString(),
    actor: p.actor,
  };
  const keys = new Set([teamKey(p.teamSimplyId), conversationKey(p.teamSimplyId, p.conversationSimplyId)]);
  for (const assignee of p.assignees) keys.add(assignee === null ? unassignedKey(p.teamSimplyId) : assigneeKey(p.teamSimplyId, assignee));
  const notifications = [...keys].map((key) => services.events.notification('conversationEvents', key, event));
  await db.query(`SELECT pg_notify(n.channel, n.payload) FROM unnest($1::text[], $2::text[]) AS n(channel, payload)`, [
    notifications.map((n) => n.channel),
    notifications.map((n) => n.payload),
  ]);
}
