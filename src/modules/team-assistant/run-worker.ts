// Working out one run (the job of run-job.ts). Each step asks the model once; its tool calls are
// stored with the run before any is executed, and each result is stored as soon as it exists, so a
// worker that dies mid-run is replaced (pg-boss hands the job on once its heartbeat stops) and
// the new one resumes from what committed: a tool call whose result is stored is never run again,
// and a model step is asked again only when its answer was not stored. Each step re-reads the
// member's role and permissions; a member who lost access ends the run. Everything a member sees of
// a failure is a fixed sentence (error.userVisibleSummary); provider answers go to the server log.
import type { Job } from 'pg-boss';
import { AiError, type ChatMessage, type ChatToolCall, type JsonValue, type TokenBudget } from '../../app/ai/index.ts';
import { systemContext, type RequestContext, type Services } from '../../app/context.ts';
import { ApiError } from '../../app/errors.ts';
import type { OauthScope } from '../../app/auth/oauth-scopes.ts';
import type { Principal } from '../../app/auth/principal.ts';
import { runTransaction } from '../../app/transaction.ts';
import type { AssistantRun } from '../../generated/prisma/client.ts';
import { assistantLevel } from './team-assistant.access.ts';
import { declarationOf, isWebClient, shownToolName, toolsFor } from './assistant-tools.ts';
import type { AssistantTool, SourceReference, ToolUse, UiIntent } from './tool-types.ts';
import { appendRunEvent } from './run-events.ts';
import type { RunAssistantJob } from './run-job.ts';
import { teamAssistantSettings, type KnowledgeSources } from './settings.service.ts';
import { assistantMessageId } from './team-assistant.ids.ts';
import { systemPrompt } from './system-prompt.ts';

/** model steps one run may take (each may call several tools) */
export const MAX_STEPS = 8;
/** earlier messages of the session the model sees */
const HISTORY_MESSAGES = 20;
export const RUN_RETRY_LIMIT = 3;

interface StoredToolResult {
  output: JsonValue;
  isError: boolean;
  summary: string;
  sources: SourceReference[];
  proposalSimplyId?: string;
  uiIntent?: UiIntent;
}

/** records (and views) a reply drew on that the member's app offers to open, of each kind */
const OPEN_INTENTS = 3;

interface RunState {
  run: AssistantRun;
  teamSimplyId: string;
  transcript: ChatMessage[];
  toolResults: Record<string, StoredToolResult>;
  budget: TokenBudget;
}

class RunEnded extends Error {
  readonly status: 'FAILED' | 'CANCELLED';
  readonly code: string;
  readonly summary: string;

  constructor(status: 'FAILED' | 'CANCELLED', code: string, summary: string) {
    super(summary);
    this.status = status;
    this.code = code;
    this.summary = summary;
  }
}

const ended = {
  accessLost: () => new RunEnded('FAILED', 'ACCESS_LOST', 'You can no longer use the team assistant in this team.'),
  unavailable: () => new RunEnded('FAILED', 'FEATURE_UNAVAILABLE', 'The team assistant is not available at the moment.'),
  stepLimit: () => new RunEnded('FAILED', 'STEP_LIMIT', 'The assistant needed too many steps to answer. Try a narrower question.'),
  cancelled: () => new RunEnded('CANCELLED', 'CANCELLED', 'The run was cancelled.'),
  internal: () => new RunEnded('FAILED', 'INTERNAL_ERROR', 'The assistant could not answer because of an internal error. Try again.'),
};

export async function runAssistant(services: Services, job: Pick<Job<RunAssistantJob>, 'data' | 'retryCount'>): Promise<void> {
  const teamId = BigInt(job.data.teamId);
  const runId = BigInt(job.data.runId);
  // claimed and read in one statement: a run that already ended is not worked again
  const [run] = await services.prisma.assistantRun.updateManyAndReturn({ where: { teamId, id: runId, status: 'RUNNING' }, data: { attempts: { increment: 1 } } });
  if (!run) return;
  const logger = services.logger.child({ run: run.simplyId, attempt: run.attempts });
  const state: RunState = {
    run,
    teamSimplyId: '',
    transcript: run.transcript as unknown as ChatMessage[],
    toolResults: run.toolResults as unknown as Record<string, StoredToolResult>,
    budget: services.ai ? services.ai.runBudget() : (null as never),
  };
  try {
    if (!services.ai) throw ended.unavailable();
    state.budget.charge({ totalTokens: run.tokensUsed });
    await work(services, state);
  } catch (error) {
    if (error instanceof RunEnded) return finish(services, state, { status: error.status, error: { code: error.code, userVisibleSummary: error.summary } });
    if (error instanceof AiError) {
      logger.warn(error.logFields(), 'assistant model step failed');
      return finish(services, state, { status: 'FAILED', error: { code: `MODEL_${error.kind.toUpperCase()}`, userVisibleSummary: error.userVisibleSummary } });
    }
    logger.error({ err: error, retryCount: job.retryCount }, 'assistant run attempt failed');
    if (job.retryCount < RUN_RETRY_LIMIT) throw error;
    const internal = ended.internal();
    return finish(services, state, { status: 'FAILED', error: { code: internal.code, userVisibleSummary: internal.summary } });
  }
}

interface Member {
  ctx: RequestContext;
  level: 'VIEW' | 'EDIT';
  team: { simplyId: string; name: string };
}

/** The member as they are now, with the token's scopes the run was started with. */
async function memberNow(services: Services, run: AssistantRun): Promise<Member> {
  const member = await services.authenticator.memberPrincipal(run.userId, run.teamId);
  const level = member && assistantLevel(member);
  if (!member || !level || !member.team) throw ended.accessLost();
  const principal: Principal = { ...member, scopes: run.scopes ? new Set(run.scopes as OauthScope[]) : null };
  return { ctx: systemContext(services, principal, `assistant-run:${run.simplyId}`), level, team: member.team };
}

// The first step reads what it needs side by side and stores its first events together, so the
// model is asked within a few round trips of the job's start; each later step re-reads the member.
async function work(services: Services, state: RunState): Promise<void> {
  const { run } = state;
  const [first, { knowledgeSources }, opening] = await Promise.all([
    memberNow(services, run),
    teamAssistantSettings(services, run.teamId),
    state.transcript.length === 0 ? openingTranscript(services, run) : Promise.resolve(state.transcript),
  ]);
  state.teamSimplyId = first.team.simplyId;
  state.transcript = opening;
  let member: Member | null = first;
  // the claimed row is current: the first step needs no second read of it
  let current: { cancelRequestedAt: Date | null; steps: number } | null = run;
  for (;;) {
    member ??= await memberNow(services, run);
    const { ctx, level } = member;
    const tools = toolsFor(ctx, level, isWebClient(run.contextSnapshot));
    // tool calls of a step stored before a crash: run the ones without a result first
    const pending = pendingCalls(state);
    if (pending.length > 0) {
      await runToolCalls(services, state, member, knowledgeSources, pending);
      member = null;
      current = null;
      continue;
    }
    current ??= await services.prisma.assistantRun.findUniqueOrThrow({ where: { teamId_id: { teamId: run.teamId, id: run.id } }, select: { cancelRequestedAt: true, steps: true } });
    if (current.cancelRequestedAt) throw ended.cancelled();
    if (current.steps >= MAX_STEPS) throw ended.stepLimit();
    const step = current.steps + 1;
    const starting = run.nextEventSequence === 1 && step === 1;
    if (starting) await appendRunEvent(services, services.prisma, run, state.teamSimplyId, 'RUN_STARTED');
    await appendRunEvent(services, services.prisma, run, state.teamSimplyId, 'STEP_STARTED', { step });
    const answer = await services.ai!.complete({
      system: systemPrompt({ teamName: member.team.name, contextSnapshot: run.contextSnapshot, searchable: tools.length > 0, canDraft: tools.some((t) => t.level === 'EDIT') }),
      messages: state.transcript,
      tools: tools.map(declarationOf),
      budget: state.budget,
      teamId: run.teamId,
      feature: 'team-assistant',
    });
    if (answer.toolCalls.length === 0) {
      await finish(services, state, { status: 'COMPLETED', reply: answer.text.trim() || 'I have no answer to that.' });
      return;
    }
    state.transcript.push({ role: 'assistant', content: answer.text, toolCalls: answer.toolCalls });
    await services.prisma.assistantRun.update({
      where: { teamId_id: { teamId: run.teamId, id: run.id } },
      data: { transcript: state.transcript as never, steps: { increment: 1 }, tokensUsed: state.budget.used },
    });
    member = null;
    current = null;
  }
}

function pendingCalls(state: RunState): ChatToolCall[] {
  const last = state.transcript.at(-1);
  if (last?.role === 'assistant' && last.toolCalls?.length) return last.toolCalls.filter((c) => !state.toolResults[c.id]);
  // results stored but not yet in the transcript (a crash between the two writes is impossible: one update holds both)
  return [];
}

/** Runs the calls in order, each with the member as they are when it runs (their role read again for every call after the first). */
async function runToolCalls(services: Services, state: RunState, first: Member, sources: KnowledgeSources, calls: ChatToolCall[]): Promise<void> {
  const { run } = state;
  for (const [index, call] of calls.entries()) {
    const { ctx, level } = index === 0 ? first : await memberNow(services, run);
    const tools = toolsFor(ctx, level, isWebClient(run.contextSnapshot));
    await appendRunEvent(services, services.prisma, run, state.teamSimplyId, 'TOOL_CALL_STARTED', { tool: shownToolName(call.name) });
    const result = await runTool(ctx, tools, { sources, runId: run.id, userId: run.userId, toolCallId: call.id }, call);
    state.toolResults[call.id] = result;
    state.transcript.push({ role: 'tool', toolCallId: call.id, name: call.name, output: result.output, isError: result.isError });
    await runTransaction(services.prisma, async (tx) => {
      await tx.assistantRun.update({ where: { teamId_id: { teamId: run.teamId, id: run.id } }, data: { transcript: state.transcript as never, toolResults: state.toolResults as never } });
      await appendRunEvent(services, tx, run, state.teamSimplyId, 'TOOL_CALL_FINISHED', { tool: shownToolName(call.name), status: result.isError ? 'ERROR' : 'OK', summary: result.summary });
    });
  }
}

async function runTool(ctx: RequestContext, tools: AssistantTool[], use: ToolUse, call: ChatToolCall): Promise<StoredToolResult> {
  const refuse = (code: string, message: string, summary: string): StoredToolResult => ({ output: { error: code, message }, isError: true, summary, sources: [] });
  const tool = tools.find((t) => t.name === call.name);
  if (!tool || call.invalid === 'unknown_tool') return refuse('UNKNOWN_TOOL', `There is no tool named ${call.name}; use one of: ${tools.map((t) => t.name).join(', ')}`, 'The model asked for a tool that does not exist');
  const input = tool.input.safeParse(call.invalid ? undefined : call.input);
  if (!input.success) return refuse('INVALID_ARGUMENTS', input.error.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('; '), 'The model passed invalid arguments');
  try {
    const outcome = await tool.run(ctx, input.data as never, use);
    return {
      output: outcome.result as JsonValue,
      isError: false,
      summary: outcome.summary,
      sources: outcome.sources,
      ...(outcome.proposalSimplyId ? { proposalSimplyId: outcome.proposalSimplyId } : {}),
      ...(outcome.uiIntent ? { uiIntent: outcome.uiIntent } : {}),
    };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return refuse(error.code, error.message, `The tool was refused (${error.code})`);
  }
}

/** The session's earlier messages (text only) and the member's new one. */
async function openingTranscript(services: Services, run: AssistantRun): Promise<ChatMessage[]> {
  const messages = await services.prisma.assistantMessage.findMany({
    where: { teamId: run.teamId, sessionId: run.sessionId, id: { lte: run.userMessageId }, role: { in: ['USER', 'ASSISTANT'] } },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: HISTORY_MESSAGES + 1,
  });
  return messages.reverse().map((m) => (m.role === 'USER' ? { role: 'user' as const, content: m.content } : { role: 'assistant' as const, content: m.content }));
}

interface Outcome {
  /** COMPLETED with proposals still to decide ends WAITING */
  status: 'COMPLETED' | 'FAILED' | 'CANCELLED';
  reply?: string;
  error?: { code: string; userVisibleSummary: string };
}

/** Ends the run once: its reply message, status and terminal event in one transaction. */
async function finish(services: Services, state: RunState, outcome: Outcome): Promise<void> {
  const { run } = state;
  // a run that ended before it knew its team (the member had lost access)
  state.teamSimplyId ||= (await services.prisma.team.findUniqueOrThrow({ where: { id: run.teamId }, select: { simplyId: true } })).simplyId;
  const sources = dedupe(Object.values(state.toolResults).flatMap((r) => r.sources));
  const uiIntents: UiIntent[] = [
    ...sources.filter((r) => r.kind === 'DATA_RECORD').slice(0, OPEN_INTENTS).map((r) => ({ type: 'OPEN_RECORD', dataRecordSimplyId: r.simplyId, label: r.label })),
    ...sources.filter((r) => r.kind === 'DATA_VIEW').slice(0, OPEN_INTENTS).map((r) => ({ type: 'OPEN_DATA_VIEW', dataViewSimplyId: r.simplyId, label: r.label })),
    ...Object.values(state.toolResults).flatMap((r) => (r.uiIntent ? [r.uiIntent] : [])),
  ];
  const toolCalls = state.transcript.flatMap((m) =>
    m.role === 'tool' ? [{ tool: shownToolName(m.name), status: m.isError ? 'ERROR' : 'OK', summary: state.toolResults[m.toolCallId]?.summary ?? '' }] : [],
  );
  const proposals = Object.values(state.toolResults).flatMap((r) => (r.proposalSimplyId ? [r.proposalSimplyId] : []));
  const pending = outcome.status === 'COMPLETED' && proposals.length > 0
    ? (await services.prisma.assistantProposal.findMany({ where: { teamId: run.teamId, runId: run.id, status: 'DRAFT' }, select: { simplyId: true } })).map((p) => p.simplyId)
    : [];
  const status = pending.length > 0 ? 'WAITING' : outcome.status;
  const controlState = status === 'WAITING'
    ? { stateType: 'AWAITING_PROPOSAL_APPROVAL', pendingProposalSimplyIds: pending }
    : status === 'COMPLETED' ? { stateType: 'READY' } : { stateType: 'FAILED' };
  await runTransaction(services.prisma, async (tx) => {
    const open = await tx.assistantRun.updateMany({ where: { teamId: run.teamId, id: run.id, status: 'RUNNING' }, data: { status } });
    if (open.count === 0) return;
    const reply = outcome.reply
      ? await tx.assistantMessage.create({
          data: { simplyId: assistantMessageId.create(), teamId: run.teamId, sessionId: run.sessionId, role: 'ASSISTANT', content: outcome.reply, sourceRefs: sources as never, toolCalls: toolCalls as never, uiIntents: uiIntents as never, proposalIds: proposals, controlState },
        })
      : null;
    await tx.assistantRun.update({
      where: { teamId_id: { teamId: run.teamId, id: run.id } },
      data: { completedAt: new Date(), assistantMessageId: reply?.id ?? null, error: (outcome.error ?? undefined) as never, controlState, tokensUsed: state.budget?.used ?? run.tokensUsed },
    });
    await tx.assistantSession.update({ where: { teamId_id: { teamId: run.teamId, id: run.sessionId } }, data: { updatedAt: new Date() } });
    const eventType = ({ WAITING: 'RUN_WAITING', COMPLETED: 'RUN_COMPLETED', CANCELLED: 'RUN_CANCELLED', FAILED: 'RUN_FAILED' } as const)[status];
    const payload = outcome.error ? { code: outcome.error.code, userVisibleSummary: outcome.error.userVisibleSummary } : pending.length > 0 ? { pendingProposalSimplyIds: pending } : {};
    await appendRunEvent(services, tx, run, state.teamSimplyId, eventType, payload);
  });
}

/** a RUNNING run untouched this long has no job left to run it (a job expires after 15 minutes) */
const ABANDONED_AFTER_MS = 20 * 60_000;

/**
 * Ends runs no worker will finish (their job gave up after its retries, or was lost): FAILED with
 * WORKER_LOST, so no client polls them for ever. Run every minute; exported for tests.
 */
export async function failAbandonedRuns(services: Services): Promise<number> {
  const abandoned = await services.prisma.assistantRun.findMany({ where: { status: 'RUNNING', updatedAt: { lt: new Date(Date.now() - ABANDONED_AFTER_MS) } }, take: 100 });
  for (const run of abandoned) {
    const state: RunState = { run, teamSimplyId: '', transcript: [], toolResults: {}, budget: null as never };
    await finish(services, state, { status: 'FAILED', error: { code: 'WORKER_LOST', userVisibleSummary: 'The assistant stopped working on this question. Ask again.' } });
  }
  return abandoned.length;
}

function dedupe(sources: SourceReference[]): SourceReference[] {
  const seen = new Map<string, SourceReference>();
  for (const source of sources) seen.set(`${source.kind}:${source.simplyId}`, source);
  return [...seen.values()].slice(0, 50);
}
