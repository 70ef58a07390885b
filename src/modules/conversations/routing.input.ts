// Inputs of routing and staffing (docs/api/conversations.md "Routing and staffing", "SLA",
// "Canned responses"), shared by the REST table (validated before the operation runs) and the
// services (again, for GraphQL callers): 400 VALIDATION_ERROR naming the field.
import { z } from 'zod';
import { isTimeZone } from './sla-clock.ts';
import { CONVERSATION_CHANNELS, PRIORITIES } from './conversations.input.ts';

export const ROUTING_LIMITS = {
  rules: 100,
  ruleName: 200,
  poolUsers: 200,
  /** a subject condition's text: matched with contains / startsWith, never as a pattern */
  subjectText: 200,
  recordFilters: 25,
  defaultAgentLimit: 10,
  maxAgentLimit: 1000,
  /** an agent with a heartbeat older than this is not online, whatever their status says */
  presenceWindowSeconds: 60,
  policies: 50,
  holidays: 366,
  hoursPerPolicy: 50,
  /** a target of at most a year of business minutes */
  maxTargetMinutes: 525_600,
  cannedSearch: 128,
} as const;

export const ACTION_TYPES = ['POOL', 'AGENT', 'AI', 'UNASSIGNED'] as const;
export type ActionType = (typeof ACTION_TYPES)[number];
export const PRESENCE_STATUSES = ['ONLINE', 'AWAY', 'OFFLINE'] as const;
export const SLA_CLOCKS = ['FIRST_RESPONSE', 'NEXT_RESPONSE', 'RESOLUTION'] as const;
export type SlaClock = (typeof SLA_CLOCKS)[number];

const oneOf = <T extends readonly [string, ...string[]]>(values: T) => z.enum(values, { message: `must be one of ${values.join(', ')}` });
const id = (prefix: string, what: string) =>
  z.string({ message: `must be ${what} (${prefix}-XXXX-XXXX-XXXX)` }).regex(new RegExp(`^${prefix}-[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}$`), `must be ${what} (${prefix}-XXXX-XXXX-XXXX)`);
export const userSimplyIdSchema = id('usr', 'a user simplyId');
const roleSimplyId = id('role', 'a team role simplyId');
export const slaPolicySimplyIdSchema = id('sla', 'an SLA policy simplyId');
export const ruleSimplyIdSchema = id('car', 'an assignment rule simplyId');
const collectionSimplyId = z.string({ message: 'must be a collection simplyId (XXXX-XXXX-XXXX)' }).regex(/^[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}$/, 'must be a collection simplyId (XXXX-XXXX-XXXX)');
const text = (max: number) => z.string({ message: 'must be a string' }).trim().min(1, 'must not be blank').max(max, `at most ${max} characters`);

/**
 * A subject condition: the subject contains, or starts with, the text, without case. A plain text
 * test on purpose: a rule's pattern runs for every conversation, and a regular expression written
 * by a team member could take exponential time on a crafted subject.
 */
const subjectCondition = z
  .strictObject({ contains: text(ROUTING_LIMITS.subjectText).optional(), startsWith: text(ROUTING_LIMITS.subjectText).optional() })
  .refine((s) => (s.contains === undefined) !== (s.startsWith === undefined), { message: 'exactly one of contains, startsWith' });

const recordCondition = z.strictObject({
  dataCollectionSimplyId: collectionSimplyId,
  /** the record search filters ({ field, operator, value }), AND-ed; checked against the collection's fields */
  filters: z.array(z.unknown()).max(ROUTING_LIMITS.recordFilters, `at most ${ROUTING_LIMITS.recordFilters} filters`).optional(),
});

export const ruleConditions = z.strictObject({
  channels: z.array(oneOf(CONVERSATION_CHANNELS)).min(1, 'must name at least one channel').optional(),
  priorities: z.array(oneOf(PRIORITIES)).min(1, 'must name at least one priority').optional(),
  subject: subjectCondition.optional(),
  record: recordCondition.optional(),
});
export type RuleConditions = z.output<typeof ruleConditions>;

const ruleFields = {
  name: text(ROUTING_LIMITS.ruleName),
  isEnabled: z.boolean({ message: 'must be true or false' }),
  conditions: ruleConditions,
  actionType: oneOf(ACTION_TYPES),
  poolUserIds: z.array(userSimplyIdSchema).max(ROUTING_LIMITS.poolUsers, `at most ${ROUTING_LIMITS.poolUsers} agents`),
  poolTeamRoleId: roleSimplyId.nullable(),
  agentUserId: userSimplyIdSchema.nullable(),
  maxOpenPerAgent: z.number({ message: 'must be a whole number' }).int('must be a whole number').min(1, 'at least 1').max(ROUTING_LIMITS.maxAgentLimit, `at most ${ROUTING_LIMITS.maxAgentLimit}`).nullable(),
  slaPolicyId: slaPolicySimplyIdSchema.nullable(),
};

export const createRuleInput = z.strictObject({
  name: ruleFields.name,
  isEnabled: ruleFields.isEnabled.optional(),
  conditions: ruleFields.conditions.optional(),
  actionType: ruleFields.actionType,
  poolUserIds: ruleFields.poolUserIds.optional(),
  poolTeamRoleId: ruleFields.poolTeamRoleId.optional(),
  agentUserId: ruleFields.agentUserId.optional(),
  maxOpenPerAgent: ruleFields.maxOpenPerAgent.optional(),
  slaPolicyId: ruleFields.slaPolicyId.optional(),
  /** 1-based place among the rules; default last */
  position: z.number({ message: 'must be a whole number' }).int('must be a whole number').min(1, 'at least 1').optional(),
});
export const updateRuleInput = z
  .strictObject({
    name: ruleFields.name.optional(),
    isEnabled: ruleFields.isEnabled.optional(),
    conditions: ruleFields.conditions.optional(),
    actionType: ruleFields.actionType.optional(),
    poolUserIds: ruleFields.poolUserIds.optional(),
    poolTeamRoleId: ruleFields.poolTeamRoleId.optional(),
    agentUserId: ruleFields.agentUserId.optional(),
    maxOpenPerAgent: ruleFields.maxOpenPerAgent.optional(),
    slaPolicyId: ruleFields.slaPolicyId.optional(),
  })
  .refine((b) => Object.keys(b).length > 0, { message: 'name at least one field to change' });
export type CreateRuleInput = z.output<typeof createRuleInput>;
export type UpdateRuleInput = z.output<typeof updateRuleInput>;

export const reorderRulesInput = z.strictObject({
  orderedRuleSimplyIds: z.array(ruleSimplyIdSchema).min(1, 'must name every rule of the team, in the new order').max(ROUTING_LIMITS.rules),
});

export const putPresenceInput = z.strictObject({
  status: oneOf(PRESENCE_STATUSES).optional(),
  /** someone else's presence or limit (supervisors: DATA_CONVERSATION_INBOX_VIEW_ALL at edit level); default the caller */
  userSimplyId: userSimplyIdSchema.optional(),
  maxOpenConversations: z.number({ message: 'must be a whole number' }).int('must be a whole number').min(0, 'at least 0').max(ROUTING_LIMITS.maxAgentLimit, `at most ${ROUTING_LIMITS.maxAgentLimit}`).nullable().optional(),
});

const hhmm = z.string({ message: 'must be a time "HH:MM"' }).regex(/^(([01]\d|2[0-3]):[0-5]\d|24:00)$/, 'must be a time "HH:MM" (00:00-24:00)');
const openingHours = z
  .strictObject({ weekday: z.number({ message: 'must be 1 (Monday) to 7 (Sunday)' }).int().min(1, 'must be 1 (Monday) to 7 (Sunday)').max(7, 'must be 1 (Monday) to 7 (Sunday)'), start: hhmm, end: hhmm })
  .refine((h) => h.start < h.end, { message: 'end must be after start', path: ['end'] });
const minutes = z.number({ message: 'must be a whole number of minutes' }).int('must be a whole number of minutes').min(1, 'at least 1 minute').max(ROUTING_LIMITS.maxTargetMinutes, 'at most a year');
const target = z.strictObject({ firstResponseMinutes: minutes.nullable().optional(), nextResponseMinutes: minutes.nullable().optional(), resolutionMinutes: minutes.nullable().optional() });
export const slaTargets = z.strictObject({ LOW: target.optional(), NORMAL: target.optional(), HIGH: target.optional(), URGENT: target.optional() });
export type SlaTargets = z.output<typeof slaTargets>;
const isoDate = z
  .string({ message: 'must be a date YYYY-MM-DD' })
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD')
  .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d), 'must be a real date');
const timeZone = z.string({ message: 'must be an IANA time zone' }).max(64).refine(isTimeZone, 'must be an IANA time zone such as "UTC" or "Europe/Berlin"');

function noOverlap(hours: { weekday: number; start: string; end: string }[], ctx: z.RefinementCtx) {
  const sorted = hours.map((h, i) => ({ ...h, i })).sort((a, b) => a.weekday - b.weekday || a.start.localeCompare(b.start));
  for (let k = 1; k < sorted.length; k++) {
    const [prev, cur] = [sorted[k - 1]!, sorted[k]!];
    if (prev.weekday === cur.weekday && cur.start < prev.end) ctx.addIssue({ code: 'custom', message: 'overlaps another opening of the same weekday', path: [cur.i] });
  }
}
const businessHours = z.array(openingHours).max(ROUTING_LIMITS.hoursPerPolicy, `at most ${ROUTING_LIMITS.hoursPerPolicy} openings`).superRefine(noOverlap);

const policyFields = {
  name: text(ROUTING_LIMITS.ruleName),
  description: z.string({ message: 'must be a string' }).max(1000, 'at most 1000 characters').nullable(),
  isDefault: z.boolean({ message: 'must be true or false' }),
  timeZone,
  targets: slaTargets,
  businessHours,
  holidays: z.array(isoDate).max(ROUTING_LIMITS.holidays, `at most ${ROUTING_LIMITS.holidays} dates`),
  warningPercent: z.number({ message: 'must be a whole number' }).int('must be a whole number').min(1, 'at least 1').max(99, 'at most 99'),
};
export const createPolicyInput = z.strictObject({
  name: policyFields.name,
  description: policyFields.description.optional(),
  isDefault: policyFields.isDefault.optional(),
  timeZone: policyFields.timeZone.optional(),
  targets: policyFields.targets,
  businessHours: policyFields.businessHours.optional(),
  holidays: policyFields.holidays.optional(),
  warningPercent: policyFields.warningPercent.optional(),
});
export const updatePolicyInput = z
  .strictObject({
    name: policyFields.name.optional(),
    description: policyFields.description.optional(),
    isDefault: policyFields.isDefault.optional(),
    timeZone: policyFields.timeZone.optional(),
    targets: policyFields.targets.optional(),
    businessHours: policyFields.businessHours.optional(),
    holidays: policyFields.holidays.optional(),
    warningPercent: policyFields.warningPercent.optional(),
  })
  .refine((b) => Object.keys(b).length > 0, { message: 'name at least one field to change' });
export type CreatePolicyInput = z.output<typeof createPolicyInput>;
export type UpdatePolicyInput = z.output<typeof updatePolicyInput>;

export const listCannedInput = z.strictObject({
  q: z.string().max(ROUTING_LIMITS.cannedSearch, `at most ${ROUTING_LIMITS.cannedSearch} characters`).nullable().optional(),
  limit: z.number().int().min(1, 'must be 1-100').max(100, 'must be 1-100').nullable().optional(),
  offset: z.number().int().min(0, 'must be 0 or more').nullable().optional(),
});

export const useCannedInput = z.strictObject({
  conversationSimplyId: id('cnv', 'a conversation simplyId'),
  /** also post the rendered text to the conversation as the caller's message (default false: answer it for the composer) */
  post: z.boolean({ message: 'must be true or false' }).optional(),
  /** with post: CHAT (default), EMAIL … or INTERNAL_NOTE */
  channel: z.string().optional(),
});
