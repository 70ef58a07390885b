// Merging two conversations of one contact, and undoing it (docs/api/conversations.md "Merging").
// Nothing moves: the source keeps its row and its messages and points at the target
// (`mergedIntoId`); the target's thread is itself and everything merged into it, so both threads'
// messages read in time order there. An unmerge clears the pointer and recomputes the target's
// totals: the source comes back as it was, and what was posted to the target since stays there.
// Every merge is a ConversationMerge row (who, when, undone when and by whom), shown in the detail.
//
// A chat widget visitor's conversation merged into another keeps its visitor: the target is tied to
// the same visitor (unless it has a visitor of its own), so their widget shows the merged thread and
// agents' replies there reach them; the merge row remembers it and the unmerge takes it back, also
// from the conversations the target was merged into since with the visitor carried along.
import type { RequestContext } from '../../app/context.ts';
import { ConflictError, NotFoundError, ValidationError } from '../../app/errors.ts';
import { requireTeam } from '../../app/require-team.ts';
import { inTransaction } from '../../app/transaction.ts';
import { parseInput } from '../../app/validate.ts';
import { actorOf, canSee, inboxVisibility, type Visibility } from './conversation-access.ts';
import { ConversationMergedError, ConversationNotMergedError } from './conversations.errors.ts';
import { publishConversationEvent } from './conversations.events.ts';
import { conversationId, conversationMergeId } from './conversations.ids.ts';
import { mergeInput } from './conversations.input.ts';
import { findConversation, findConversationById, lockConversations, updateConversation, type ConversationRow } from './conversations.sql.ts';
import { refreshThreadTotals } from './messages.sql.ts';
import { carryWidgetThread, closeMerge, dropCarriedWidgetThread, insertMerge, openMergeOf, widgetThreadOf, type CarriedThread, type MergeRow } from './merges.sql.ts';
import { previewOf } from './message-content.ts';

export interface MergeResult {
  merge: MergeRow;
  /** the conversation merged (or unmerged) */
  sourceConversation: ConversationRow;
  /** the conversation it went into (or came out of) */
  targetConversation: ConversationRow;
}

/** POST …/inbox/{id}/merge: { into } merges this conversation into that one, { source } that one into this one, { unmerge: true } undoes this one's merge. */
export async function mergeConversation(ctx: RequestContext, simplyId: string, raw: unknown): Promise<MergeResult> {
  requireTeam(ctx);
  conversationId.assert(simplyId, 'conversationSimplyId');
  const visibility = inboxVisibility(ctx, 'EDIT');
  const input = parseInput(mergeInput, raw, 'Invalid merge');
  if (input.unmerge) return unmerge(ctx, simplyId, visibility);
  const [source, target] = input.into ? [simplyId, input.into] : [input.source!, simplyId];
  if (source === target) {
    throw new ValidationError('A conversation cannot be merged into itself', [{ field: input.into ? 'into' : 'source', message: 'must name another conversation' }]);
  }
  return merge(ctx, source, target, visibility);
}

async function merge(ctx: RequestContext, sourceSimplyId: string, targetSimplyId: string, visibility: Visibility): Promise<MergeResult> {
  const team = requireTeam(ctx);
  const actor = actorOf(ctx);
  return inTransaction(ctx.services.pool, async (db) => {
    const locked = await lockConversations(db, team.id, [sourceSimplyId, targetSimplyId]);
    const visible = (id: string) => {
      const row = locked.get(id);
      if (!row || !canSee(visibility, row.assignedUserId)) throw new NotFoundError('Conversation', id);
      return row;
    };
    const source = visible(sourceSimplyId);
    const target = visible(targetSimplyId);
    if (source.mergedIntoId !== null) throw new ConversationMergedError(source.simplyId, source.mergedIntoSimplyId);
    if (target.mergedIntoId !== null) throw new ConversationMergedError(target.simplyId, target.mergedIntoSimplyId);
    // a target without a record takes the source's; the unmerge gives it back
    const takesRecord = target.dataRecordId === null && source.dataRecordId !== null;
    // the source's widget visitor sees the target from now on (a target with its own visitor keeps it)
    const visitor = await widgetThreadOf(db, team.id, source.id);
    const carried = visitor !== null && (await carryWidgetThread(db, team.id, target.id, visitor)) ? visitor : null;
    const row = await insertMerge(db, {
      simplyId: conversationMergeId.create(),
      teamId: team.id,
      sourceId: source.id,
      targetId: target.id,
      targetBefore: { ...(takesRecord ? { linked: true, dataRecordSimplyId: source.dataRecordSimplyId } : {}), ...(carried ? { widgetThread: carried } : {}) },
      byKind: actor.kind,
      byId: actor.id,
    });
    await updateConversation(db, team.id, source.id, { mergedIntoId: target.id, mergedAt: row.mergedAt, snoozedUntil: null });
    if (takesRecord) {
      await updateConversation(db, team.id, target.id, { dataRecordId: source.dataRecordId, dataRecordSimplyId: source.dataRecordSimplyId, recordLinkSource: source.recordLinkSource });
    }
    await refreshThreadTotals(db, team.id, target.id, previewOf);
    for (const c of [source, target]) {
      await publishConversationEvent(ctx.services, db, { teamSimplyId: team.simplyId, type: 'CONVERSATION_MERGED', conversationSimplyId: c.simplyId, actor, assignees: [c.assignedUserSimplyId] });
    }
    return { merge: row, sourceConversation: (await findConversationById(db, team.id, source.id))!, targetConversation: (await findConversationById(db, team.id, target.id))! };
  });
}

async function unmerge(ctx: RequestContext, simplyId: string, visibility: Visibility): Promise<MergeResult> {
  const team = requireTeam(ctx);
  const actor = actorOf(ctx);
  const seen = await findConversation(ctx.services.pool, team.id, simplyId);
  if (!seen || !canSee(visibility, seen.assignedUserId)) throw new NotFoundError('Conversation', simplyId);
  if (seen.mergedIntoSimplyId === null) throw new ConversationNotMergedError(simplyId);
  const targetSimplyId = seen.mergedIntoSimplyId;
  return inTransaction(ctx.services.pool, async (db) => {
    // both locked in id order, as a merge locks them
    const locked = await lockConversations(db, team.id, [simplyId, targetSimplyId]);
    const source = locked.get(simplyId);
    const target = locked.get(targetSimplyId);
    if (!source || !canSee(visibility, source.assignedUserId)) throw new NotFoundError('Conversation', simplyId);
    if (source.mergedIntoId === null) throw new ConversationNotMergedError(simplyId);
    if (!target || source.mergedIntoId !== target.id) throw new ConflictError('The conversation was merged or unmerged by another request at the same time; read it again');
    if (!canSee(visibility, target.assignedUserId)) throw new NotFoundError('Conversation', targetSimplyId);
    const open = await openMergeOf(db, team.id, source.id);
    if (!open) throw new ConflictError('The merge record of this conversation is missing; nothing was changed');
    const row = await closeMerge(db, team.id, open.id, actor);
    await updateConversation(db, team.id, source.id, { mergedIntoId: null, mergedAt: null });
    // the record the merge gave the target goes back, unless it was changed since
    if (open.targetBefore.linked && target.dataRecordSimplyId === open.targetBefore.dataRecordSimplyId) {
      await updateConversation(db, team.id, target.id, { dataRecordId: null, dataRecordSimplyId: null, recordLinkSource: null });
    }
    if (open.targetBefore.widgetThread) await takeBackVisitor(db, team.id, target.id, open.targetBefore.widgetThread);
    await refreshThreadTotals(db, team.id, target.id, previewOf);
    for (const c of [source, target]) {
      await publishConversationEvent(ctx.services, db, { teamSimplyId: team.simplyId, type: 'CONVERSATION_UNMERGED', conversationSimplyId: c.simplyId, actor, assignees: [c.assignedUserSimplyId] });
    }
    return { merge: row, sourceConversation: (await findConversationById(db, team.id, source.id))!, targetConversation: (await findConversationById(db, team.id, target.id))! };
  });
}

/**
 * The visitor a merge gave `conversationId` loses it again, and so do the conversations it was
 * merged into since that carried the same visitor along (their threads no longer hold the
 * visitor's conversation).
 */
async function takeBackVisitor(db: Parameters<typeof openMergeOf>[0], teamId: bigint, conversationId: bigint, visitor: CarriedThread): Promise<void> {
  const same = (t: CarriedThread | undefined) => t?.widgetId === visitor.widgetId && t.visitorId === visitor.visitorId;
  let at: bigint | null = conversationId;
  for (let hops = 0; at !== null && hops < 50; hops++) {
    await dropCarriedWidgetThread(db, teamId, at, visitor);
    const onward = await openMergeOf(db, teamId, at);
    at = onward && same(onward.targetBefore.widgetThread) ? onward.targetId : null;
  }
}
