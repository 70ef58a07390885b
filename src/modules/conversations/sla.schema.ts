// GraphQL face of SLA policies and of a conversation's SLA state (docs/api/conversations.md "SLA").
// Policies are the supervisors' (DATA_CONVERSATION_INBOX_VIEW_ALL); the state is a field of the
// conversation types (one loader statement per request, whatever the page holds) and, for REST,
// GET /v1/conversations/{id}/sla.
import { tier } from '../../app/auth/tiers.ts';
import { builder } from '../../app/builder.ts';
import { ALL } from './conversation-access.ts';
import { ConversationRef, InboxConversationRef } from './conversations.schema.ts';
import { visibleConversation } from './conversations.service.ts';
import { SLA_CLOCKS } from './routing.input.ts';
import { SUPERVISOR_READ, SUPERVISOR_WRITE } from './routing.schema.ts';
import { changePolicy, conversationSla, createPolicy, getPolicy, listPolicies, removePolicy, type PolicyRow, type SlaState } from './sla-policies.service.ts';
import type { ClockState } from './sla-state.ts';

const SlaClockEnum = builder.enumType('SlaClock', { values: SLA_CLOCKS });

const PolicyRef = builder.objectRef<PolicyRow>('ConversationSlaPolicy').implement({
  description: 'Response and resolution targets per priority, in business minutes of the policy’s time zone.',
  fields: (t) => ({
    id: t.string({ resolve: (p) => p.simplyId }),
    slaPolicySimplyId: t.string({ resolve: (p) => p.simplyId }),
    name: t.string({ resolve: (p) => p.name }),
    description: t.string({ nullable: true, resolve: (p) => p.description }),
    isDefault: t.boolean({ description: 'followed by conversations whose rule names no policy', resolve: (p) => p.isDefault }),
    timeZone: t.string({ resolve: (p) => p.timeZone }),
    targets: t.field({ type: 'JSON', description: '{ LOW|NORMAL|HIGH|URGENT: { firstResponseMinutes, nextResponseMinutes, resolutionMinutes } }', resolve: (p) => p.targets }),
    businessHours: t.field({ type: 'JSON', description: '[{ weekday 1-7, start "HH:MM", end "HH:MM" }]; empty: around the clock', resolve: (p) => p.businessHours }),
    holidays: t.stringList({ resolve: (p) => p.holidays }),
    warningPercent: t.int({ resolve: (p) => p.warningPercent }),
    createdAt: t.field({ type: 'DateTime', resolve: (p) => p.createdAt }),
    updatedAt: t.field({ type: 'DateTime', resolve: (p) => p.updatedAt }),
  }),
});

const ClockRef = builder.objectRef<ClockState>('ConversationSlaClock').implement({
  fields: (t) => ({
    clock: t.field({ type: SlaClockEnum, resolve: (c) => c.clock }),
    targetMinutes: t.int({ description: 'business minutes', resolve: (c) => c.targetMinutes }),
    startedAt: t.field({ type: 'DateTime', resolve: (c) => c.startedAt }),
    dueAt: t.field({ type: 'DateTime', nullable: true, resolve: (c) => c.dueAt }),
    warnAt: t.field({ type: 'DateTime', nullable: true, resolve: (c) => c.warnAt }),
    metAt: t.field({ type: 'DateTime', nullable: true, resolve: (c) => c.metAt }),
    running: t.boolean({ resolve: (c) => c.running }),
    breached: t.boolean({ resolve: (c) => c.breached }),
  }),
});

const clockOf = (s: SlaState, clock: string) => s.clocks.find((c) => c.clock === clock) ?? null;

const SlaStateRef = builder.objectRef<SlaState>('ConversationSla').implement({
  description: 'The SLA a conversation follows and its clocks now.',
  fields: (t) => ({
    slaPolicyId: t.string({ resolve: (s) => s.policy.simplyId }),
    slaPolicyName: t.string({ resolve: (s) => s.policy.name }),
    firstResponseDueAt: t.field({ type: 'DateTime', nullable: true, resolve: (s) => clockOf(s, 'FIRST_RESPONSE')?.dueAt ?? null }),
    firstResponseBreached: t.boolean({ resolve: (s) => clockOf(s, 'FIRST_RESPONSE')?.breached ?? false }),
    nextResponseDueAt: t.field({ type: 'DateTime', nullable: true, description: 'while a visitor’s message awaits an answer', resolve: (s) => clockOf(s, 'NEXT_RESPONSE')?.dueAt ?? null }),
    nextResponseBreached: t.boolean({ resolve: (s) => clockOf(s, 'NEXT_RESPONSE')?.breached ?? false }),
    resolutionDueAt: t.field({ type: 'DateTime', nullable: true, resolve: (s) => clockOf(s, 'RESOLUTION')?.dueAt ?? null }),
    resolutionBreached: t.boolean({ resolve: (s) => clockOf(s, 'RESOLUTION')?.breached ?? false }),
    breached: t.boolean({ description: 'any clock breached', resolve: (s) => s.clocks.some((c) => c.breached) }),
    clocks: t.field({ type: [ClockRef], resolve: (s) => s.clocks }),
  }),
});

builder.objectField(ConversationRef, 'sla', (t) =>
  t.field({ type: SlaStateRef, nullable: true, description: 'the SLA it follows and its clocks (null: none)', resolve: (c, _a, ctx) => conversationSla(ctx, c) }),
);
builder.objectField(InboxConversationRef, 'sla', (t) =>
  t.field({ type: SlaStateRef, nullable: true, description: 'the SLA it follows and its clocks (null: none)', resolve: (c, _a, ctx) => conversationSla(ctx, c) }),
);

const PolicyInput = (name: string, required: boolean) =>
  builder.inputType(name, {
    fields: (t) => ({
      name: t.string({ required }),
      description: t.string(),
      isDefault: t.boolean(),
      timeZone: t.string({ description: 'IANA, e.g. Europe/Berlin; default UTC' }),
      targets: t.field({ type: 'JSON', required }),
      businessHours: t.field({ type: 'JSON' }),
      holidays: t.stringList(),
      warningPercent: t.int({ description: '1-99, default 80' }),
    }),
  });
const CreatePolicyInput = PolicyInput('CreateSlaPolicyInput', true);
const UpdatePolicyInput = PolicyInput('UpdateSlaPolicyInput', false);
const given = (input: object) => Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));

builder.queryFields((t) => ({
  conversationSlaPolicies: t.field({ type: [PolicyRef], authScopes: SUPERVISOR_READ, resolve: (_r, _a, ctx) => listPolicies(ctx) }),
  conversationSlaPolicy: t.field({ type: PolicyRef, authScopes: SUPERVISOR_READ, args: { slaPolicySimplyId: t.arg.string({ required: true }) }, resolve: (_r, a, ctx) => getPolicy(ctx, a.slaPolicySimplyId) }),
  conversationSla: t.field({
    type: SlaStateRef,
    nullable: true,
    description: 'The SLA state of one conversation (null: it follows no policy).',
    authScopes: tier.standardScopedFeature('conversations:read', 'DATA_CONVERSATIONS_VIEW', 'VIEW'),
    args: { conversationSimplyId: t.arg.string({ required: true }) },
    resolve: async (_r, a, ctx) => conversationSla(ctx, await visibleConversation(ctx, a.conversationSimplyId, ALL)),
  }),
}));

builder.mutationFields((t) => ({
  createConversationSlaPolicy: t.field({ type: PolicyRef, authScopes: SUPERVISOR_WRITE, args: { input: t.arg({ type: CreatePolicyInput, required: true }) }, resolve: (_r, a, ctx) => createPolicy(ctx, given(a.input)) }),
  updateConversationSlaPolicy: t.field({
    type: PolicyRef,
    authScopes: SUPERVISOR_WRITE,
    args: { slaPolicySimplyId: t.arg.string({ required: true }), input: t.arg({ type: UpdatePolicyInput, required: true }) },
    resolve: (_r, a, ctx) => changePolicy(ctx, a.slaPolicySimplyId, given(a.input)),
  }),
  deleteConversationSlaPolicy: t.boolean({ authScopes: SUPERVISOR_WRITE, args: { slaPolicySimplyId: t.arg.string({ required: true }) }, resolve: (_r, a, ctx) => removePolicy(ctx, a.slaPolicySimplyId) }),
}));
