// GraphQL face of conversation analytics (docs/api/conversations.md "Analytics"). REST:
// rest-adapter/routes/conversations/analytics.ts. The report is the whole team's: both
// DATA_CONVERSATIONS_VIEW and the team-wide inbox DATA_CONVERSATION_INBOX_VIEW_ALL at view level,
// conversations:read for scoped tokens, checked by the tier (so before the input).
import { tier } from '../../app/auth/tiers.ts';
import { builder } from '../../app/builder.ts';
import { INBOX_ALL_FEATURE, TABLE_FEATURE } from './conversation-access.ts';
import { ANALYTICS_LIMITS, GRANULARITIES } from './analytics.input.ts';
import { conversationAnalytics, type AgentAnalytics, type ConversationAnalytics, type DurationStats, type SlaRate } from './analytics.service.ts';

/** The tier of the analytics routes: the table's and the supervisors' reads together. */
const TABLE_READ = tier.standardScopedFeature('conversations:read', TABLE_FEATURE, 'VIEW');
const SUPERVISOR_READ = tier.standardScopedFeature('conversations:read', INBOX_ALL_FEATURE, 'VIEW');
export const ANALYTICS_READ = { $all: { ...TABLE_READ.$all, $all: SUPERVISOR_READ.$all } } as const;

const ChannelCountRef = builder.objectRef<{ channel: string; count: number }>('ConversationAnalyticsChannelCount').implement({
  fields: (t) => ({
    channel: t.string({ resolve: (c) => c.channel }),
    count: t.int({ resolve: (c) => c.count }),
  }),
});

const StatusCountRef = builder.objectRef<{ status: string; count: number }>('ConversationAnalyticsStatusCount').implement({
  fields: (t) => ({
    status: t.string({ description: 'OPEN, PENDING, RESOLVED, CLOSED, ESCALATED, or MERGED', resolve: (c) => c.status }),
    count: t.int({ resolve: (c) => c.count }),
  }),
});

const PeriodRef = builder.objectRef<{ periodStart: string; created: number }>('ConversationAnalyticsPeriod').implement({
  fields: (t) => ({
    periodStart: t.string({ description: 'the period’s first day within the range (YYYY-MM-DD)', resolve: (p) => p.periodStart }),
    created: t.int({ resolve: (p) => p.created }),
  }),
});

const DurationRef = builder.objectRef<DurationStats>('ConversationAnalyticsDuration').implement({
  description: 'Percentiles of a duration in seconds (within 4.4 %: the histogram bucket’s middle); null without any.',
  fields: (t) => ({
    count: t.int({ resolve: (d) => d.count }),
    p50: t.int({ nullable: true, resolve: (d) => d.p50 }),
    p90: t.int({ nullable: true, resolve: (d) => d.p90 }),
    p95: t.int({ nullable: true, resolve: (d) => d.p95 }),
  }),
});

const SlaRateRef = builder.objectRef<SlaRate>('ConversationAnalyticsSlaRate').implement({
  fields: (t) => ({
    met: t.int({ resolve: (r) => r.met }),
    breached: t.int({ resolve: (r) => r.breached }),
    hitRate: t.float({ nullable: true, description: 'met / (met + breached); null when neither', resolve: (r) => r.hitRate }),
  }),
});

const SlaRef = builder.objectRef<ConversationAnalytics['sla']>('ConversationAnalyticsSla').implement({
  fields: (t) => ({
    firstResponse: t.field({ type: SlaRateRef, resolve: (s) => s.firstResponse }),
    resolution: t.field({ type: SlaRateRef, resolve: (s) => s.resolution }),
  }),
});

const AgentRowRef = builder.objectRef<AgentAnalytics>('ConversationAnalyticsAgent').implement({
  fields: (t) => ({
    userSimplyId: t.string({ resolve: (a) => a.userSimplyId }),
    firstName: t.string({ resolve: (a) => a.firstName }),
    lastName: t.string({ resolve: (a) => a.lastName }),
    email: t.string({ resolve: (a) => a.email }),
    assigned: t.int({ description: 'assignments to the agent in the range', resolve: (a) => a.assigned }),
    resolved: t.int({ description: 'resolutions counted for the agent in the range', resolve: (a) => a.resolved }),
    firstResponseMedian: t.int({ nullable: true, description: 'seconds', resolve: (a) => a.firstResponseMedian }),
    resolutionMedian: t.int({ nullable: true, description: 'seconds', resolve: (a) => a.resolutionMedian }),
    openNow: t.int({ description: 'OPEN, PENDING or ESCALATED conversations assigned to the agent now', resolve: (a) => a.openNow }),
  }),
});

const AnalyticsRef = builder.objectRef<ConversationAnalytics>('ConversationAnalytics').implement({
  description: 'The team’s conversations over a range of days: volumes, response and resolution times, SLA hit rates, agents.',
  fields: (t) => ({
    from: t.string({ resolve: (a) => a.from }),
    to: t.string({ resolve: (a) => a.to }),
    timeZone: t.string({ description: 'the zone the days are counted in: the default SLA policy’s, else UTC', resolve: (a) => a.timeZone }),
    granularity: t.string({ nullable: true, resolve: (a) => a.granularity }),
    channel: t.string({ nullable: true, resolve: (a) => a.channel }),
    assignedUserId: t.string({ nullable: true, resolve: (a) => a.assignedUserId }),
    created: t.int({ description: 'conversations created in the range', resolve: (a) => a.created }),
    byChannel: t.field({ type: [ChannelCountRef], description: 'the range’s conversations by origin channel', resolve: (a) => a.byChannel }),
    byStatus: t.field({ type: [StatusCountRef], description: 'the range’s conversations by their status now (MERGED: merged into another)', resolve: (a) => a.byStatus }),
    series: t.field({ type: [PeriodRef], description: 'conversations created per period (with granularity)', resolve: (a) => a.series }),
    firstResponseTime: t.field({ type: DurationRef, resolve: (a) => a.firstResponseTime }),
    resolutionTime: t.field({ type: DurationRef, resolve: (a) => a.resolutionTime }),
    sla: t.field({ type: SlaRef, resolve: (a) => a.sla }),
    agents: t.field({ type: [AgentRowRef], resolve: (a) => a.agents }),
  }),
});

builder.queryFields((t) => ({
  conversationAnalytics: t.field({
    type: AnalyticsRef,
    description: `Conversation analytics of the team (DATA_CONVERSATIONS_VIEW and DATA_CONVERSATION_INBOX_VIEW_ALL): from/to (YYYY-MM-DD in the team’s zone; default the last ${ANALYTICS_LIMITS.defaultRangeDays} days; at most ${ANALYTICS_LIMITS.maxRangeDays}), channel, assignedUserId, granularity (${GRANULARITIES.join(', ')}).`,
    authScopes: ANALYTICS_READ,
    args: {
      from: t.arg.string(),
      to: t.arg.string(),
      channel: t.arg.string(),
      assignedUserId: t.arg.string(),
      granularity: t.arg.string(),
    },
    resolve: (_r, a, ctx) => conversationAnalytics(ctx, Object.fromEntries(Object.entries(a).filter(([, v]) => v !== undefined))),
  }),
}));
