// Routing and staffing of conversations → src/modules/conversations/routing.schema.ts, sla.schema.ts
// and canned-responses.schema.ts (docs/api/conversations.md "Routing and staffing", "SLA",
// "Canned responses"). Rules and SLA policies need DATA_CONVERSATION_INBOX_VIEW_ALL (view level to
// read, edit level to write); presence, assignable users and canned responses either inbox feature;
// scoped tokens conversations:read / conversations:write.
import { z } from 'zod';
import { operation, PAGINATION } from '../../../src/app/graphql/fragments.ts';
import { ASSIGNMENT_RULE, CANNED_RESPONSE, CANNED_RESPONSE_USE, CONVERSATION_AGENT, CONVERSATION_SLA, SLA_POLICY } from '../../../src/modules/conversations/routing.fragments.ts';
import { createPolicyInput, createRuleInput, putPresenceInput, reorderRulesInput, ROUTING_LIMITS, updatePolicyInput, updateRuleInput, useCannedInput } from '../../../src/modules/conversations/routing.input.ts';
import { defineRoutes, respond, route } from '../../route.ts';
import { actOn, createOne, getOne, updateOne } from '../../route-shapes.ts';
import { queryInt } from '../../schemas.ts';

const RULES = '/v1/conversations/assignment-rules';
const RULE = `${RULES}/{assignmentRuleSimplyId}`;
const POLICIES = '/v1/conversations/sla-policies';
const POLICY = `${POLICIES}/{slaPolicySimplyId}`;
const CANNED = '/v1/conversations/canned-responses';
const SUPERVISOR = 'DATA_CONVERSATION_INBOX_VIEW_ALL';
const INBOX_REACH = 'DATA_CONVERSATION_INBOX_VIEW or DATA_CONVERSATION_INBOX_VIEW_ALL';

const RULE_EXAMPLE = {
  name: 'Billing questions to the billing team',
  conditions: { channels: ['CHAT', 'EMAIL'], priorities: ['HIGH', 'URGENT'], subject: { contains: 'invoice' } },
  actionType: 'POOL',
  poolUserIds: ['usr-AB23-CD45-EF67', 'usr-GH89-JK23-MN45'],
  maxOpenPerAgent: 5,
  slaPolicyId: 'sla-QR67-ST89-UV23',
};
const POLICY_EXAMPLE = {
  name: 'Business hours, Berlin',
  isDefault: true,
  timeZone: 'Europe/Berlin',
  targets: { NORMAL: { firstResponseMinutes: 60, nextResponseMinutes: 120, resolutionMinutes: 1440 }, URGENT: { firstResponseMinutes: 15, resolutionMinutes: 240 } },
  businessHours: [1, 2, 3, 4, 5].map((weekday) => ({ weekday, start: '09:00', end: '17:00' })),
  holidays: ['2026-12-25', '2026-12-26'],
  warningPercent: 80,
};

const cannedQuery = z.strictObject({
  limit: queryInt().describe('1-100, default 25'),
  offset: queryInt().describe('0 or more, default 0'),
  q: z.preprocess((v) => (v === '' ? undefined : v), z.string().max(ROUTING_LIMITS.cannedSearch, `at most ${ROUTING_LIMITS.cannedSearch} characters`).optional()).describe('the name or text contains it, without case'),
});

export const conversationRoutingRoutes = defineRoutes(
  [
    // ---- assignment rules ----
    route({
      method: 'GET',
      path: RULES,
      summary: 'List assignment rules',
      description: `The team's assignment rules in order: the first enabled rule whose conditions all hold decides (${SUPERVISOR}; conversations:read)`,
      operation: operation`query ConversationAssignmentRules { conversationAssignmentRules { ${ASSIGNMENT_RULE} } }`,
    }),
    createOne({
      path: RULES,
      summary: 'Create an assignment rule',
      description: `A rule: conditions (channels, priorities, subject contains/startsWith, a record condition with record search filters) and an action: POOL (balanced among present agents under their limits), AGENT, AI or UNASSIGNED; position (default last) (${SUPERVISOR} at edit level; conversations:write)`,
      name: 'CreateConversationAssignmentRule',
      inputType: 'CreateAssignmentRuleInput',
      body: createRuleInput,
      example: RULE_EXAMPLE,
      select: ASSIGNMENT_RULE,
    }),
    updateOne({
      method: 'PUT',
      path: `${RULES}/reorder`,
      summary: 'Reorder assignment rules',
      description: `{ orderedRuleSimplyIds }: every rule of the team, each once, in the new order; answers the rules in it (${SUPERVISOR} at edit level; conversations:write)`,
      name: 'ReorderConversationAssignmentRules',
      inputType: 'ReorderAssignmentRulesInput',
      body: reorderRulesInput,
      example: { orderedRuleSimplyIds: ['car-AB23-CD45-EF67', 'car-GH89-JK23-MN45'] },
      select: ASSIGNMENT_RULE,
    }),
    getOne({ path: RULE, summary: 'Get an assignment rule', description: `One rule (${SUPERVISOR}; conversations:read)`, name: 'ConversationAssignmentRule', select: ASSIGNMENT_RULE }),
    updateOne({
      method: 'PUT',
      path: RULE,
      summary: 'Change an assignment rule',
      description: `Any of the create fields but position (use reorder); changing the action drops what only the old action had (${SUPERVISOR} at edit level; conversations:write)`,
      name: 'UpdateConversationAssignmentRule',
      inputType: 'UpdateAssignmentRuleInput',
      body: updateRuleInput,
      example: { isEnabled: false },
      select: ASSIGNMENT_RULE,
    }),
    actOn({ method: 'DELETE', path: RULE, summary: 'Delete an assignment rule', description: `The later rules move up (${SUPERVISOR} at edit level; conversations:write)`, name: 'DeleteConversationAssignmentRule' }),

    // ---- SLA policies ----
    route({
      method: 'GET',
      path: POLICIES,
      summary: 'List SLA policies',
      description: `The team's SLA policies (${SUPERVISOR}; conversations:read)`,
      operation: operation`query ConversationSlaPolicies { conversationSlaPolicies { ${SLA_POLICY} } }`,
    }),
    createOne({
      path: POLICIES,
      summary: 'Create an SLA policy',
      description: `Targets per priority (first response, next response, resolution, in business minutes), business hours per weekday in timeZone (none: around the clock), holidays, warningPercent (default 80), isDefault (${SUPERVISOR} at edit level; conversations:write)`,
      name: 'CreateConversationSlaPolicy',
      inputType: 'CreateSlaPolicyInput',
      body: createPolicyInput,
      example: POLICY_EXAMPLE,
      select: SLA_POLICY,
    }),
    getOne({ path: POLICY, summary: 'Get an SLA policy', description: `One policy (${SUPERVISOR}; conversations:read)`, name: 'ConversationSlaPolicy', select: SLA_POLICY }),
    updateOne({
      method: 'PUT',
      path: POLICY,
      summary: 'Change an SLA policy',
      description: `Any of the create fields; the due times of conversations following it move with it (${SUPERVISOR} at edit level; conversations:write)`,
      name: 'UpdateConversationSlaPolicy',
      inputType: 'UpdateSlaPolicyInput',
      body: updatePolicyInput,
      example: { holidays: ['2026-12-24', '2026-12-25', '2026-12-26'] },
      select: SLA_POLICY,
    }),
    actOn({ method: 'DELETE', path: POLICY, summary: 'Delete an SLA policy', description: `Rules naming it lose it; its conversations follow no SLA (${SUPERVISOR} at edit level; conversations:write)`, name: 'DeleteConversationSlaPolicy' }),
    route({
      method: 'GET',
      path: '/v1/conversations/{conversationSimplyId}/sla',
      summary: 'Get the SLA state of a conversation',
      description: 'The policy the conversation follows and its clocks: due and warning times, met, running, breached (DATA_CONVERSATIONS_VIEW; conversations:read). null: it follows none',
      operation: operation`query ConversationSla($id: String!) { conversationSla(conversationSimplyId: $id) { ${CONVERSATION_SLA} } }`,
      variables: ({ params }) => ({ id: params.conversationSimplyId }),
    }),

    // ---- presence and agents ----
    route({
      method: 'GET',
      path: '/v1/conversations/presence',
      summary: 'List agent presence',
      description: `The team's agents (members who can work conversations) with status (ONLINE only with a heartbeat within ${ROUTING_LIMITS.presenceWindowSeconds} s), open load and limit (${INBOX_REACH}; conversations:read)`,
      operation: operation`query ConversationPresence { conversationPresence { ${CONVERSATION_AGENT} } }`,
    }),
    route({
      method: 'PUT',
      path: '/v1/conversations/presence',
      summary: 'Set presence',
      description: `Your status ({ status: ONLINE | AWAY | OFFLINE }); every PUT of yours is a heartbeat (send one at least every ${ROUTING_LIMITS.presenceWindowSeconds} s to stay ONLINE). Supervisors (${SUPERVISOR} at edit level) may name userSimplyId and set maxOpenConversations (null: the default ${ROUTING_LIMITS.defaultAgentLimit}). API keys name userSimplyId (${INBOX_REACH}; conversations:write)`,
      operation: operation`mutation PutConversationPresence($input: PutAgentPresenceInput!) { putConversationPresence(input: $input) { ${CONVERSATION_AGENT} } }`,
      body: putPresenceInput,
      example: { status: 'ONLINE' },
      variables: ({ body }) => ({ input: body }),
    }),
    route({
      method: 'GET',
      path: '/v1/conversations/assignable-team-users',
      summary: 'List assignable team users',
      description: `Who conversations can be assigned to: active members who can work conversations, with presence, open load, limit and whether routing may assign to them now (available) (${INBOX_REACH}; conversations:read)`,
      operation: operation`query AssignableTeamUsers { assignableTeamUsers { ${CONVERSATION_AGENT} } }`,
    }),

    // ---- canned responses ----
    route({
      method: 'GET',
      path: CANNED,
      summary: 'List canned responses',
      description: `The team's canned responses (content templates with usage type CANNED_RESPONSE, authored at /v1/content-templates), by name, with how often each was used: q, limit 1-100 (default 25), offset (${INBOX_REACH}; conversations:read)`,
      operation: operation`query ConversationCannedResponses($limit: Int, $offset: Int, $q: String) { conversationCannedResponses(limit: $limit, offset: $offset, q: $q) { nodes { ${CANNED_RESPONSE} } pagination { ${PAGINATION} } } }`,
      query: cannedQuery,
      variables: ({ query }) => query as Record<string, unknown>,
      respond: respond.page,
    }),
    updateOne({
      method: 'POST',
      path: `${CANNED}/{cannedResponseSimplyId}/use`,
      summary: 'Use a canned response',
      description: `{ conversationSimplyId, post?, channel? }: the text with its merge tags filled from the conversation's linked record (the fields you may read), counted as a use; with post: true also posted to the conversation as your message (${INBOX_REACH} at edit level; conversations:write)`,
      name: 'UseConversationCannedResponse',
      inputType: 'UseCannedResponseInput',
      body: useCannedInput,
      example: { conversationSimplyId: 'cnv-7QK2-MX4P-9HRT' },
      select: CANNED_RESPONSE_USE,
    }),
  ],
  {
    [`GET ${RULE}`]: { reason: 'reads one assignment rule of the documented collection' },
    [`PUT ${RULE}`]: { reason: 'changes one assignment rule of the documented collection' },
    [`DELETE ${RULE}`]: { reason: 'deletes one assignment rule of the documented collection' },
    [`GET ${POLICY}`]: { reason: 'reads one SLA policy of the documented collection' },
    [`PUT ${POLICY}`]: { reason: 'changes one SLA policy of the documented collection' },
    [`DELETE ${POLICY}`]: { reason: 'deletes one SLA policy of the documented collection' },
    ['GET /v1/conversations/{conversationSimplyId}/sla']: { reason: 'the SLA state of a conversation for REST clients (GraphQL reads it as the conversation’s sla field)' },
  },
);
