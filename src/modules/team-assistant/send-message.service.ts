// Sending a message (Document 2 §4.9 rules 1-3). A new idempotency key commits the member's
// message, the run (RUNNING) and its job in one transaction and answers 202 at once; the reply is
// worked out by the job (run-worker.ts). The same key again answers what that run is now: 202
// while it runs, its persisted reply as 201 once COMPLETED or WAITING, and its safe failure as
// 409 once FAILED or CANCELLED (a new attempt uses a new key). The body sent with a known key is
// not compared: the key names the send.
import type { RequestContext } from '../../app/context.ts';
import { ConflictError, NotFoundError } from '../../app/errors.ts';
import { runTransaction } from '../../app/transaction.ts';
import { parseInput } from '../../app/validate.ts';
import type { AssistantMessage, AssistantRun, AssistantSession } from '../../generated/prisma/client.ts';
import { requireAssistant } from './team-assistant.access.ts';
import { AssistantRunEndedError } from './team-assistant.errors.ts';
import { assistantMessageId, assistantRunId, assistantSessionId } from './team-assistant.ids.ts';
import { isWebClient, toolsFor } from './assistant-tools.ts';
import { loadRun } from './runs.service.ts';
import { sendMessageInput } from './team-assistant.input.ts';
import { messageView, sessionView, type ControlState, type MessageView, type SessionView } from './assistant-views.ts';
import { RUN_ASSISTANT, type RunAssistantJob } from './run-job.ts';

const TITLE_CHARACTERS = 80;

/** What the answers carry about the assistant itself, so clients can tell versions apart. */
export const RUNTIME_VERSIONS = { assistant: '1', tools: '1', events: '1' } as const;


export interface SendResult {
  /** 202 while the run works, 201 for a persisted reply */
  httpStatus: 201 | 202;
  session: SessionView;
  userMessage: MessageView;
  assistantMessage: MessageView | null;
  runSimplyId: string;
  status: string;
  availableTools: string[];
  controlState: ControlState;
  runtime: typeof RUNTIME_VERSIONS;
}

export async function sendMessage(ctx: RequestContext, input: unknown): Promise<SendResult> {
  const caller = requireAssistant(ctx);
  const body = parseInput(sendMessageInput, input, 'Invalid message');
  const { prisma } = ctx.services;
  const byKey = { teamId_userId_idempotencyKey: { teamId: caller.teamId, userId: caller.userId, idempotencyKey: body.idempotencyKey } };
  const known = await prisma.assistantRun.findUnique({ where: byKey });
  if (known) return answer(ctx, known, caller.level);

  if (body.sessionSimplyId !== undefined) assistantSessionId.assert(body.sessionSimplyId, 'sessionSimplyId');
  let created: { run: AssistantRun; session: AssistantSession; userMessage: AssistantMessage };
  try {
    created = await runTransaction(prisma, async (tx) => {
      const session = body.sessionSimplyId
        ? await tx.assistantSession.findUnique({ where: { teamId_simplyId: { teamId: caller.teamId, simplyId: body.sessionSimplyId } } })
        : await tx.assistantSession.create({
            data: { simplyId: assistantSessionId.create(), teamId: caller.teamId, userId: caller.userId, title: [...body.message].slice(0, TITLE_CHARACTERS).join('') },
          });
      if (!session || session.userId !== caller.userId) throw new NotFoundError('Assistant session', body.sessionSimplyId);
      if (session.status !== 'ACTIVE') throw new ConflictError('The session is archived: start a new session to ask again');
      const userMessage = await tx.assistantMessage.create({
        data: { simplyId: assistantMessageId.create(), teamId: caller.teamId, sessionId: session.id, role: 'USER', content: body.message },
      });
      const run = await tx.assistantRun.create({
        data: {
          simplyId: assistantRunId.create(),
          teamId: caller.teamId,
          userId: caller.userId,
          sessionId: session.id,
          idempotencyKey: body.idempotencyKey,
          userMessageId: userMessage.id,
          contextSnapshot: (body.contextSnapshot ?? undefined) as never,
          scopes: ctx.principal.scopes ? [...ctx.principal.scopes] : undefined,
        },
      });
      const touched = await tx.assistantSession.update({ where: { teamId_id: { teamId: caller.teamId, id: session.id } }, data: { updatedAt: new Date() } });
      const job: RunAssistantJob = { teamId: String(caller.teamId), runId: String(run.id) };
      await ctx.services.jobs.sendInTransaction(tx, RUN_ASSISTANT, job, { singletonKey: run.simplyId });
      return { run, session: touched, userMessage };
    });
  } catch (error) {
    // the same key sent twice at once: the other send's run won the unique key, answer it
    if (!(error instanceof ConflictError)) throw error;
    const winner = await prisma.assistantRun.findUnique({ where: byKey });
    if (!winner) throw error;
    return answer(ctx, winner, caller.level);
  }
  // a new run is answered from the rows just written
  const { run, session, userMessage } = created;
  return accepted(ctx, run, sessionView(session), messageView(userMessage, session.simplyId, null), null, caller.level);
}

async function answer(ctx: RequestContext, run: AssistantRun, level: 'VIEW' | 'EDIT'): Promise<SendResult> {
  if (run.status === 'FAILED' || run.status === 'CANCELLED') {
    const summary = (run.error as { userVisibleSummary?: string } | null)?.userVisibleSummary ?? (run.status === 'CANCELLED' ? 'The run was cancelled.' : 'The assistant could not answer.');
    throw new AssistantRunEndedError(run.status, run.simplyId, summary);
  }
  const { view, session } = await loadRun(ctx.services, run);
  return accepted(ctx, run, sessionView(session), view.userMessage, view.assistantMessage, level);
}

function accepted(ctx: RequestContext, run: AssistantRun, session: SessionView, userMessage: MessageView, assistantMessage: MessageView | null, level: 'VIEW' | 'EDIT'): SendResult {
  const running = run.status === 'RUNNING';
  return {
    httpStatus: running ? 202 : 201,
    session,
    userMessage,
    assistantMessage: running ? null : assistantMessage,
    runSimplyId: run.simplyId,
    status: run.status,
    availableTools: toolsFor(ctx, level, isWebClient(run.contextSnapshot)).map((t) => t.name),
    controlState: run.controlState as unknown as ControlState,
    runtime: RUNTIME_VERSIONS,
  };
}
