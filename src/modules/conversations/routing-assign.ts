// Balanced assignment (docs/api/conversations.md "How a conversation is assigned"). One routing
// run of a team takes the team's routing lock (a transaction-scoped advisory lock), so however many
// instances and workers run routing jobs, one team's decisions are made one batch at a time; within
// it the PENDING rows are claimed with FOR UPDATE SKIP LOCKED and each conversation is locked and
// read again before it is assigned (`assignedUserId IS NULL`, still open), and every agent's open
// load is counted live inside the lock and kept in step in memory as the batch assigns. Hence:
// never two assignments of one conversation, never an agent over a limit through routing, and the
// fewest-open-first choice sees every earlier assignment.
//
// Each PENDING conversation: its rule is decided once (the first matching rule; its SLA policy, or
// the team's default, is applied then), then
//   POOL        the eligible agents: in the pool, online (heartbeat within 60 s), under their own
//               limit and under the rule's maxOpenPerAgent; the fewest open conversations first,
//               then the longest since their last assignment, then the lowest id. None: it waits.
//   AGENT       the named agent, present or not (an owner; limits bound pools only)
//   AI          aiHandling turns true (the AI answers: ai-hooks.ts); without a model, left as UNASSIGNED
//   UNASSIGNED  left as it is
// No rule matched: UNMATCHED (left unassigned). Assigned, merged, closed or AI-handled meanwhile: SKIPPED.
import type pg from 'pg';
import type { Services } from '../../app/context.ts';
import { inTransaction } from '../../app/transaction.ts';
import { queueNotifications } from './conversation-notifications.ts';
import { publishConversationEvent } from './conversations.events.ts';
import { findConversationById, updateConversation, type ConversationRow } from './conversations.sql.ts';
import { firstMatchingRule } from './rule-match.ts';
import { OPEN_STATUSES, ruleLoads, teamAgents, type AgentRow } from './routing-people.sql.ts';
import { teamRules, type RuleRow } from './routing-rules.sql.ts';
import { applySla } from './sla-apply.ts';
import { afterHandedToAi } from './ai-hooks.ts';
import { big } from './sql-helpers.ts';

const BATCH = 100;
const SYSTEM = { kind: 'SYSTEM', id: null };

interface Pending {
  conversationId: bigint;
  ruleId: bigint | null;
  ruleDecided: boolean;
  queuedAt: Date;
}

type Outcome = 'PENDING' | 'ASSIGNED' | 'AI' | 'UNASSIGNED' | 'UNMATCHED' | 'SKIPPED';

/** The team's routing lock: one routing batch of a team at a time, over every process. */
async function lockTeamRouting(db: pg.PoolClient, teamId: bigint): Promise<void> {
  await db.query(`SELECT pg_advisory_xact_lock(hashtextextended('conversations.route:' || $1::text, 0))`, [teamId]);
}

/** The agent a pool rule hands the conversation to now, or null (nobody eligible). */
export function pickAgent(candidates: readonly AgentRow[], ruleLoad: ReadonlyMap<bigint, number>, ruleLimit: number | null): AgentRow | null {
  let best: AgentRow | null = null;
  for (const a of candidates) {
    if (!a.online || a.openConversations >= a.maxOpenConversations) continue;
    if (ruleLimit !== null && (ruleLoad.get(a.userId) ?? 0) >= ruleLimit) continue;
    if (best === null || better(a, best)) best = a;
  }
  return best;
}

function better(a: AgentRow, b: AgentRow): boolean {
  if (a.openConversations !== b.openConversations) return a.openConversations < b.openConversations;
  const ta = a.lastAssignedAt?.getTime() ?? -Infinity;
  const tb = b.lastAssignedAt?.getTime() ?? -Infinity;
  if (ta !== tb) return ta < tb;
  return a.userId < b.userId;
}

class Batch {
  agents: Map<bigint, AgentRow> | null = null;
  readonly ruleLoad = new Map<bigint, Map<bigint, number>>();
  readonly services: Services;
  readonly db: pg.PoolClient;
  readonly teamId: bigint;
  readonly teamSimplyId: string;
  readonly rules: RuleRow[];
  constructor(services: Services, db: pg.PoolClient, teamId: bigint, teamSimplyId: string, rules: RuleRow[]) {
    this.services = services;
    this.db = db;
    this.teamId = teamId;
    this.teamSimplyId = teamSimplyId;
    this.rules = rules;
  }

  async allAgents(): Promise<Map<bigint, AgentRow>> {
    this.agents ??= new Map((await teamAgents(this.db, this.teamId)).map((a) => [a.userId, a]));
    return this.agents;
  }

  async pool(rule: RuleRow): Promise<AgentRow[]> {
    const agents = await this.allAgents();
    const named = new Set(rule.poolUserIds);
    return [...agents.values()].filter((a) => named.has(a.userId) || (rule.poolTeamRoleId !== null && a.teamRoleId === rule.poolTeamRoleId));
  }

  async loadOf(rule: RuleRow, pool: AgentRow[]): Promise<Map<bigint, number>> {
    let load = this.ruleLoad.get(rule.id);
    if (!load) {
      load = rule.maxOpenPerAgent === null ? new Map() : await ruleLoads(this.db, this.teamId, rule.id, pool.map((a) => a.userId));
      this.ruleLoad.set(rule.id, load);
    }
    return load;
  }

  /** Assigns the locked, unassigned conversation to the agent and tells the agent and the subscribers. */
  async assign(c: ConversationRow, agent: AgentRow, rule: RuleRow): Promise<void> {
    const after = await updateConversation(this.db, this.teamId, c.id, { assignedUserId: agent.userId, assignedAt: new Date() });
    await this.db.query(`UPDATE "ConversationAgentPresence" SET "lastAssignedAt" = now() WHERE "teamId" = $1 AND "userId" = $2`, [this.teamId, agent.userId]);
    agent.openConversations++;
    agent.lastAssignedAt = new Date();
    const load = this.ruleLoad.get(rule.id);
    if (load) load.set(agent.userId, (load.get(agent.userId) ?? 0) + 1);
    await publishConversationEvent(this.services, this.db, {
      teamSimplyId: this.teamSimplyId,
      type: 'CONVERSATION_UPDATED',
      conversationSimplyId: after.simplyId,
      actor: SYSTEM,
      assignees: [null, agent.userSimplyId],
    });
    await queueNotifications(this.services, this.db, {
      teamId: String(this.teamId),
      conversationId: String(after.id),
      kind: 'ASSIGNMENT',
      key: `${after.simplyId}:${after.assignedAt?.toISOString()}`,
      messageId: null,
      actorUserId: null,
      recipients: [agent.userSimplyId],
    });
  }
}

async function decide(batch: Batch, p: Pending): Promise<{ outcome: Outcome; ruleId: bigint | null; decided: boolean }> {
  const c = await findConversationById(batch.db, batch.teamId, p.conversationId, { lock: true });
  if (!c || c.mergedIntoId !== null || c.assignedUserId !== null || c.aiHandling || !(OPEN_STATUSES as readonly string[]).includes(c.status)) {
    return { outcome: 'SKIPPED', ruleId: p.ruleId, decided: p.ruleDecided };
  }
  let rule = p.ruleDecided ? (batch.rules.find((r) => r.id === p.ruleId) ?? null) : null;
  if (!p.ruleDecided || (p.ruleId !== null && rule === null)) {
    // first look (or its rule was deleted since): the first matching rule, and the SLA it brings
    rule = await firstMatchingRule(batch.services, batch.rules, c);
    await applySla(batch.services, batch.db, batch.teamId, c.id, rule?.slaPolicyId ?? null);
  }
  const ruleId = rule?.id ?? null;
  if (!rule) return { outcome: 'UNMATCHED', ruleId, decided: true };
  switch (rule.actionType) {
    case 'UNASSIGNED':
      return { outcome: 'UNASSIGNED', ruleId, decided: true };
    case 'AI': {
      // without a model nobody would answer: the conversation stays with people, as UNASSIGNED leaves it
      if (!batch.services.ai) return { outcome: 'UNASSIGNED', ruleId, decided: true };
      const after = await updateConversation(batch.db, batch.teamId, c.id, { aiHandling: true });
      await afterHandedToAi(batch.services, batch.db, after);
      await publishConversationEvent(batch.services, batch.db, { teamSimplyId: batch.teamSimplyId, type: 'CONVERSATION_UPDATED', conversationSimplyId: after.simplyId, actor: SYSTEM, assignees: [null] });
      return { outcome: 'AI', ruleId, decided: true };
    }
    case 'AGENT': {
      const agent = rule.agentUserId === null ? undefined : (await batch.allAgents()).get(rule.agentUserId);
      if (!agent) return { outcome: 'PENDING', ruleId, decided: true };
      await batch.assign(c, agent, rule);
      return { outcome: 'ASSIGNED', ruleId, decided: true };
    }
    case 'POOL': {
      const pool = await batch.pool(rule);
      const agent = pickAgent(pool, await batch.loadOf(rule, pool), rule.maxOpenPerAgent);
      if (!agent) return { outcome: 'PENDING', ruleId, decided: true };
      await batch.assign(c, agent, rule);
      return { outcome: 'ASSIGNED', ruleId, decided: true };
    }
  }
}

/** One batch after `cursor`, under the team's routing lock: how many rows it read, and where it stopped. */
async function routeBatch(services: Services, teamId: bigint, cursor: { queuedAt: Date; id: bigint } | null): Promise<{ read: number; assigned: number; cursor: { queuedAt: Date; id: bigint } | null }> {
  return inTransaction(services.pool, async (db) => {
    await lockTeamRouting(db, teamId);
    const { rows } = await db.query(
      `SELECT r."conversationId", r."ruleId", r."ruleDecided", r."queuedAt" FROM "ConversationRouting" r
        WHERE r."teamId" = $1 AND r.state = 'PENDING' AND ($2::timestamptz IS NULL OR (r."queuedAt", r."conversationId") > ($2::timestamptz, $3::bigint))
        ORDER BY r."queuedAt", r."conversationId" LIMIT $4 FOR UPDATE SKIP LOCKED`,
      [teamId, cursor?.queuedAt ?? null, cursor?.id ?? 0n, BATCH],
    );
    if (rows.length === 0) return { read: 0, assigned: 0, cursor };
    const team = (await db.query(`SELECT "simplyId" FROM "Team" WHERE id = $1`, [teamId])).rows[0];
    const batch = new Batch(services, db, teamId, team.simplyId, await teamRules(db, teamId));
    let assigned = 0;
    for (const r of rows) {
      const p: Pending = { conversationId: big(r.conversationId), ruleId: r.ruleId === null ? null : big(r.ruleId), ruleDecided: r.ruleDecided, queuedAt: r.queuedAt };
      const d = await decide(batch, p);
      if (d.outcome === 'ASSIGNED') assigned++;
      await db.query(
        `UPDATE "ConversationRouting" SET state = $3, "ruleId" = $4, "ruleDecided" = $5, "decidedAt" = CASE WHEN $3 = 'PENDING' THEN NULL ELSE now() END
          WHERE "teamId" = $1 AND "conversationId" = $2`,
        [teamId, p.conversationId, d.outcome, d.ruleId, d.decided],
      );
    }
    const last = rows.at(-1)!;
    return { read: rows.length, assigned, cursor: { queuedAt: last.queuedAt, id: big(last.conversationId) } };
  });
}

/** Routes every PENDING conversation of the team once, oldest first; answers how many were assigned. */
export async function routeTeam(services: Services, teamId: bigint): Promise<number> {
  let cursor: { queuedAt: Date; id: bigint } | null = null;
  let assigned = 0;
  for (;;) {
    const result = await routeBatch(services, teamId, cursor);
    assigned += result.assigned;
    if (result.read < BATCH) return assigned;
    cursor = result.cursor;
  }
}

/** The teams with conversations waiting (the minute's sweep: an agent's capacity freed by a resolve, a heartbeat that came back). */
export async function teamsWaiting(db: pg.Pool): Promise<bigint[]> {
  const { rows } = await db.query(`SELECT DISTINCT "teamId" FROM "ConversationRouting" WHERE state = 'PENDING'`);
  return rows.map((r) => big(r.teamId));
}
