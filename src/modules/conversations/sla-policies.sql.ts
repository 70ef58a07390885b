// The statements of SLA policies (their own table). The team's default policy is kept unique by
// the policy writers' team lock (a partial unique index is not expressible in the Prisma schema).
import type pg from 'pg';
import type { OpeningHours } from './sla-clock.ts';
import type { SlaTargets } from './routing.input.ts';
import { big, type Db } from './sql-helpers.ts';

export interface PolicyRow {
  id: bigint;
  simplyId: string;
  teamId: bigint;
  name: string;
  description: string | null;
  isDefault: boolean;
  timeZone: string;
  targets: SlaTargets;
  businessHours: OpeningHours[];
  holidays: string[];
  warningPercent: number;
  createdAt: Date;
  updatedAt: Date;
}

const policyOf = (r: Record<string, unknown>): PolicyRow => ({ ...(r as unknown as PolicyRow), id: big(r.id), teamId: big(r.teamId) });
const COLUMNS = `id, "simplyId", "teamId", name, description, "isDefault", "timeZone", targets, "businessHours", holidays, "warningPercent", "createdAt", "updatedAt"`;

export async function lockTeamPolicies(db: pg.PoolClient, teamId: bigint): Promise<void> {
  await db.query(`SELECT pg_advisory_xact_lock(hashtextextended('conversations.sla-policies:' || $1::text, 0))`, [teamId]);
}

export async function teamPolicies(db: Db, teamId: bigint): Promise<PolicyRow[]> {
  const { rows } = await db.query(`SELECT ${COLUMNS} FROM "ConversationSlaPolicy" WHERE "teamId" = $1 ORDER BY "createdAt", id`, [teamId]);
  return rows.map(policyOf);
}

export async function findPolicy(db: Db, teamId: bigint, simplyId: string): Promise<PolicyRow | null> {
  const { rows } = await db.query(`SELECT ${COLUMNS} FROM "ConversationSlaPolicy" WHERE "teamId" = $1 AND "simplyId" = $2`, [teamId, simplyId]);
  return rows[0] ? policyOf(rows[0]) : null;
}

/** Policies by id, of any teams' (ids are the caller's own, read from rows of the team). */
export async function policiesById(db: Db, teamId: bigint, ids: readonly bigint[]): Promise<Map<bigint, PolicyRow>> {
  if (ids.length === 0) return new Map();
  const { rows } = await db.query(`SELECT ${COLUMNS} FROM "ConversationSlaPolicy" WHERE "teamId" = $1 AND id = ANY($2::bigint[])`, [teamId, [...new Set(ids)].map(String)]);
  return new Map(rows.map((r) => [big(r.id), policyOf(r)]));
}

export async function defaultPolicyId(db: Db, teamId: bigint): Promise<bigint | null> {
  const { rows } = await db.query(`SELECT id FROM "ConversationSlaPolicy" WHERE "teamId" = $1 AND "isDefault" ORDER BY id LIMIT 1`, [teamId]);
  return rows[0] ? big(rows[0].id) : null;
}

export interface PolicyValues {
  name: string;
  description: string | null;
  isDefault: boolean;
  timeZone: string;
  targets: SlaTargets;
  businessHours: OpeningHours[];
  holidays: string[];
  warningPercent: number;
}

export async function insertPolicy(db: pg.PoolClient, teamId: bigint, simplyId: string, v: PolicyValues): Promise<void> {
  if (v.isDefault) await db.query(`UPDATE "ConversationSlaPolicy" SET "isDefault" = false, "updatedAt" = now() WHERE "teamId" = $1 AND "isDefault"`, [teamId]);
  await db.query(
    `INSERT INTO "ConversationSlaPolicy" ("simplyId", "teamId", name, description, "isDefault", "timeZone", targets, "businessHours", holidays, "warningPercent", "updatedAt")
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, now())`,
    [simplyId, teamId, v.name, v.description, v.isDefault, v.timeZone, JSON.stringify(v.targets), JSON.stringify(v.businessHours), v.holidays, v.warningPercent],
  );
}

export async function updatePolicy(db: pg.PoolClient, teamId: bigint, id: bigint, v: PolicyValues): Promise<void> {
  if (v.isDefault) await db.query(`UPDATE "ConversationSlaPolicy" SET "isDefault" = false, "updatedAt" = now() WHERE "teamId" = $1 AND "isDefault" AND id <> $2`, [teamId, id]);
  await db.query(
    `UPDATE "ConversationSlaPolicy" SET name = $3, description = $4, "isDefault" = $5, "timeZone" = $6, targets = $7, "businessHours" = $8, holidays = $9, "warningPercent" = $10, "updatedAt" = now()
      WHERE "teamId" = $1 AND id = $2`,
    [teamId, id, v.name, v.description, v.isDefault, v.timeZone, JSON.stringify(v.targets), JSON.stringify(v.businessHours), v.holidays, v.warningPercent],
  );
  // every conversation following it is looked at again: its due times may have moved
  await db.query(`UPDATE "ConversationSla" SET "nextCheckAt" = now() WHERE "teamId" = $1 AND "policyId" = $2`, [teamId, id]);
}

/** Deletes the policy; rules naming it lose it, conversations following it stop following any. */
export async function deletePolicy(db: pg.PoolClient, teamId: bigint, id: bigint): Promise<void> {
  await db.query(`UPDATE "ConversationAssignmentRule" SET "slaPolicyId" = NULL, "updatedAt" = now() WHERE "teamId" = $1 AND "slaPolicyId" = $2`, [teamId, id]);
  await db.query(`DELETE FROM "ConversationSla" WHERE "teamId" = $1 AND "policyId" = $2`, [teamId, id]);
  await db.query(`DELETE FROM "ConversationSlaPolicy" WHERE "teamId" = $1 AND id = $2`, [teamId, id]);
}
