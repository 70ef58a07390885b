// Reading runs (Document 2 §4.9 rules 2-4): by id, or discovered by the client's idempotency key,
// always scoped to the caller's team and to the member who started the run: anyone else's run, one
// not yet committed, and an unknown one are all TEAM_AGENT_RUN_NOT_FOUND. Cancelling asks the run
// to stop; it stops before its next step (a model call or tool call under way finishes first).
import type { RequestContext, Services } from '../../app/context.ts';
import { ValidationError } from '../../app/errors.ts';
import type { AssistantRun, AssistantSession } from '../../generated/prisma/client.ts';
import { requireTeam } from '../../app/require-team.ts';
import { assistantLevel, requireAssistant } from './team-assistant.access.ts';
import { AssistantRunNotFoundError } from './team-assistant.errors.ts';
import { assistantRunId } from './team-assistant.ids.ts';
import { MAX_IDEMPOTENCY_KEY } from './team-assistant.input.ts';
import { runView, type RunView } from './assistant-views.ts';
import { eventsFrom, runTopicId, storedRunEvents, type PublishedRunEvent } from './run-events.ts';

/** A run as the API answers it: its session, messages, events and the caller's feedback on the reply; with its session's row. */
export async function loadRun(services: Services, run: AssistantRun): Promise<{ view: RunView; session: AssistantSession }> {
  const { prisma } = services;
  const [session, events, messages, feedback] = await Promise.all([
    prisma.assistantSession.findUniqueOrThrow({ where: { teamId_id: { teamId: run.teamId, id: run.sessionId } } }),
    prisma.assistantRunEvent.findMany({ where: { teamId: run.teamId, runId: run.id }, orderBy: { sequence: 'asc' } }),
    prisma.assistantMessage.findMany({ where: { teamId: run.teamId, id: { in: [run.userMessageId, ...(run.assistantMessageId ? [run.assistantMessageId] : [])] } } }),
    run.assistantMessageId ? prisma.assistantFeedback.findUnique({ where: { teamId_messageId_userId: { teamId: run.teamId, messageId: run.assistantMessageId, userId: run.userId } } }) : null,
  ]);
  const user = messages.find((m) => m.id === run.userMessageId)!;
  const assistant = messages.find((m) => m.id === run.assistantMessageId) ?? null;
  return { view: runView(run, session, events, user, assistant, feedback), session };
}

export async function loadRunView(services: Services, run: AssistantRun): Promise<RunView> {
  return (await loadRun(services, run)).view;
}

async function ownRun(ctx: RequestContext, runSimplyId: string): Promise<AssistantRun> {
  const { teamId, userId } = requireAssistant(ctx);
  if (!assistantRunId.is(runSimplyId)) throw new AssistantRunNotFoundError();
  const run = await ctx.services.prisma.assistantRun.findUnique({ where: { teamId_simplyId: { teamId, simplyId: runSimplyId } } });
  if (!run || run.userId !== userId) throw new AssistantRunNotFoundError();
  return run;
}

export async function getRun(ctx: RequestContext, runSimplyId: string): Promise<RunView> {
  return loadRunView(ctx.services, await ownRun(ctx, runSimplyId));
}

/** Discovery: the caller's run started with this key, once its row is visible. */
export async function discoverRun(ctx: RequestContext, idempotencyKey: string): Promise<RunView> {
  const { teamId, userId } = requireAssistant(ctx);
  const key = idempotencyKey.trim();
  if (!key || key.length > MAX_IDEMPOTENCY_KEY) throw new ValidationError(`idempotencyKey must be 1 to ${MAX_IDEMPOTENCY_KEY} characters`, [{ field: 'idempotencyKey', message: `1 to ${MAX_IDEMPOTENCY_KEY} characters` }]);
  const run = await ctx.services.prisma.assistantRun.findUnique({ where: { teamId_userId_idempotencyKey: { teamId, userId, idempotencyKey: key } } });
  if (!run) throw new AssistantRunNotFoundError();
  return loadRunView(ctx.services, run);
}

/** Asks a RUNNING run to stop; a run that already ended is answered as it is. */
export async function cancelRun(ctx: RequestContext, runSimplyId: string): Promise<RunView> {
  const run = await ownRun(ctx, runSimplyId);
  if (run.status !== 'RUNNING') return loadRunView(ctx.services, run);
  await ctx.services.prisma.assistantRun.updateMany({ where: { teamId: run.teamId, id: run.id, status: 'RUNNING', cancelRequestedAt: null }, data: { cancelRequestedAt: new Date() } });
  return loadRunView(ctx.services, { ...run, cancelRequestedAt: new Date() });
}

/**
 * A run's events after `afterSequence` (0: all): the stored ones, then live ones from any instance,
 * ending after the terminal event. A client that lost its connection asks again from the last
 * sequence it saw and misses nothing.
 */
export async function subscribeRunEvents(ctx: RequestContext, runSimplyId: string, afterSequence: number): Promise<AsyncIterable<PublishedRunEvent>> {
  const run = await ownRun(ctx, runSimplyId);
  const team = requireTeam(ctx);
  const after = Number.isInteger(afterSequence) && afterSequence > 0 ? afterSequence : 0;
  const live = ctx.services.events.pubsub.subscribe('assistantRunEvents', runTopicId(team.simplyId, run.simplyId), {
    context: ctx,
    // the member may have lost the assistant since subscribing
    accept: async (now) => now.principal.team?.id === run.teamId && now.principal.userId === run.userId && assistantLevel(now.principal) !== null,
  });
  return eventsFrom(() => storedRunEvents(ctx.services, run.teamId, run.id, after), live, run.simplyId, after);
}
