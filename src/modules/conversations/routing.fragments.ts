// The selections of routing and staffing types that other faces (the REST table, tests) use.
import { fragment, selection } from '../../app/graphql/fragments.ts';
import { CONVERSATION_MESSAGE } from './conversations.fragments.ts';

export const ASSIGNMENT_RULE = fragment(
  'ConversationAssignmentRuleFields',
  'ConversationAssignmentRule',
  'id assignmentRuleSimplyId name position isEnabled conditions actionType poolUserIds poolTeamRoleId agentUserId maxOpenPerAgent slaPolicyId createdAt updatedAt',
);

export const CONVERSATION_AGENT = fragment(
  'ConversationAgentFields',
  'ConversationAgent',
  'userSimplyId firstName lastName email status online lastHeartbeatAt openConversations maxOpenConversations limitIsDefault available lastAssignedAt',
);

export const SLA_POLICY = fragment(
  'ConversationSlaPolicyFields',
  'ConversationSlaPolicy',
  'id slaPolicySimplyId name description isDefault timeZone targets businessHours holidays warningPercent createdAt updatedAt',
);

export const CONVERSATION_SLA = fragment(
  'ConversationSlaFields',
  'ConversationSla',
  `slaPolicyId slaPolicyName firstResponseDueAt firstResponseBreached nextResponseDueAt nextResponseBreached resolutionDueAt resolutionBreached breached
   clocks { clock targetMinutes startedAt dueAt warnAt metAt running breached }`,
);

export const CANNED_RESPONSE = fragment(
  'ConversationCannedResponseFields',
  'ConversationCannedResponse',
  'id cannedResponseSimplyId name description textContent useCount lastUsedAt createdAt updatedAt',
);

export const CANNED_RESPONSE_USE = fragment(
  'ConversationCannedResponseUseFields',
  'ConversationCannedResponseUse',
  selection`cannedResponseSimplyId conversationSimplyId text recordUsed useCount message { ${CONVERSATION_MESSAGE} }`,
);
