// The statements of the analytics report: sums over the daily rollups of a range (never the
// conversations or messages themselves), and the open conversations per agent now. Every
// statement names the team; the day rows are read by their key's (teamId, day) prefix.
import { METRIC } from './analytics-buckets.ts';
import { DAY_COUNTERS, teamZoneSql } from './analytics-track.ts';
import { big, Params, type Db } from './sql-helpers.ts';

export interface ReportFilter {
  teamId: bigint;
  from: string;
  to: string;
  channel: string | null;
  /** an agent's user id; -1: a user who is nobody of the team (matches nothing); null: every agent */
  agentUserId: bigint | null;
}

export type DayCounters = Record<(typeof DAY_COUNTERS)[number], number>;

export interface CounterRow extends DayCounters {
  channel: string;
  agentUserId: bigint;
}

/** The team's analytics time zone, and the user id of `userSimplyId` when they are a member of the team (-1 when not). */
export async function reportContext(db: Db, teamId: bigint, userSimplyId: string | null): Promise<{ zone: string; agentUserId: bigint | null }> {
  const { rows } = await db.query(
    `SELECT ${teamZoneSql('$1')} AS zone,
            (SELECT u.id FROM "User" u JOIN "TeamMembership" m ON m."userId" = u.id AND m."teamId" = $1 WHERE u."simplyId" = $2) AS "agentUserId"`,
    [teamId, userSimplyId],
  );
  return { zone: rows[0].zone, agentUserId: userSimplyId === null ? null : rows[0].agentUserId === null ? -1n : big(rows[0].agentUserId) };
}

function whereOf(f: ReportFilter, params: Params, alias: string): string {
  const conditions = [`${alias}."teamId" = ${params.add(f.teamId)}`, `${alias}.day BETWEEN ${params.add(f.from)}::date AND ${params.add(f.to)}::date`];
  if (f.channel !== null) conditions.push(`${alias}.channel = ${params.add(f.channel)}`);
  if (f.agentUserId !== null) conditions.push(`${alias}."agentUserId" = ${params.add(f.agentUserId)}`);
  return conditions.join(' AND ');
}

/** The range's counters per channel and agent. */
export async function counterRows(db: Db, f: ReportFilter): Promise<CounterRow[]> {
  const params = new Params();
  const where = whereOf(f, params, 'd');
  const { rows } = await db.query(
    `SELECT d.channel, d."agentUserId", ${DAY_COUNTERS.map((c) => `sum(d."${c}")::int AS "${c}"`).join(', ')}
       FROM "ConversationAnalyticsDay" d WHERE ${where} GROUP BY 1, 2`,
    params.values,
  );
  return rows.map((r) => ({ ...r, agentUserId: big(r.agentUserId) }));
}

/** Conversations created per day of the range (days without any left out). */
export async function createdPerDay(db: Db, f: ReportFilter): Promise<Map<string, number>> {
  const params = new Params();
  const where = whereOf(f, params, 'd');
  const { rows } = await db.query(
    `SELECT to_char(d.day, 'YYYY-MM-DD') AS day,
            sum(d."statusOpen" + d."statusPending" + d."statusEscalated" + d."statusResolved" + d."statusClosed" + d."statusMerged")::int AS n
       FROM "ConversationAnalyticsDay" d WHERE ${where} GROUP BY 1`,
    params.values,
  );
  return new Map(rows.map((r) => [r.day as string, r.n as number]));
}

export interface BucketRow {
  agentUserId: bigint;
  metric: number;
  bucket: number;
  count: number;
}

/** The range's histograms, summed per agent. */
export async function bucketRows(db: Db, f: ReportFilter): Promise<BucketRow[]> {
  const params = new Params();
  const where = whereOf(f, params, 'b');
  const { rows } = await db.query(
    `SELECT b."agentUserId", b.metric, b.bucket, sum(b.count)::int AS count
       FROM "ConversationAnalyticsBucket" b WHERE ${where} AND b.metric IN (${METRIC.FIRST_RESPONSE}, ${METRIC.RESOLUTION})
      GROUP BY 1, 2, 3 HAVING sum(b.count) > 0`,
    params.values,
  );
  return rows.map((r) => ({ agentUserId: big(r.agentUserId), metric: Number(r.metric), bucket: Number(r.bucket), count: r.count }));
}

/** Open (OPEN, PENDING, ESCALATED) conversations per assignee now, whenever they were created (within the channel and agent filters). */
export async function openNow(db: Db, f: Pick<ReportFilter, 'teamId' | 'channel' | 'agentUserId'>): Promise<Map<bigint, number>> {
  const params = new Params();
  const conditions = [`s."teamId" = ${params.add(f.teamId)}`, `s.status IN ('OPEN', 'PENDING', 'ESCALATED')`, `s."agentUserId" <> 0`];
  if (f.channel !== null) conditions.push(`s.channel = ${params.add(f.channel)}`);
  if (f.agentUserId !== null) conditions.push(`s."agentUserId" = ${params.add(f.agentUserId)}`);
  const { rows } = await db.query(`SELECT s."agentUserId", count(*)::int AS n FROM "ConversationAnalyticsState" s WHERE ${conditions.join(' AND ')} GROUP BY 1`, params.values);
  return new Map(rows.map((r) => [big(r.agentUserId), r.n as number]));
}

export interface AgentPerson {
  userId: bigint;
  userSimplyId: string;
  firstName: string;
  lastName: string;
  email: string;
}

export async function agentPeople(db: Db, userIds: readonly bigint[]): Promise<Map<bigint, AgentPerson>> {
  if (!userIds.length) return new Map();
  const { rows } = await db.query(`SELECT id, "simplyId", "firstName", "lastName", email FROM "User" WHERE id = ANY($1::bigint[])`, [userIds.map(String)]);
  return new Map(rows.map((r) => [big(r.id), { userId: big(r.id), userSimplyId: r.simplyId, firstName: r.firstName, lastName: r.lastName, email: r.email }]));
}
