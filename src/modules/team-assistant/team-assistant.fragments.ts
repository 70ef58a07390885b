// The selections of the assistant's types that other faces (REST tables, tests) use.
import { fragment, selection } from '../../app/graphql/fragments.ts';

export const TEAM_AGENT_CONTROL_STATE = fragment('TeamAgentControlStateFields', 'TeamAgentControlState', 'stateType pendingProposalSimplyIds');
export const TEAM_AGENT_SESSION = fragment('TeamAgentSessionFields', 'TeamAgentSession', 'sessionSimplyId status title createdAt updatedAt');
export const TEAM_AGENT_FEEDBACK = fragment('TeamAgentFeedbackFields', 'TeamAgentFeedback', 'feedbackSimplyId rating comment createdAt updatedAt');
export const TEAM_AGENT_MESSAGE = fragment(
  'TeamAgentMessageFields',
  'TeamAgentMessage',
  selection`messageSimplyId sessionSimplyId role content sourceReferences uiIntents toolCalls proposalSimplyIds controlState { ${TEAM_AGENT_CONTROL_STATE} } feedback { ${TEAM_AGENT_FEEDBACK} } createdAt`,
);
export const TEAM_AGENT_RUN_EVENT = fragment('TeamAgentRunEventFields', 'TeamAgentRunEvent', 'sequence eventType payload createdAt');
export const TEAM_AGENT_RUN = fragment(
  'TeamAgentRunFields',
  'TeamAgentRun',
  selection`runSimplyId sessionSimplyId status startedAt completedAt error { code userVisibleSummary } runtimeEvents { ${TEAM_AGENT_RUN_EVENT} }
    userMessage { ${TEAM_AGENT_MESSAGE} } assistantMessage { ${TEAM_AGENT_MESSAGE} } controlState { ${TEAM_AGENT_CONTROL_STATE} }`,
);
export const TEAM_AGENT_SEND_RESULT = fragment(
  'TeamAgentSendResultFields',
  'TeamAgentSendResult',
  selection`httpStatus session { ${TEAM_AGENT_SESSION} } userMessage { ${TEAM_AGENT_MESSAGE} } assistantMessage { ${TEAM_AGENT_MESSAGE} } runSimplyId status availableTools
    controlState { ${TEAM_AGENT_CONTROL_STATE} } runtime { assistant tools events }`,
);
export const TEAM_AGENT_KNOWLEDGE_SOURCES = fragment('TeamAgentKnowledgeSourcesFields', 'TeamAgentKnowledgeSources', 'mode collections views');
export const TEAM_AGENT_SUPPORT_SCOPE = fragment('TeamAgentSupportScopeFields', 'TeamAgentSupportScope', 'enabled topics instructions');
export const TEAM_AGENT_PROPOSAL = fragment(
  'TeamAgentProposalFields',
  'TeamAgentProposal',
  'proposalSimplyId tool arguments diff affectedResources riskLevel permissionSummary validationSummary status result expiresAt decidedAt executedAt createdAt',
);
export const TEAM_AGENT_SUPPORT_HANDOFF = fragment('TeamAgentSupportHandoffFields', 'TeamAgentSupportHandoff', 'handoffSimplyId sessionSimplyId status topic note createdAt closedAt');
