// Keeps the analytics rollups (conversation-analytics.prisma) in step with the conversations, in
// the transaction of the change itself (docs/api/conversations.md "Analytics"). The hooks:
//
//   trackConversationCreated   conversations.sql.ts insertConversation (API, email, widget)
//   trackConversationChanged   conversations.sql.ts updateConversation (every status, assignee or
//                              merge change, whichever service or job makes it)
//   trackFirstResponse         messages.sql.ts insertMessage, the first agent (or AI) reply
//   trackSlaOutcomes           sla-check.ts, when a clock is met or breached
//
// Each reads the conversation's ConversationAnalyticsState row (locked) and moves or undoes exactly
// what it counted before, so the rollups never count a conversation twice: a conversation's
// resolution is counted once, at its latest resolution (a reopen takes it back out, resolving
// again counts it at the new time). A conversation without a state row (a simulated widget
// preview) is never counted.
import type pg from 'pg';
import { bucketOf, METRIC } from './analytics-buckets.ts';
import type { ConversationRow } from './conversations.sql.ts';
import type { ClockState } from './sla-state.ts';

const NOBODY = 0n;
const FINISHED = ['RESOLVED', 'CLOSED'];

/** The team's analytics time zone: its default SLA policy's (its business hours), else UTC. */
export const teamZoneSql = (team: string) =>
  `coalesce((SELECT p."timeZone" FROM "ConversationSlaPolicy" p WHERE p."teamId" = ${team} AND p."isDefault" ORDER BY p.id LIMIT 1), 'UTC')`;

const STATUS_COLUMNS: Record<string, DayCounter> = {
  OPEN: 'statusOpen',
  PENDING: 'statusPending',
  ESCALATED: 'statusEscalated',
  RESOLVED: 'statusResolved',
  CLOSED: 'statusClosed',
  MERGED: 'statusMerged',
};
export const DAY_COUNTERS = [
  'statusOpen',
  'statusPending',
  'statusEscalated',
  'statusResolved',
  'statusClosed',
  'statusMerged',
  'assigned',
  'firstResponses',
  'resolutions',
  'firstResponseMet',
  'firstResponseBreached',
  'resolutionMet',
  'resolutionBreached',
] as const;
type DayCounter = (typeof DAY_COUNTERS)[number];

const formatters = new Map<string, Intl.DateTimeFormat>();

/** YYYY-MM-DD of `at` in `zone`. */
export function dayIn(zone: string, at: Date): string {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' });
    formatters.set(zone, f);
  }
  return f.format(at);
}

const seconds = (from: Date, to: Date) => Math.max(0, (to.getTime() - from.getTime()) / 1000);

/** The deltas one change makes to day rows and histogram buckets, written in two statements in key order (writers of the same rows queue, never deadlock among themselves). */
class Deltas {
  private readonly days = new Map<string, { day: string; channel: string; agent: string } & Partial<Record<DayCounter, number>>>();
  private readonly buckets = new Map<string, { day: string; channel: string; agent: string; metric: number; bucket: number; n: number }>();

  day(day: string, channel: string, agent: bigint, counter: DayCounter, n: number): void {
    const key = `${day}|${channel}|${agent}`;
    const row = this.days.get(key) ?? { day, channel, agent: String(agent) };
    row[counter] = (row[counter] ?? 0) + n;
    this.days.set(key, row);
  }

  bucket(day: string, channel: string, agent: bigint, metric: number, bucket: number, n: number): void {
    const key = `${day}|${channel}|${agent}|${metric}|${bucket}`;
    const row = this.buckets.get(key) ?? { day, channel, agent: String(agent), metric, bucket, n: 0 };
    row.n += n;
    this.buckets.set(key, row);
  }

  async write(db: pg.PoolClient, teamId: bigint): Promise<void> {
    const days = [...this.days.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, r]) => r);
    if (days.length) {
      const columns = DAY_COUNTERS.map((c) => `"${c}"`).join(', ');
      await db.query(
        `INSERT INTO "ConversationAnalyticsDay" ("teamId", day, channel, "agentUserId", ${columns})
         SELECT $1, d.day, d.channel, d.agent, ${DAY_COUNTERS.map((c) => `coalesce(d."${c}", 0)`).join(', ')}
           FROM jsonb_to_recordset($2::jsonb) AS d(day date, channel text, agent bigint, ${DAY_COUNTERS.map((c) => `"${c}" int`).join(', ')})
         ON CONFLICT ("teamId", day, channel, "agentUserId") DO UPDATE SET ${DAY_COUNTERS.map((c) => `"${c}" = "ConversationAnalyticsDay"."${c}" + EXCLUDED."${c}"`).join(', ')}`,
        [teamId, JSON.stringify(days)],
      );
    }
    const buckets = [...this.buckets.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, r]) => r);
    if (buckets.length) {
      await db.query(
        `INSERT INTO "ConversationAnalyticsBucket" ("teamId", day, channel, "agentUserId", metric, bucket, count)
         SELECT $1, d.day, d.channel, d.agent, d.metric, d.bucket, d.n
           FROM jsonb_to_recordset($2::jsonb) AS d(day date, channel text, agent bigint, metric smallint, bucket smallint, n int)
         ON CONFLICT ("teamId", day, channel, "agentUserId", metric, bucket) DO UPDATE SET count = "ConversationAnalyticsBucket".count + EXCLUDED.count`,
        [teamId, JSON.stringify(buckets)],
      );
    }
  }
}

interface State {
  createdDay: string;
  channel: string;
  agentUserId: bigint;
  status: string;
  firstResponseAt: Date | null;
  resolvedAt: Date | null;
  resolvedDay: string | null;
  resolvedAgentUserId: bigint | null;
  resolutionBucket: number | null;
  slaFirstResponse: string | null;
  slaResolution: string | null;
  slaResolutionDay: string | null;
  slaResolutionAgentUserId: bigint | null;
  zone: string;
}

async function lockState(db: pg.PoolClient, teamId: bigint, conversationId: bigint): Promise<State | null> {
  const { rows } = await db.query(
    `SELECT s.*, to_char(s."createdDay", 'YYYY-MM-DD') AS "createdDay", to_char(s."resolvedDay", 'YYYY-MM-DD') AS "resolvedDay",
            to_char(s."slaResolutionDay", 'YYYY-MM-DD') AS "slaResolutionDay", ${teamZoneSql('$1')} AS zone
       FROM "ConversationAnalyticsState" s WHERE s."teamId" = $1 AND s."conversationId" = $2 FOR UPDATE`,
    [teamId, conversationId],
  );
  const r = rows[0];
  if (!r) return null;
  return {
    ...r,
    agentUserId: BigInt(r.agentUserId),
    resolvedAgentUserId: r.resolvedAgentUserId === null ? null : BigInt(r.resolvedAgentUserId),
    slaResolutionAgentUserId: r.slaResolutionAgentUserId === null ? null : BigInt(r.slaResolutionAgentUserId),
  } as State;
}

async function saveState(db: pg.PoolClient, teamId: bigint, conversationId: bigint, changes: Partial<Record<string, unknown>>): Promise<void> {
  const entries = Object.entries(changes);
  if (!entries.length) return;
  await db.query(
    `UPDATE "ConversationAnalyticsState" SET ${entries.map(([column], i) => `"${column}" = $${i + 3}`).join(', ')} WHERE "teamId" = $1 AND "conversationId" = $2`,
    [teamId, conversationId, ...entries.map(([, v]) => (typeof v === 'bigint' ? String(v) : v))],
  );
}

/**
 * A new conversation: counted OPEN on its creation day, unless it is a simulated widget preview
 * (created by a simulated visitor: it gets no state row, so no later change counts it either).
 */
export async function trackConversationCreated(db: pg.PoolClient, row: ConversationRow, createdBy: { kind: string; id: string | null }): Promise<void> {
  await db.query(
    `WITH s AS (
       INSERT INTO "ConversationAnalyticsState" ("teamId", "conversationId", "createdDay", channel, "agentUserId", status)
       SELECT $1, $2, ($3::timestamptz AT TIME ZONE ${teamZoneSql('$1')})::date, $4, $5, $6
        WHERE NOT ($7::text = 'WIDGET_VISITOR' AND EXISTS (
                SELECT 1 FROM "ConversationWidgetVisitor" v WHERE v."teamId" = $1 AND v."simplyId" = $8 AND v."isSimulated"))
       RETURNING "createdDay"
     )
     INSERT INTO "ConversationAnalyticsDay" ("teamId", day, channel, "agentUserId", "${STATUS_COLUMNS[row.status] ?? 'statusOpen'}")
     SELECT $1, s."createdDay", $4, $5, 1 FROM s
     ON CONFLICT ("teamId", day, channel, "agentUserId") DO UPDATE
       SET "${STATUS_COLUMNS[row.status] ?? 'statusOpen'}" = "ConversationAnalyticsDay"."${STATUS_COLUMNS[row.status] ?? 'statusOpen'}" + 1`,
    [row.teamId, row.id, row.createdAt, row.channel, String(row.assignedUserId ?? NOBODY), row.status, createdBy.kind, createdBy.id],
  );
}

/** A conversation as it is after a change: moves its status count, counts a new assignment, counts or takes back its resolution. */
export async function trackConversationChanged(db: pg.PoolClient, row: ConversationRow): Promise<void> {
  const s = await lockState(db, row.teamId, row.id);
  if (!s) return;
  const deltas = new Deltas();
  const changes: Record<string, unknown> = {};
  const agent = row.assignedUserId ?? NOBODY;
  const status = row.mergedIntoId !== null ? 'MERGED' : row.status;
  const now = new Date();

  if (status !== s.status || agent !== s.agentUserId) {
    deltas.day(s.createdDay, s.channel, s.agentUserId, STATUS_COLUMNS[s.status] ?? 'statusOpen', -1);
    deltas.day(s.createdDay, s.channel, agent, STATUS_COLUMNS[status] ?? 'statusOpen', 1);
    Object.assign(changes, { status, agentUserId: agent });
  }
  if (agent !== s.agentUserId && agent !== NOBODY) deltas.day(dayIn(s.zone, now), s.channel, agent, 'assigned', 1);

  // the latest resolution is the one counted: a reopen (resolvedAt cleared) takes it back out
  const resolvedAt = FINISHED.includes(row.status) ? row.resolvedAt : null;
  if ((resolvedAt?.getTime() ?? null) !== (s.resolvedAt?.getTime() ?? null)) {
    if (s.resolvedAt !== null && s.resolvedDay !== null) {
      const was = s.resolvedAgentUserId ?? NOBODY;
      deltas.day(s.resolvedDay, s.channel, was, 'resolutions', -1);
      deltas.bucket(s.resolvedDay, s.channel, was, METRIC.RESOLUTION, s.resolutionBucket ?? 0, -1);
    }
    if (resolvedAt !== null) {
      const day = dayIn(s.zone, resolvedAt);
      const bucket = bucketOf(seconds(row.createdAt, resolvedAt));
      deltas.day(day, s.channel, agent, 'resolutions', 1);
      deltas.bucket(day, s.channel, agent, METRIC.RESOLUTION, bucket, 1);
      Object.assign(changes, { resolvedAt, resolvedDay: day, resolvedAgentUserId: agent, resolutionBucket: bucket });
    } else Object.assign(changes, { resolvedAt: null, resolvedDay: null, resolvedAgentUserId: null, resolutionBucket: null });
  }
  await deltas.write(db, row.teamId);
  await saveState(db, row.teamId, row.id, changes);
}

/**
 * An agent's (or the AI's) message to the visitor, just inserted: the conversation's first one is
 * its first response, counted once, for the conversation's assignee, or the member who replied
 * when it has none.
 */
export async function trackFirstResponse(db: pg.PoolClient, teamId: bigint, conversationId: bigint, reply: { createdAt: Date; authorUserId: bigint | null }): Promise<void> {
  const s = await lockState(db, teamId, conversationId);
  if (!s || s.firstResponseAt !== null) return;
  const { rows } = await db.query(`SELECT "createdAt", "assignedUserId" FROM "Conversation" WHERE "teamId" = $1 AND id = $2`, [teamId, conversationId]);
  if (!rows[0]) return;
  const agent = rows[0].assignedUserId !== null ? BigInt(rows[0].assignedUserId) : (reply.authorUserId ?? NOBODY);
  const day = dayIn(s.zone, reply.createdAt);
  const deltas = new Deltas();
  deltas.day(day, s.channel, agent, 'firstResponses', 1);
  deltas.bucket(day, s.channel, agent, METRIC.FIRST_RESPONSE, bucketOf(seconds(rows[0].createdAt, reply.createdAt)), 1);
  await deltas.write(db, teamId);
  await saveState(db, teamId, conversationId, { firstResponseAt: reply.createdAt });
}

/** What a clock says of its SLA target: MET (stopped in time), BREACHED (stopped late, or running past its due time), or nothing yet. */
function outcomeOf(clock: ClockState | undefined): 'MET' | 'BREACHED' | null {
  if (!clock || clock.dueAt === null) return null;
  if (clock.breached) return 'BREACHED';
  return clock.metAt !== null ? 'MET' : null;
}

/**
 * The SLA outcomes of a conversation's clocks as the SLA check just computed them. First
 * response: counted once, final. Resolution: follows the latest resolution (a reopen takes a MET
 * back out; a breach stays a breach, as the clock keeps running from creation).
 */
export async function trackSlaOutcomes(db: pg.PoolClient, teamId: bigint, conversationId: bigint, clocks: readonly ClockState[], assignedUserId: bigint | null): Promise<void> {
  const firstClock = clocks.find((c) => c.clock === 'FIRST_RESPONSE');
  const resolutionClock = clocks.find((c) => c.clock === 'RESOLUTION');
  if (!firstClock && !resolutionClock) return;
  const first = outcomeOf(firstClock);
  const resolution = outcomeOf(resolutionClock);
  const s = await lockState(db, teamId, conversationId);
  if (!s) return;
  const deltas = new Deltas();
  const changes: Record<string, unknown> = {};
  const agent = assignedUserId ?? NOBODY;
  if (first !== null && s.slaFirstResponse === null && firstClock) {
    const at = first === 'MET' ? firstClock.metAt! : firstClock.dueAt!;
    deltas.day(dayIn(s.zone, at), s.channel, agent, first === 'MET' ? 'firstResponseMet' : 'firstResponseBreached', 1);
    changes.slaFirstResponse = first;
  }
  if (resolution !== s.slaResolution && !(s.slaResolution === 'BREACHED' && resolution === null)) {
    if (s.slaResolution !== null && s.slaResolutionDay !== null) {
      deltas.day(s.slaResolutionDay, s.channel, s.slaResolutionAgentUserId ?? NOBODY, s.slaResolution === 'MET' ? 'resolutionMet' : 'resolutionBreached', -1);
    }
    if (resolution !== null && resolutionClock) {
      const day = dayIn(s.zone, resolution === 'MET' ? resolutionClock.metAt! : resolutionClock.dueAt!);
      deltas.day(day, s.channel, agent, resolution === 'MET' ? 'resolutionMet' : 'resolutionBreached', 1);
      Object.assign(changes, { slaResolution: resolution, slaResolutionDay: day, slaResolutionAgentUserId: agent });
    } else Object.assign(changes, { slaResolution: null, slaResolutionDay: null, slaResolutionAgentUserId: null });
  }
  await deltas.write(db, teamId);
  await saveState(db, teamId, conversationId, changes);
}
