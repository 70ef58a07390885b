// Identifiers of the team assistant.
import { idKind } from '../../app/ids.ts';

export const assistantSessionId = idKind('tas', 'assistant session');
export const assistantMessageId = idKind('tam', 'assistant message');
export const assistantRunId = idKind('tar', 'assistant run');
export const assistantProposalId = idKind('tap', 'assistant proposal');
export const assistantFeedbackId = idKind('taf', 'assistant feedback');
export const assistantHandoffId = idKind('tah', 'assistant support handoff');
