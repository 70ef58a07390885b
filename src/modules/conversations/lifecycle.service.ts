// The inbox's lifecycle moves (docs/api/conversations.md "Lifecycle"): take over, hand to the AI,
// snooze and wake, follow. Each is one locked change of the conversation (changeConversation)
// with its realtime event; following changes only the caller's own row.
import type { RequestContext } from '../../app/context.ts';
import { ValidationError } from '../../app/errors.ts';
import { onConnection } from '../../app/jobs.ts';
import { requireTeam } from '../../app/require-team.ts';
import { parseInput } from '../../app/validate.ts';
import { inboxVisibility, requirePerson } from './conversation-access.ts';
import { WAKE_CONVERSATION, type WakeJob } from './conversations.jobs.ts';
import { CONVERSATION_LIMITS, snoozeInput } from './conversations.input.ts';
import { type ConversationRow } from './conversations.sql.ts';
import { follow, unfollow } from './people.sql.ts';
import { changeConversation, visibleConversation } from './conversations.service.ts';
import { afterHandedToAi, requireAiModel } from './ai-hooks.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** PUT …/takeover: the caller becomes the assignee and the AI stops answering. */
export async function takeOverConversation(ctx: RequestContext, simplyId: string): Promise<ConversationRow> {
  const person = requirePerson(ctx, 'Taking a conversation over');
  const visibility = inboxVisibility(ctx, 'EDIT');
  return changeConversation(ctx, simplyId, visibility, (before, now) => ({
    ...(before.assignedUserId === person ? {} : { assignedUserId: person, assignedAt: now }),
    ...(before.aiHandling ? { aiHandling: false } : {}),
  }));
}

/**
 * PUT …/assign-ai: the AI assistant answers the visitor from now on (the assignee stays), a visitor
 * message still unanswered at once (ai-hooks.ts). Without a model: 403 AI_FEATURE_UNAVAILABLE,
 * after the conversation is found (another team's is 404 all the same).
 */
export async function assignConversationToAi(ctx: RequestContext, simplyId: string): Promise<ConversationRow> {
  const visibility = inboxVisibility(ctx, 'EDIT');
  return changeConversation(
    ctx,
    simplyId,
    visibility,
    (before) => {
      requireAiModel(ctx.services);
      return before.aiHandling ? {} : { aiHandling: true };
    },
    'CONVERSATION_UPDATED',
    (db, after) => afterHandedToAi(ctx.services, db, after),
  );
}

/**
 * PUT …/snooze { until }: out of the inbox (snoozed=AWAKE lists) until then, at most a year ahead.
 * A wake-up job at `until` is queued with the change (and the minute's sweep backs it up), so a
 * snooze ends on time whatever process died; a new end-user message ends it sooner.
 */
export async function snoozeConversation(ctx: RequestContext, simplyId: string, raw: unknown): Promise<ConversationRow> {
  const team = requireTeam(ctx);
  const visibility = inboxVisibility(ctx, 'EDIT');
  const input = parseInput(snoozeInput, raw, 'Invalid snooze');
  const until = new Date(input.until);
  const now = Date.now();
  if (until.getTime() <= now) throw new ValidationError('A snooze ends in the future', [{ field: 'until', message: 'must be in the future' }]);
  if (until.getTime() > now + CONVERSATION_LIMITS.snoozeMaxDays * DAY_MS) {
    throw new ValidationError('A snooze ends within a year', [{ field: 'until', message: `must be at most ${CONVERSATION_LIMITS.snoozeMaxDays} days ahead` }]);
  }
  return changeConversation(
    ctx,
    simplyId,
    visibility,
    () => ({ snoozedUntil: until }),
    'CONVERSATION_SNOOZED',
    async (db, after) => {
      const job: WakeJob = { teamId: String(team.id), conversationId: String(after.id) };
      await ctx.services.jobs.boss.send(WAKE_CONVERSATION, job, { db: onConnection(db), startAfter: until, retryLimit: 5 });
    },
  );
}

/** PUT …/unsnooze: back in the inbox now (not snoozed: unchanged). */
export async function unsnoozeConversation(ctx: RequestContext, simplyId: string): Promise<ConversationRow> {
  const visibility = inboxVisibility(ctx, 'EDIT');
  return changeConversation(ctx, simplyId, visibility, (before) => (before.snoozedUntil === null ? {} : { snoozedUntil: null }), 'CONVERSATION_WOKEN');
}

export interface FollowState {
  conversationSimplyId: string;
  following: boolean;
}

/** POST / DELETE …/follow: the caller is told of the conversation's new messages (or no longer); idempotent. */
export async function setFollowing(ctx: RequestContext, simplyId: string, following: boolean): Promise<FollowState> {
  const team = requireTeam(ctx);
  const person = requirePerson(ctx, 'Following');
  const conversation = await visibleConversation(ctx, simplyId, inboxVisibility(ctx, 'VIEW'));
  await (following ? follow : unfollow)(ctx.services.pool, team.id, conversation.id, person);
  return { conversationSimplyId: conversation.simplyId, following };
}
