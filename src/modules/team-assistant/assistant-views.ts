// The assistant's rows as every face answers them: simplyIds only (never numeric ids), and what a
// run stores for itself (its transcript, tool results, scopes) left out.
import type { AssistantFeedback, AssistantMessage, AssistantRun, AssistantRunEvent, AssistantSession } from '../../generated/prisma/client.ts';

export interface ControlState {
  stateType: 'READY' | 'AWAITING_PROPOSAL_APPROVAL' | 'AWAITING_CLARIFICATION' | 'BACKGROUND_TASK_PENDING' | 'SUPPORT_HANDOFF_AVAILABLE' | 'FAILED';
  pendingProposalSimplyIds?: string[];
}

export interface SessionView {
  sessionSimplyId: string;
  status: string;
  title: string;
  createdAt: Date;
  updatedAt: Date;
}

export interface FeedbackView {
  feedbackSimplyId: string;
  rating: string;
  comment: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface MessageView {
  messageSimplyId: string;
  sessionSimplyId: string;
  role: string;
  content: string;
  sourceReferences: unknown;
  uiIntents: unknown;
  toolCalls: unknown;
  proposalSimplyIds: unknown;
  controlState: ControlState;
  feedback: FeedbackView | null;
  createdAt: Date;
}

export interface RunEventView {
  sequence: number;
  eventType: string;
  payload: unknown;
  createdAt: Date;
}

export interface RunView {
  runSimplyId: string;
  sessionSimplyId: string;
  status: string;
  startedAt: Date;
  completedAt: Date | null;
  error: { code: string; userVisibleSummary: string } | null;
  runtimeEvents: RunEventView[];
  userMessage: MessageView;
  assistantMessage: MessageView | null;
  controlState: ControlState;
}

export const sessionView = (s: AssistantSession): SessionView => ({
  sessionSimplyId: s.simplyId,
  status: s.status,
  title: s.title,
  createdAt: s.createdAt,
  updatedAt: s.updatedAt,
});

export const feedbackView = (f: AssistantFeedback): FeedbackView => ({
  feedbackSimplyId: f.simplyId,
  rating: f.rating,
  comment: f.comment,
  createdAt: f.createdAt,
  updatedAt: f.updatedAt,
});

export function messageView(m: AssistantMessage, sessionSimplyId: string, feedback: AssistantFeedback | null): MessageView {
  return {
    messageSimplyId: m.simplyId,
    sessionSimplyId,
    role: m.role,
    content: m.content,
    sourceReferences: m.sourceRefs,
    uiIntents: m.uiIntents,
    toolCalls: m.toolCalls,
    proposalSimplyIds: m.proposalIds,
    controlState: m.controlState as unknown as ControlState,
    feedback: feedback ? feedbackView(feedback) : null,
    createdAt: m.createdAt,
  };
}

export const runEventView = (e: AssistantRunEvent): RunEventView => ({ sequence: e.sequence, eventType: e.eventType, payload: e.payload, createdAt: e.createdAt });

export function runView(
  run: AssistantRun,
  session: AssistantSession,
  events: AssistantRunEvent[],
  userMessage: AssistantMessage,
  assistantMessage: AssistantMessage | null,
  feedback: AssistantFeedback | null,
): RunView {
  return {
    runSimplyId: run.simplyId,
    sessionSimplyId: session.simplyId,
    status: run.status,
    startedAt: run.startedAt,
    completedAt: run.completedAt,
    error: (run.error as RunView['error']) ?? null,
    runtimeEvents: events.map(runEventView),
    userMessage: messageView(userMessage, session.simplyId, null),
    assistantMessage: assistantMessage ? messageView(assistantMessage, session.simplyId, feedback) : null,
    controlState: run.controlState as unknown as ControlState,
  };
}
