// GET /v1/conversations/analytics (docs/api/conversations.md "Analytics"): volumes, first response
// and resolution times, SLA hit rates and a per-agent table over a range of the team's days, all
// read from the daily rollups analytics-track.ts keeps. For supervisors: the tier
// (analytics.schema.ts) asks DATA_CONVERSATIONS_VIEW and DATA_CONVERSATION_INBOX_VIEW_ALL.
import type { RequestContext } from '../../app/context.ts';
import { ValidationError } from '../../app/errors.ts';
import { requireTeam } from '../../app/require-team.ts';
import { parseInput } from '../../app/validate.ts';
import { METRIC, percentiles } from './analytics-buckets.ts';
import { ANALYTICS_LIMITS, analyticsInput, type Granularity } from './analytics.input.ts';
import { agentPeople, bucketRows, counterRows, createdPerDay, openNow, reportContext, type AgentPerson, type ReportFilter } from './analytics-report.sql.ts';
import { dayIn } from './analytics-track.ts';
import { CONVERSATION_CHANNELS, STATUSES } from './conversations.input.ts';

export interface DurationStats {
  count: number;
  p50: number | null;
  p90: number | null;
  p95: number | null;
}

export interface SlaRate {
  met: number;
  breached: number;
  /** met / (met + breached); null when neither */
  hitRate: number | null;
}

export interface AgentAnalytics extends AgentPerson {
  assigned: number;
  resolved: number;
  firstResponseMedian: number | null;
  resolutionMedian: number | null;
  openNow: number;
}

export interface ConversationAnalytics {
  from: string;
  to: string;
  timeZone: string;
  granularity: Granularity | null;
  channel: string | null;
  assignedUserId: string | null;
  created: number;
  byChannel: { channel: string; count: number }[];
  byStatus: { status: string; count: number }[];
  series: { periodStart: string; created: number }[];
  firstResponseTime: DurationStats;
  resolutionTime: DurationStats;
  sla: { firstResponse: SlaRate; resolution: SlaRate };
  agents: AgentAnalytics[];
}

const DAY_MS = 86_400_000;
const dayNumber = (day: string) => Date.parse(`${day}T00:00:00Z`) / DAY_MS;
const dayOfNumber = (n: number) => new Date(n * DAY_MS).toISOString().slice(0, 10);
const STATUS_COUNTERS = { OPEN: 'statusOpen', PENDING: 'statusPending', RESOLVED: 'statusResolved', CLOSED: 'statusClosed', ESCALATED: 'statusEscalated', MERGED: 'statusMerged' } as const;
const rate = (met: number, breached: number): SlaRate => ({ met, breached, hitRate: met + breached === 0 ? null : met / (met + breached) });

function durations(histogram: Map<number, number>): DurationStats {
  const { count, values } = percentiles(histogram, [50, 90, 95]);
  return { count, p50: values[0] ?? null, p90: values[1] ?? null, p95: values[2] ?? null };
}

/** The range: `to` defaults to today in the team's zone, `from` to 30 days up to `to`; at most 366 days, from before to. */
function rangeOf(input: { from?: string | null; to?: string | null }, today: string): { from: string; to: string } {
  const to = input.to ?? today;
  const from = input.from ?? dayOfNumber(dayNumber(to) - (ANALYTICS_LIMITS.defaultRangeDays - 1));
  if (from > to) throw new ValidationError('Invalid analytics range', [{ field: 'from', message: 'must not be after to' }]);
  if (dayNumber(to) - dayNumber(from) + 1 > ANALYTICS_LIMITS.maxRangeDays) {
    throw new ValidationError('Invalid analytics range', [{ field: input.from ? 'from' : 'to', message: `the range from..to is at most ${ANALYTICS_LIMITS.maxRangeDays} days` }]);
  }
  return { from, to };
}

/** The periods of the range: each day, or each week (Monday to Sunday, ISO), the first and last clipped to the range; each starts at its first day in the range. */
function seriesOf(from: string, to: string, granularity: Granularity, perDay: Map<string, number>): { periodStart: string; created: number }[] {
  const series: { periodStart: string; created: number }[] = [];
  for (let n = dayNumber(from); n <= dayNumber(to); n++) {
    const day = dayOfNumber(n);
    // day 0 (1970-01-01) was a Thursday: (n + 3) % 7 is 0 on Mondays
    const startsPeriod = granularity === 'day' || n === dayNumber(from) || (n + 3) % 7 === 0;
    if (startsPeriod) series.push({ periodStart: day, created: 0 });
    series[series.length - 1]!.created += perDay.get(day) ?? 0;
  }
  return series;
}

export async function conversationAnalytics(ctx: RequestContext, raw: unknown): Promise<ConversationAnalytics> {
  const team = requireTeam(ctx);
  const input = parseInput(analyticsInput, raw, 'Invalid analytics parameters');
  const pool = ctx.services.pool;
  const { zone, agentUserId } = await reportContext(pool, team.id, input.assignedUserId ?? null);
  const { from, to } = rangeOf(input, dayIn(zone, new Date()));
  const filter: ReportFilter = { teamId: team.id, from, to, channel: input.channel ?? null, agentUserId };
  const [counters, buckets, open, perDay] = await Promise.all([
    counterRows(pool, filter),
    bucketRows(pool, filter),
    openNow(pool, filter),
    input.granularity ? createdPerDay(pool, filter) : Promise.resolve(new Map<string, number>()),
  ]);

  const sum = (rows: typeof counters, pick: (r: (typeof counters)[number]) => number) => rows.reduce((s, r) => s + pick(r), 0);
  const createdOf = (r: (typeof counters)[number]) => Object.values(STATUS_COUNTERS).reduce((s, c) => s + r[c], 0);
  const byChannel = CONVERSATION_CHANNELS.map((channel) => ({ channel, count: sum(counters.filter((r) => r.channel === channel), createdOf) }));
  const byStatus = [...STATUSES, 'MERGED' as const].map((status) => ({ status, count: sum(counters, (r) => r[STATUS_COUNTERS[status]]) }));

  const histogram = (metric: number, agent?: bigint) => {
    const h = new Map<number, number>();
    for (const b of buckets) if (b.metric === metric && (agent === undefined || b.agentUserId === agent)) h.set(b.bucket, (h.get(b.bucket) ?? 0) + b.count);
    return h;
  };

  const agentIds = [...new Set([...counters.map((r) => r.agentUserId), ...buckets.map((b) => b.agentUserId), ...open.keys()])].filter((id) => id > 0n);
  const people = await agentPeople(pool, agentIds);
  const agents = agentIds
    .filter((id) => people.has(id))
    .map((id): AgentAnalytics => {
      const mine = counters.filter((r) => r.agentUserId === id);
      return {
        ...people.get(id)!,
        assigned: sum(mine, (r) => r.assigned),
        resolved: sum(mine, (r) => r.resolutions),
        firstResponseMedian: durations(histogram(METRIC.FIRST_RESPONSE, id)).p50,
        resolutionMedian: durations(histogram(METRIC.RESOLUTION, id)).p50,
        openNow: open.get(id) ?? 0,
      };
    })
    .sort((a, b) => b.assigned - a.assigned || b.resolved - a.resolved || (a.userSimplyId < b.userSimplyId ? -1 : 1));

  return {
    from,
    to,
    timeZone: zone,
    granularity: input.granularity ?? null,
    channel: input.channel ?? null,
    assignedUserId: input.assignedUserId ?? null,
    created: sum(counters, createdOf),
    byChannel,
    byStatus,
    series: input.granularity ? seriesOf(from, to, input.granularity, perDay) : [],
    firstResponseTime: durations(histogram(METRIC.FIRST_RESPONSE)),
    resolutionTime: durations(histogram(METRIC.RESOLUTION)),
    sla: {
      firstResponse: rate(sum(counters, (r) => r.firstResponseMet), sum(counters, (r) => r.firstResponseBreached)),
      resolution: rate(sum(counters, (r) => r.resolutionMet), sum(counters, (r) => r.resolutionBreached)),
    },
    agents,
  };
}
