// GraphQL face of the team assistant (docs/api/team-assistant.md). REST: rest-adapter/routes/team-assistant.ts.
// Every field is for a signed-in member (or an allowlisted first-party OAuth client) and shows
// only the caller's own sessions, runs and feedback.
import { builder } from '../../app/builder.ts';
import { tier } from '../../app/auth/tiers.ts';
import { PaginationRef } from '../../app/graphql/page.ts';
import type { ControlState, FeedbackView, MessageView, RunEventView, RunView, SessionView } from './assistant-views.ts';
import { rateMessage, type FeedbackResult } from './feedback.service.ts';
import { redeemPrefill } from './builder-prefill.ts';
import { listHandoffs, requestHandoff, supportAvailability, type Availability, type HandoffResult, type HandoffView } from './handoffs.service.ts';
import { approveProposal, getProposal, rejectProposal, type ProposalView } from './proposals.service.ts';
import type { PublishedRunEvent } from './run-events.ts';
import { cancelRun, discoverRun, getRun, subscribeRunEvents } from './runs.service.ts';
import { sendMessage, type SendResult } from './send-message.service.ts';
import { archiveSession, getSession, listSessions, type SessionPage, type SessionWithMessages } from './sessions.service.ts';
import { getKnowledgeSources, getSupportScope, putKnowledgeSources, putSupportScope, type KnowledgeSources, type SupportScope } from './settings.service.ts';

const ProposalRef = builder.objectRef<ProposalView>('TeamAgentProposal').implement({
  description: 'A change the assistant drafted; nothing is written until its member approves it',
  fields: (t) => ({
    proposalSimplyId: t.exposeString('proposalSimplyId'),
    tool: t.exposeString('tool'),
    arguments: t.field({ type: 'JSON', resolve: (p) => p.arguments }),
    diff: t.field({ type: 'JSON', description: '[{ dataRecordSimplyId (null for a new record), dataFieldSimplyId, field, before, after }]', resolve: (p) => p.diff }),
    affectedResources: t.field({ type: 'JSON', description: '[{ kind, simplyId, label }]', resolve: (p) => p.affectedResources }),
    riskLevel: t.exposeString('riskLevel', { description: 'LOW, MEDIUM or HIGH' }),
    permissionSummary: t.exposeString('permissionSummary'),
    validationSummary: t.exposeString('validationSummary'),
    status: t.exposeString('status', { description: 'DRAFT, APPROVED, EXECUTING, EXECUTED, REJECTED, EXPIRED or FAILED' }),
    result: t.field({ type: 'JSON', nullable: true, description: 'EXECUTED: { succeeded, failed, dataRecordSimplyIds }; FAILED: { code }', resolve: (p) => p.result }),
    expiresAt: t.field({ type: 'DateTime', resolve: (p) => p.expiresAt }),
    decidedAt: t.field({ type: 'DateTime', nullable: true, resolve: (p) => p.decidedAt }),
    executedAt: t.field({ type: 'DateTime', nullable: true, resolve: (p) => p.executedAt }),
    createdAt: t.field({ type: 'DateTime', resolve: (p) => p.createdAt }),
  }),
});

const AvailabilityRef = builder.objectRef<Availability>('TeamAgentSupportAvailability').implement({
  fields: (t) => ({
    available: t.exposeBoolean('available'),
    reason: t.exposeString('reason', { nullable: true, description: 'SUPPORT_DISABLED or NO_RESPONDERS when not available' }),
    topics: t.exposeStringList('topics'),
    responders: t.exposeInt('responders', { description: 'active team admins, who are notified of handoffs' }),
  }),
});

const HandoffRef = builder.objectRef<HandoffView>('TeamAgentSupportHandoff').implement({
  fields: (t) => ({
    handoffSimplyId: t.exposeString('handoffSimplyId'),
    sessionSimplyId: t.exposeString('sessionSimplyId'),
    status: t.exposeString('status', { description: 'OPEN or CLOSED' }),
    topic: t.exposeString('topic', { nullable: true }),
    note: t.exposeString('note', { nullable: true }),
    createdAt: t.field({ type: 'DateTime', resolve: (h) => h.createdAt }),
    closedAt: t.field({ type: 'DateTime', nullable: true, resolve: (h) => h.closedAt }),
  }),
});

const HandoffResultRef = builder.objectRef<HandoffResult>('TeamAgentSupportHandoffResult').implement({
  fields: (t) => ({
    created: t.exposeBoolean('created', { description: 'false: the session already had an OPEN handoff, answered instead' }),
    handoff: t.field({ type: HandoffRef, resolve: (r) => r.handoff }),
  }),
});

const ControlStateRef = builder.objectRef<ControlState>('TeamAgentControlState').implement({
  description: 'What the client should offer next: READY, AWAITING_PROPOSAL_APPROVAL (with pendingProposalSimplyIds), AWAITING_CLARIFICATION, BACKGROUND_TASK_PENDING, SUPPORT_HANDOFF_AVAILABLE or FAILED',
  fields: (t) => ({
    stateType: t.exposeString('stateType'),
    pendingProposalSimplyIds: t.stringList({ resolve: (c) => c.pendingProposalSimplyIds ?? [] }),
  }),
});

const SessionRef = builder.objectRef<SessionView>('TeamAgentSession').implement({
  fields: (t) => ({
    sessionSimplyId: t.exposeString('sessionSimplyId'),
    status: t.exposeString('status', { description: 'ACTIVE or ARCHIVED' }),
    title: t.exposeString('title', { description: 'the start of the first message' }),
    createdAt: t.field({ type: 'DateTime', resolve: (s) => s.createdAt }),
    updatedAt: t.field({ type: 'DateTime', resolve: (s) => s.updatedAt }),
  }),
});

const FeedbackRef = builder.objectRef<FeedbackView>('TeamAgentFeedback').implement({
  fields: (t) => ({
    feedbackSimplyId: t.exposeString('feedbackSimplyId'),
    rating: t.exposeString('rating', { description: 'UP or DOWN' }),
    comment: t.exposeString('comment', { nullable: true }),
    createdAt: t.field({ type: 'DateTime', resolve: (f) => f.createdAt }),
    updatedAt: t.field({ type: 'DateTime', resolve: (f) => f.updatedAt }),
  }),
});

const MessageRef = builder.objectRef<MessageView>('TeamAgentMessage').implement({
  fields: (t) => ({
    messageSimplyId: t.exposeString('messageSimplyId'),
    sessionSimplyId: t.exposeString('sessionSimplyId'),
    role: t.exposeString('role', { description: 'USER, ASSISTANT or SYSTEM' }),
    content: t.exposeString('content'),
    sourceReferences: t.field({ type: 'JSON', description: '[{ kind: DATA_RECORD | DATA_COLLECTION, simplyId, label }] the reply drew on', resolve: (m) => m.sourceReferences }),
    uiIntents: t.field({ type: 'JSON', description: 'what the app may open for the member (never a write)', resolve: (m) => m.uiIntents }),
    toolCalls: t.field({ type: 'JSON', description: '[{ tool, status: OK | ERROR, summary }]', resolve: (m) => m.toolCalls }),
    proposalSimplyIds: t.field({ type: 'JSON', resolve: (m) => m.proposalSimplyIds }),
    controlState: t.field({ type: ControlStateRef, resolve: (m) => m.controlState }),
    feedback: t.field({ type: FeedbackRef, nullable: true, description: "the caller's rating of this reply", resolve: (m) => m.feedback }),
    createdAt: t.field({ type: 'DateTime', resolve: (m) => m.createdAt }),
  }),
});

const RunEventRef = builder.objectRef<RunEventView | PublishedRunEvent>('TeamAgentRunEvent').implement({
  description: "One of a run's ordered events: sequence numbers start at 1 and have no gaps",
  fields: (t) => ({
    sequence: t.exposeInt('sequence'),
    eventType: t.exposeString('eventType', { description: 'RUN_STARTED, STEP_STARTED, TOOL_CALL_STARTED, TOOL_CALL_FINISHED, RUN_COMPLETED, RUN_WAITING, RUN_FAILED, RUN_CANCELLED' }),
    payload: t.field({ type: 'JSON', description: 'redacted: tool names, statuses, counts and fixed summaries', resolve: (e) => e.payload }),
    createdAt: t.field({ type: 'DateTime', resolve: (e) => new Date(e.createdAt) }),
  }),
});

const RunErrorRef = builder.objectRef<{ code: string; userVisibleSummary: string }>('TeamAgentRunError').implement({
  fields: (t) => ({ code: t.exposeString('code'), userVisibleSummary: t.exposeString('userVisibleSummary') }),
});

const RunRef = builder.objectRef<RunView>('TeamAgentRun').implement({
  fields: (t) => ({
    runSimplyId: t.exposeString('runSimplyId'),
    sessionSimplyId: t.exposeString('sessionSimplyId'),
    status: t.exposeString('status', { description: 'RUNNING (keep polling), WAITING, COMPLETED, FAILED or CANCELLED' }),
    startedAt: t.field({ type: 'DateTime', resolve: (r) => r.startedAt }),
    completedAt: t.field({ type: 'DateTime', nullable: true, resolve: (r) => r.completedAt }),
    error: t.field({ type: RunErrorRef, nullable: true, resolve: (r) => r.error }),
    runtimeEvents: t.field({ type: [RunEventRef], resolve: (r) => r.runtimeEvents }),
    userMessage: t.field({ type: MessageRef, resolve: (r) => r.userMessage }),
    assistantMessage: t.field({ type: MessageRef, nullable: true, resolve: (r) => r.assistantMessage }),
    controlState: t.field({ type: ControlStateRef, resolve: (r) => r.controlState }),
  }),
});

const RuntimeRef = builder.objectRef<SendResult['runtime']>('TeamAgentRuntime').implement({
  description: 'Version stamps of the assistant, its tools and its events',
  fields: (t) => ({ assistant: t.exposeString('assistant'), tools: t.exposeString('tools'), events: t.exposeString('events') }),
});

const SendResultRef = builder.objectRef<SendResult>('TeamAgentSendResult').implement({
  fields: (t) => ({
    httpStatus: t.exposeInt('httpStatus', { description: '202 while the run works (assistantMessage null), 201 for a persisted reply' }),
    session: t.field({ type: SessionRef, resolve: (r) => r.session }),
    userMessage: t.field({ type: MessageRef, resolve: (r) => r.userMessage }),
    assistantMessage: t.field({ type: MessageRef, nullable: true, resolve: (r) => r.assistantMessage }),
    runSimplyId: t.exposeString('runSimplyId'),
    status: t.exposeString('status'),
    availableTools: t.exposeStringList('availableTools'),
    controlState: t.field({ type: ControlStateRef, resolve: (r) => r.controlState }),
    runtime: t.field({ type: RuntimeRef, resolve: (r) => r.runtime }),
  }),
});

const SessionPageRef = builder.objectRef<SessionPage>('TeamAgentSessionPage').implement({
  fields: (t) => ({
    nodes: t.field({ type: [SessionRef], resolve: (p) => p.nodes }),
    pagination: t.field({ type: PaginationRef, resolve: (p) => p.pagination }),
  }),
});

const SessionWithMessagesRef = builder.objectRef<SessionWithMessages>('TeamAgentSessionDetail').implement({
  fields: (t) => ({
    session: t.field({ type: SessionRef, resolve: (s) => s.session }),
    messages: t.field({ type: [MessageRef], resolve: (s) => s.messages }),
  }),
});

const FeedbackResultRef = builder.objectRef<FeedbackResult>('TeamAgentFeedbackResult').implement({
  fields: (t) => ({
    created: t.exposeBoolean('created', { description: 'true for a first rating (201), false when it replaced one (200)' }),
    feedback: t.field({ type: FeedbackRef, resolve: (r) => r.feedback }),
  }),
});

const KnowledgeSourcesRef = builder.objectRef<KnowledgeSources>('TeamAgentKnowledgeSources').implement({
  fields: (t) => ({
    mode: t.exposeString('mode', { description: 'ALL_READABLE or SELECTED' }),
    collections: t.exposeStringList('collections'),
    views: t.exposeStringList('views'),
  }),
});

const SupportScopeRef = builder.objectRef<SupportScope>('TeamAgentSupportScope').implement({
  fields: (t) => ({
    enabled: t.exposeBoolean('enabled'),
    topics: t.exposeStringList('topics'),
    instructions: t.exposeString('instructions', { nullable: true }),
  }),
});

builder.queryFields((t) => ({
  teamAgentSessions: t.field({
    type: SessionPageRef,
    description: "The caller's assistant sessions, most recently active first (limit 1-100, default 25)",
    authScopes: tier.teamAssistant,
    args: { limit: t.arg.int(), offset: t.arg.int() },
    resolve: (_root, args, ctx) => listSessions(ctx, args),
  }),
  teamAgentSession: t.field({
    type: SessionWithMessagesRef,
    authScopes: tier.teamAssistant,
    args: { sessionSimplyId: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => getSession(ctx, args.sessionSimplyId),
  }),
  teamAgentRun: t.field({
    type: RunRef,
    authScopes: tier.teamAssistant,
    args: { runSimplyId: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => getRun(ctx, args.runSimplyId),
  }),
  teamAgentRunByKey: t.field({
    type: RunRef,
    description: 'Discovery: the run the caller started with this idempotency key (TEAM_AGENT_RUN_NOT_FOUND until it is visible)',
    authScopes: tier.teamAssistant,
    args: { idempotencyKey: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => discoverRun(ctx, args.idempotencyKey),
  }),
  teamAgentProposal: t.field({
    type: ProposalRef,
    authScopes: tier.teamAssistant,
    args: { proposalSimplyId: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => getProposal(ctx, args.proposalSimplyId),
  }),
  teamAgentSupportAvailability: t.field({ type: AvailabilityRef, authScopes: tier.teamAssistant, resolve: (_root, _args, ctx) => supportAvailability(ctx) }),
  teamAgentSupportHandoffs: t.field({
    type: [HandoffRef],
    authScopes: tier.teamAssistant,
    args: { sessionSimplyId: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => listHandoffs(ctx, args.sessionSimplyId),
  }),
  teamAgentKnowledgeSources: t.field({ type: KnowledgeSourcesRef, authScopes: tier.teamAssistantSettings, resolve: (_root, _args, ctx) => getKnowledgeSources(ctx) }),
  teamAgentSupportScope: t.field({ type: SupportScopeRef, authScopes: tier.teamAssistantSettings, resolve: (_root, _args, ctx) => getSupportScope(ctx) }),
}));

builder.mutationFields((t) => ({
  sendTeamAgentMessage: t.field({
    type: SendResultRef,
    authScopes: tier.teamAssistant,
    args: { input: t.arg({ type: 'JSON', required: true, description: '{ message, sessionSimplyId?, contextSnapshot?, idempotencyKey }' }) },
    resolve: (_root, args, ctx) => sendMessage(ctx, args.input),
  }),
  archiveTeamAgentSession: t.field({
    type: SessionRef,
    authScopes: tier.teamAssistant,
    args: { sessionSimplyId: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => archiveSession(ctx, args.sessionSimplyId),
  }),
  cancelTeamAgentRun: t.field({
    type: RunRef,
    description: 'Asks a running run to stop before its next step',
    authScopes: tier.teamAssistant,
    args: { runSimplyId: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => cancelRun(ctx, args.runSimplyId),
  }),
  approveTeamAgentProposal: t.field({
    type: ProposalRef,
    description: 'Executes exactly what was drafted, once (edit-level assistant permission)',
    authScopes: tier.teamAssistant,
    args: { proposalSimplyId: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => approveProposal(ctx, args.proposalSimplyId),
  }),
  rejectTeamAgentProposal: t.field({
    type: ProposalRef,
    authScopes: tier.teamAssistant,
    args: { proposalSimplyId: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => rejectProposal(ctx, args.proposalSimplyId),
  }),
  redeemTeamAgentPrefill: t.field({
    type: 'JSON',
    description: 'The builder prefill behind a PREFILL_SUPPORTED_BUILDER intent\'s nonce: { version: 1, builder, builderPrefill }, once, within five minutes',
    authScopes: tier.teamAssistant,
    args: { nonce: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => redeemPrefill(ctx, args.nonce),
  }),
  requestTeamAgentSupportHandoff: t.field({
    type: HandoffResultRef,
    authScopes: tier.teamAssistant,
    args: { input: t.arg({ type: 'JSON', required: true, description: '{ sessionSimplyId, topic?, note? }' }) },
    resolve: (_root, args, ctx) => requestHandoff(ctx, args.input),
  }),
  rateTeamAgentMessage: t.field({
    type: FeedbackResultRef,
    authScopes: tier.teamAssistant,
    args: { messageSimplyId: t.arg.string({ required: true }), input: t.arg({ type: 'JSON', required: true, description: '{ rating: UP | DOWN, comment? }' }) },
    resolve: (_root, args, ctx) => rateMessage(ctx, args.messageSimplyId, args.input),
  }),
  setTeamAgentKnowledgeSources: t.field({
    type: KnowledgeSourcesRef,
    authScopes: tier.teamAssistantSettings,
    args: { input: t.arg({ type: 'JSON', required: true }) },
    resolve: (_root, args, ctx) => putKnowledgeSources(ctx, args.input),
  }),
  setTeamAgentSupportScope: t.field({
    type: SupportScopeRef,
    authScopes: tier.teamAssistantSettings,
    args: { input: t.arg({ type: 'JSON', required: true }) },
    resolve: (_root, args, ctx) => putSupportScope(ctx, args.input),
  }),
}));

builder.subscriptionFields((t) => ({
  teamAgentRunEvents: t.field({
    type: RunEventRef,
    description: "A run's events after afterSequence (default 0: all), stored then live, from every instance; ends after the run's terminal event",
    authScopes: tier.teamAssistant,
    args: { runSimplyId: t.arg.string({ required: true }), afterSequence: t.arg.int() },
    subscribe: (_root, args, ctx) => subscribeRunEvents(ctx, args.runSimplyId, args.afterSequence ?? 0),
    resolve: (event) => event as PublishedRunEvent,
  }),
}));
