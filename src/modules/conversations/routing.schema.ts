// GraphQL face of assignment rules, presence and assignable agents (docs/api/conversations.md
// "Routing and staffing"). REST: rest-adapter/routes/conversations/routing.ts. Rules are the
// supervisors' (DATA_CONVERSATION_INBOX_VIEW_ALL: view level reads, edit level writes); presence and
// the agent list are for anyone with inbox reach (the service checks either inbox feature).
import { tier } from '../../app/auth/tiers.ts';
import { builder } from '../../app/builder.ts';
import { INBOX_ALL_FEATURE } from './conversation-access.ts';
import { ACTION_TYPES, PRESENCE_STATUSES } from './routing.input.ts';
import { changeRule, createRule, getRule, listRules, removeRule, reorderRules, type RuleRow } from './routing-rules.service.ts';
import { assignableTeamUsers, listPresence, putPresence, shownStatus, type AgentRow } from './presence.service.ts';

export const SUPERVISOR_READ = tier.standardScopedFeature('conversations:read', INBOX_ALL_FEATURE, 'VIEW');
export const SUPERVISOR_WRITE = tier.standardScopedFeature('conversations:write', INBOX_ALL_FEATURE, 'EDIT');
const READ = tier.standardScoped('conversations:read');
const WRITE = tier.standardScoped('conversations:write');

const ActionTypeEnum = builder.enumType('AssignmentRuleAction', {
  description: 'POOL: balanced among the pool’s present agents; AGENT: one named agent; AI: the assistant answers; UNASSIGNED: left unassigned',
  values: ACTION_TYPES,
});
const PresenceStatusEnum = builder.enumType('AgentPresenceStatus', { values: PRESENCE_STATUSES });

const RuleRef = builder.objectRef<RuleRow>('ConversationAssignmentRule').implement({
  description: 'An assignment rule: conditions (all must hold) and an action; the first matching rule (by position) wins.',
  fields: (t) => ({
    id: t.string({ resolve: (r) => r.simplyId }),
    assignmentRuleSimplyId: t.string({ resolve: (r) => r.simplyId }),
    name: t.string({ resolve: (r) => r.name }),
    position: t.int({ description: '1-based order: rules are tried in it', resolve: (r) => r.position }),
    isEnabled: t.boolean({ resolve: (r) => r.isEnabled }),
    conditions: t.field({ type: 'JSON', description: '{ channels?, priorities?, subject?: { contains | startsWith }, record?: { dataCollectionSimplyId, filters } }', resolve: (r) => r.conditions }),
    actionType: t.field({ type: ActionTypeEnum, resolve: (r) => r.actionType }),
    poolUserIds: t.stringList({ description: 'POOL: the agents’ user simplyIds', resolve: (r) => r.poolUserSimplyIds }),
    poolTeamRoleId: t.string({ nullable: true, description: 'POOL: a team role whose members are in the pool', resolve: (r) => r.poolTeamRoleSimplyId }),
    agentUserId: t.string({ nullable: true, description: 'AGENT: the agent', resolve: (r) => r.agentUserSimplyId }),
    maxOpenPerAgent: t.int({ nullable: true, description: 'POOL: at most this many open conversations per agent routed by this rule', resolve: (r) => r.maxOpenPerAgent }),
    slaPolicyId: t.string({ nullable: true, description: 'the SLA policy its conversations follow (else the team’s default)', resolve: (r) => r.slaPolicySimplyId }),
    createdAt: t.field({ type: 'DateTime', resolve: (r) => r.createdAt }),
    updatedAt: t.field({ type: 'DateTime', resolve: (r) => r.updatedAt }),
  }),
});

const AgentRef = builder.objectRef<AgentRow>('ConversationAgent').implement({
  description: 'A team member who can work conversations: presence, open load and limit.',
  fields: (t) => ({
    userSimplyId: t.string({ resolve: (a) => a.userSimplyId }),
    firstName: t.string({ resolve: (a) => a.firstName }),
    lastName: t.string({ resolve: (a) => a.lastName }),
    email: t.string({ resolve: (a) => a.email }),
    status: t.field({ type: PresenceStatusEnum, description: 'ONLINE only with a heartbeat within 60 s', resolve: (a) => shownStatus(a) as never }),
    online: t.boolean({ resolve: (a) => a.online }),
    lastHeartbeatAt: t.field({ type: 'DateTime', nullable: true, resolve: (a) => a.lastHeartbeatAt }),
    openConversations: t.int({ description: 'assigned OPEN, PENDING or ESCALATED conversations', resolve: (a) => a.openConversations }),
    maxOpenConversations: t.int({ description: 'the limit of automatic assignment', resolve: (a) => a.maxOpenConversations }),
    limitIsDefault: t.boolean({ resolve: (a) => a.limitIsDefault }),
    available: t.boolean({ description: 'online and under the limit: routing may assign to them now', resolve: (a) => a.online && a.openConversations < a.maxOpenConversations }),
    lastAssignedAt: t.field({ type: 'DateTime', nullable: true, resolve: (a) => a.lastAssignedAt }),
  }),
});

const RuleInput = (name: string, required: boolean) =>
  builder.inputType(name, {
    fields: (t) => ({
      name: t.string({ required }),
      isEnabled: t.boolean(),
      conditions: t.field({ type: 'JSON' }),
      actionType: t.string({ required, description: ACTION_TYPES.join(', ') }),
      poolUserIds: t.stringList(),
      poolTeamRoleId: t.string(),
      agentUserId: t.string(),
      maxOpenPerAgent: t.int(),
      slaPolicyId: t.string(),
      ...(required ? { position: t.int({ description: '1-based; default last' }) } : {}),
    }),
  });
const CreateRuleInput = RuleInput('CreateAssignmentRuleInput', true);
const UpdateRuleInput = RuleInput('UpdateAssignmentRuleInput', false);
const ReorderRulesInput = builder.inputType('ReorderAssignmentRulesInput', { fields: (t) => ({ orderedRuleSimplyIds: t.stringList({ required: true }) }) });
const PresenceInput = builder.inputType('PutAgentPresenceInput', {
  fields: (t) => ({
    status: t.string({ description: PRESENCE_STATUSES.join(', ') }),
    userSimplyId: t.string({ description: 'another agent (supervisors)' }),
    maxOpenConversations: t.int({ description: 'the agent’s limit (supervisors); null: the default' }),
  }),
});

/** GraphQL input objects carry explicit nulls for what was not given: only what the caller named. */
const given = (input: object) => Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));

builder.queryFields((t) => ({
  conversationAssignmentRules: t.field({ type: [RuleRef], description: 'The team’s assignment rules in order.', authScopes: SUPERVISOR_READ, resolve: (_r, _a, ctx) => listRules(ctx) }),
  conversationAssignmentRule: t.field({
    type: RuleRef,
    authScopes: SUPERVISOR_READ,
    args: { assignmentRuleSimplyId: t.arg.string({ required: true }) },
    resolve: (_r, a, ctx) => getRule(ctx, a.assignmentRuleSimplyId),
  }),
  conversationPresence: t.field({ type: [AgentRef], description: 'The team’s agents and their presence.', authScopes: READ, resolve: (_r, _a, ctx) => listPresence(ctx) }),
  assignableTeamUsers: t.field({ type: [AgentRef], description: 'Who conversations can be assigned to: load, presence and limit.', authScopes: READ, resolve: (_r, _a, ctx) => assignableTeamUsers(ctx) }),
}));

builder.mutationFields((t) => ({
  createConversationAssignmentRule: t.field({
    type: RuleRef,
    authScopes: SUPERVISOR_WRITE,
    args: { input: t.arg({ type: CreateRuleInput, required: true }) },
    resolve: (_r, a, ctx) => createRule(ctx, given(a.input)),
  }),
  updateConversationAssignmentRule: t.field({
    type: RuleRef,
    authScopes: SUPERVISOR_WRITE,
    args: { assignmentRuleSimplyId: t.arg.string({ required: true }), input: t.arg({ type: UpdateRuleInput, required: true }) },
    resolve: (_r, a, ctx) => changeRule(ctx, a.assignmentRuleSimplyId, given(a.input)),
  }),
  deleteConversationAssignmentRule: t.boolean({
    authScopes: SUPERVISOR_WRITE,
    args: { assignmentRuleSimplyId: t.arg.string({ required: true }) },
    resolve: (_r, a, ctx) => removeRule(ctx, a.assignmentRuleSimplyId),
  }),
  reorderConversationAssignmentRules: t.field({
    type: [RuleRef],
    authScopes: SUPERVISOR_WRITE,
    args: { input: t.arg({ type: ReorderRulesInput, required: true }) },
    resolve: (_r, a, ctx) => reorderRules(ctx, a.input),
  }),
  putConversationPresence: t.field({
    type: AgentRef,
    description: 'Set your presence (a heartbeat keeps you ONLINE: send one at least every 60 s), or, as a supervisor, another agent’s status or limit.',
    authScopes: WRITE,
    args: { input: t.arg({ type: PresenceInput, required: true }) },
    resolve: (_r, a, ctx) => putPresence(ctx, given(a.input)),
  }),
}));
