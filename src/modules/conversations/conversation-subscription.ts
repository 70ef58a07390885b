// The conversationEvents subscription (docs/api/conversations.md "Realtime"): a conversation's
// events, or the team's within the caller's reach. The subscriber joins the keys its reach covers
// (conversations.events.ts): team-wide callers one key, shared by every subscriber of the same
// permissions (resolved once per group); inbox callers limited to their own and the unassigned
// conversations two keys, merged here (an event under both is heard once). Each event is checked
// against the credential as it is now: a subscriber who lost the permission hears no more.
import type { RequestContext } from '../../app/context.ts';
import { ApiError } from '../../app/errors.ts';
import { requireTeam } from '../../app/require-team.ts';
import { ResyncRequiredError } from '../../app/pubsub/resync.ts';
import { canSee, subscriberVisibility, type Visibility } from './conversation-access.ts';
import { assigneeKey, conversationKey, teamKey, unassignedKey, type ConversationEvent } from './conversations.events.ts';
import { findConversation, type ConversationRow } from './conversations.sql.ts';
import { findMessage, type MessageRow } from './messages.sql.ts';
import { visibleConversation } from './conversations.service.ts';

/** One message of the subscription: the event, with the conversation and message as they are now. */
export interface ConversationEventMessage {
  type: ConversationEvent['type'];
  conversationSimplyId: string;
  messageSimplyId: string | null;
  occurredAt: Date;
  actor: ConversationEvent['actor'];
  /** null once it is no longer readable (it never is deleted today) */
  conversation: ConversationRow | null;
  message: MessageRow | null;
}

/** The caller's reach now, or null when it no longer has any (an event is then dropped, not failed). */
function reachNow(ctx: RequestContext): Visibility | null {
  try {
    return subscriberVisibility(ctx);
  } catch (error) {
    if (error instanceof ApiError) return null;
    throw error;
  }
}

/** Whether a subscriber that joined with reach `joined` may still hear its keys with reach `now` (a wider reach may; a narrower one may not). */
const stillCovers = (joined: Visibility, now: Visibility | null) =>
  now !== null && (now.reach === 'ALL' || (joined.reach === 'OWN' && now.reach === 'OWN' && joined.userId === now.userId));

export async function subscribeConversationEvents(ctx: RequestContext, conversationSimplyId: string | null | undefined): Promise<AsyncIterable<ConversationEvent>> {
  const team = requireTeam(ctx);
  const reach = subscriberVisibility(ctx);
  const { pubsub } = ctx.services.events;
  const stillInTeam = (now: RequestContext) => now.principal.team?.id === team.id;
  if (conversationSimplyId != null) {
    const conversation = await visibleConversation(ctx, conversationSimplyId, reach);
    return pubsub.subscribe('conversationEvents', conversationKey(team.simplyId, conversation.simplyId), {
      context: ctx,
      // reassigned away from an inbox-only subscriber: no more of its events for them
      accept: async (now) => {
        const visibility = reachNow(now);
        if (!stillInTeam(now) || visibility === null) return false;
        const row = await findConversation(now.services.pool, team.id, conversation.simplyId);
        return row !== null && canSee(visibility, row.assignedUserId);
      },
    });
  }
  const options = { context: ctx, accept: async (now: RequestContext) => stillInTeam(now) && stillCovers(reach, reachNow(now)) };
  if (reach.reach === 'ALL') return pubsub.subscribe('conversationEvents', teamKey(team.simplyId), options);
  const keys = [unassignedKey(team.simplyId)];
  if (reach.userId !== null && ctx.principal.userSimplyId) keys.push(assigneeKey(team.simplyId, ctx.principal.userSimplyId));
  const streams = keys.map((key) => pubsub.subscribe('conversationEvents', key, options));
  // listen now, not when the first event is asked for
  return mergedOnce(streams, streams.map((s) => s[Symbol.asyncIterator]()));
}

/** stands in for events a subscriber may have missed (see conversationEventMessage) */
const MISSED = Symbol('events may have been missed');
type MaybeMissed = ConversationEvent & { [MISSED]?: true };

/** The events of several keys as one stream, each event once; a key that must resync listens again and says so once. */
async function* mergedOnce(streams: AsyncIterable<ConversationEvent>[], iterators: AsyncIterator<ConversationEvent>[]): AsyncGenerator<ConversationEvent> {
  const seen = new Set<string>();
  const order: string[] = [];
  type Step = { i: number; result?: IteratorResult<ConversationEvent>; missed?: true };
  const step = (i: number): Promise<Step> =>
    iterators[i]!.next().then(
      (result) => ({ i, result }),
      (error) => {
        if (!(error instanceof ResyncRequiredError)) throw error;
        iterators[i] = streams[i]![Symbol.asyncIterator]();
        return { i, missed: true };
      },
    );
  const pending = new Map(iterators.map((_, i) => [i, step(i)]));
  try {
    while (pending.size > 0) {
      const { i, result, missed } = await Promise.race(pending.values());
      if (missed) {
        pending.set(i, step(i));
        yield { [MISSED]: true } as MaybeMissed;
        continue;
      }
      if (result!.done) {
        pending.delete(i);
        continue;
      }
      pending.set(i, step(i));
      const event = result!.value;
      if (seen.has(event.eventId)) continue;
      seen.add(event.eventId);
      order.push(event.eventId);
      if (order.length > 500) seen.delete(order.shift()!);
      yield event;
    }
  } finally {
    await Promise.all(iterators.map((it) => it.return?.(undefined)));
  }
}

// event → what its subscribers read: shared by every group the event is resolved for, gone with the event
const reads = new WeakMap<ConversationEvent, Promise<{ conversation: ConversationRow | null; message: MessageRow | null }>>();

/** The event as its subscribers see it: the conversation and message read once per event. */
export async function conversationEventMessage(ctx: RequestContext, event: ConversationEvent): Promise<ConversationEventMessage> {
  if ((event as MaybeMissed)[MISSED]) throw new ResyncRequiredError();
  const team = requireTeam(ctx);
  let read = reads.get(event);
  if (!read) {
    const { pool } = ctx.services;
    read = Promise.all([
      findConversation(pool, team.id, event.conversationSimplyId),
      event.messageSimplyId === null ? null : findMessage(pool, team.id, event.messageSimplyId),
    ]).then(([conversation, message]) => ({ conversation, message }));
    // a failed read is not kept: the retry reads again
    read.catch(() => reads.delete(event));
    reads.set(event, read);
  }
  const { conversation, message } = await read;
  return { type: event.type, conversationSimplyId: event.conversationSimplyId, messageSimplyId: event.messageSimplyId, occurredAt: new Date(event.occurredAt), actor: event.actor, conversation, message };
}
