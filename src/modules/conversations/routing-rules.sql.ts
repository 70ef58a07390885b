// The statements of assignment rules (their own table; users, roles and SLA policies joined by id
// within the team for their simplyIds). Writers of one team's rules take the team's rule lock, so
// positions stay 1..n without gaps whatever runs at once.
import type pg from 'pg';
import { big, bigOrNull, type Db } from './sql-helpers.ts';
import type { ActionType, RuleConditions } from './routing.input.ts';

export interface RuleRow {
  id: bigint;
  simplyId: string;
  teamId: bigint;
  name: string;
  position: number;
  isEnabled: boolean;
  conditions: RuleConditions;
  actionType: ActionType;
  poolUserIds: bigint[];
  poolUserSimplyIds: string[];
  poolTeamRoleId: bigint | null;
  poolTeamRoleSimplyId: string | null;
  agentUserId: bigint | null;
  agentUserSimplyId: string | null;
  maxOpenPerAgent: number | null;
  slaPolicyId: bigint | null;
  slaPolicySimplyId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

const RULE_SELECT = `SELECT r.id, r."simplyId", r."teamId", r.name, r.position, r."isEnabled", r.conditions, r."actionType", r."poolUserIds",
    coalesce((SELECT array_agg(u."simplyId" ORDER BY p.ord) FROM unnest(r."poolUserIds") WITH ORDINALITY p(uid, ord) JOIN "User" u ON u.id = p.uid), '{}') AS "poolUserSimplyIds",
    r."poolTeamRoleId", tr."simplyId" AS "poolTeamRoleSimplyId", r."agentUserId", au."simplyId" AS "agentUserSimplyId", r."maxOpenPerAgent",
    r."slaPolicyId", sp."simplyId" AS "slaPolicySimplyId", r."createdAt", r."updatedAt"
  FROM "ConversationAssignmentRule" r
  LEFT JOIN "TeamRole" tr ON tr."teamId" = r."teamId" AND tr.id = r."poolTeamRoleId"
  LEFT JOIN "User" au ON au.id = r."agentUserId"
  LEFT JOIN "ConversationSlaPolicy" sp ON sp."teamId" = r."teamId" AND sp.id = r."slaPolicyId"`;

function ruleOf(r: Record<string, unknown>): RuleRow {
  return {
    ...(r as unknown as RuleRow),
    id: big(r.id),
    teamId: big(r.teamId),
    poolUserIds: (r.poolUserIds as string[]).map(BigInt),
    poolTeamRoleId: bigOrNull(r.poolTeamRoleId),
    agentUserId: bigOrNull(r.agentUserId),
    slaPolicyId: bigOrNull(r.slaPolicyId),
  };
}

/** Writers of the team's rules take turns (positions are rewritten as a whole). */
export async function lockTeamRules(db: pg.PoolClient, teamId: bigint): Promise<void> {
  await db.query(`SELECT pg_advisory_xact_lock(hashtextextended('conversations.rules:' || $1::text, 0))`, [teamId]);
}

export async function teamRules(db: Db, teamId: bigint): Promise<RuleRow[]> {
  const { rows } = await db.query(`${RULE_SELECT} WHERE r."teamId" = $1 ORDER BY r.position, r.id`, [teamId]);
  return rows.map(ruleOf);
}

export async function findRule(db: Db, teamId: bigint, simplyId: string): Promise<RuleRow | null> {
  const { rows } = await db.query(`${RULE_SELECT} WHERE r."teamId" = $1 AND r."simplyId" = $2`, [teamId, simplyId]);
  return rows[0] ? ruleOf(rows[0]) : null;
}

export interface RuleValues {
  name: string;
  isEnabled: boolean;
  conditions: RuleConditions;
  actionType: ActionType;
  poolUserIds: bigint[];
  poolTeamRoleId: bigint | null;
  agentUserId: bigint | null;
  maxOpenPerAgent: number | null;
  slaPolicyId: bigint | null;
}

/** Inserts the rule at `position` (1-based, at most count + 1), moving the later ones down. */
export async function insertRule(db: pg.PoolClient, teamId: bigint, simplyId: string, position: number, v: RuleValues, actor: { kind: string; id: string | null }): Promise<void> {
  await db.query(`UPDATE "ConversationAssignmentRule" SET position = position + 1 WHERE "teamId" = $1 AND position >= $2`, [teamId, position]);
  await db.query(
    `INSERT INTO "ConversationAssignmentRule" ("simplyId", "teamId", name, position, "isEnabled", conditions, "actionType", "poolUserIds", "poolTeamRoleId",
       "agentUserId", "maxOpenPerAgent", "slaPolicyId", "createdByKind", "createdById", "updatedAt")
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8::bigint[], $9, $10, $11, $12, $13, $14, now())`,
    [simplyId, teamId, v.name, position, v.isEnabled, JSON.stringify(v.conditions), v.actionType, v.poolUserIds.map(String), v.poolTeamRoleId, v.agentUserId, v.maxOpenPerAgent, v.slaPolicyId, actor.kind, actor.id],
  );
}

export async function updateRule(db: pg.PoolClient, teamId: bigint, id: bigint, v: RuleValues): Promise<void> {
  await db.query(
    `UPDATE "ConversationAssignmentRule" SET name = $3, "isEnabled" = $4, conditions = $5, "actionType" = $6, "poolUserIds" = $7::bigint[], "poolTeamRoleId" = $8,
       "agentUserId" = $9, "maxOpenPerAgent" = $10, "slaPolicyId" = $11, "updatedAt" = now()
     WHERE "teamId" = $1 AND id = $2`,
    [teamId, id, v.name, v.isEnabled, JSON.stringify(v.conditions), v.actionType, v.poolUserIds.map(String), v.poolTeamRoleId, v.agentUserId, v.maxOpenPerAgent, v.slaPolicyId],
  );
}

/** Deletes the rule and closes the gap it leaves. */
export async function deleteRule(db: pg.PoolClient, teamId: bigint, id: bigint, position: number): Promise<void> {
  await db.query(`DELETE FROM "ConversationAssignmentRule" WHERE "teamId" = $1 AND id = $2`, [teamId, id]);
  await db.query(`UPDATE "ConversationAssignmentRule" SET position = position - 1 WHERE "teamId" = $1 AND position > $2`, [teamId, position]);
}

/** Positions 1..n in the order of `ids`. */
export async function setRuleOrder(db: pg.PoolClient, teamId: bigint, ids: readonly bigint[]): Promise<void> {
  await db.query(
    `UPDATE "ConversationAssignmentRule" r SET position = o.ord, "updatedAt" = now()
       FROM unnest($2::bigint[]) WITH ORDINALITY o(id, ord) WHERE r."teamId" = $1 AND r.id = o.id`,
    [teamId, ids.map(String)],
  );
}

/** The team's role of that simplyId, or null. */
export async function findTeamRole(db: Db, teamId: bigint, simplyId: string): Promise<bigint | null> {
  const { rows } = await db.query(`SELECT id FROM "TeamRole" WHERE "teamId" = $1 AND "simplyId" = $2`, [teamId, simplyId]);
  return rows[0] ? big(rows[0].id) : null;
}
