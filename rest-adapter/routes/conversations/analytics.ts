// Conversation analytics → src/modules/conversations/analytics.schema.ts (docs/api/conversations.md
// "Analytics"): DATA_CONVERSATIONS_VIEW and DATA_CONVERSATION_INBOX_VIEW_ALL, both at view level;
// scoped tokens conversations:read. A static path: it is matched before /v1/conversations/{conversationSimplyId}.
import { z } from 'zod';
import { operation } from '../../../src/app/graphql/fragments.ts';
import { CONVERSATION_ANALYTICS } from '../../../src/modules/conversations/analytics.fragments.ts';
import { ANALYTICS_LIMITS, GRANULARITIES, isoDate } from '../../../src/modules/conversations/analytics.input.ts';
import { channelSchema, CONVERSATION_CHANNELS } from '../../../src/modules/conversations/conversations.input.ts';
import { defineRoutes, route } from '../../route.ts';

/** empty counts as absent */
const optional = <T extends z.ZodType<unknown, string>>(schema: T) => z.preprocess((v) => (v === '' ? undefined : v), schema.optional());

const analyticsQuery = z.strictObject({
  from: optional(isoDate).describe(`first day (YYYY-MM-DD, the team's zone); default ${ANALYTICS_LIMITS.defaultRangeDays - 1} days before to`),
  to: optional(isoDate).describe(`last day (YYYY-MM-DD), included; default today; the range is at most ${ANALYTICS_LIMITS.maxRangeDays} days`),
  channel: optional(channelSchema).describe(`one origin channel: ${CONVERSATION_CHANNELS.join(', ')}`),
  assignedUserId: optional(z.string()).describe("only this agent's conversations (a user simplyId)"),
  granularity: optional(z.enum(GRANULARITIES, { message: `must be one of ${GRANULARITIES.join(', ')}` })).describe('day or week: conversations created per period in series'),
});
type AnalyticsQuery = z.output<typeof analyticsQuery>;

export const conversationAnalyticsRoutes = defineRoutes([
  route<Record<string, string>, AnalyticsQuery>({
    method: 'GET',
    path: '/v1/conversations/analytics',
    summary: 'Conversation analytics',
    description: `The team's conversations over a range of days (DATA_CONVERSATIONS_VIEW and DATA_CONVERSATION_INBOX_VIEW_ALL; conversations:read): volumes by channel and status, created per day or week, first response and resolution times (p50, p90, p95 in seconds), SLA hit rates and a per-agent table; simulated widget previews left out`,
    operation: operation`query ConversationAnalytics($from: String, $to: String, $channel: String, $assignedUserId: String, $granularity: String) {
      conversationAnalytics(from: $from, to: $to, channel: $channel, assignedUserId: $assignedUserId, granularity: $granularity) { ${CONVERSATION_ANALYTICS} } }`,
    query: analyticsQuery,
    variables: ({ query: q }) => q,
  }),
]);
