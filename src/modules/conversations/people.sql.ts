// The team members the area names: followers, assignees and authors as people, and what an active
// membership grants (assignable users, mention and notification recipients).
import { big, type Db } from './sql-helpers.ts';

export interface FollowerRow {
  conversationId: bigint;
  userSimplyId: string;
  firstName: string;
  lastName: string;
  email: string;
}

/** The followers of several conversations in one statement. */
export async function followersOf(db: Db, teamId: bigint, conversationIds: readonly bigint[]): Promise<FollowerRow[]> {
  if (conversationIds.length === 0) return [];
  const { rows } = await db.query(
    `SELECT f."conversationId", u."simplyId" AS "userSimplyId", u."firstName", u."lastName", u.email
       FROM "ConversationFollower" f JOIN "User" u ON u.id = f."userId"
      WHERE f."teamId" = $1 AND f."conversationId" = ANY($2::bigint[])
      ORDER BY f."createdAt", u.id`,
    [teamId, conversationIds.map(String)],
  );
  return rows.map((r) => ({ ...r, conversationId: big(r.conversationId) })) as FollowerRow[];
}

export async function follow(db: Db, teamId: bigint, conversationId: bigint, userId: bigint): Promise<void> {
  await db.query(
    `INSERT INTO "ConversationFollower" ("teamId", "conversationId", "userId") VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
    [teamId, conversationId, userId],
  );
}

export async function unfollow(db: Db, teamId: bigint, conversationId: bigint, userId: bigint): Promise<void> {
  await db.query(`DELETE FROM "ConversationFollower" WHERE "teamId" = $1 AND "conversationId" = $2 AND "userId" = $3`, [teamId, conversationId, userId]);
}

export interface PersonRow {
  id: bigint;
  userSimplyId: string;
  firstName: string;
  lastName: string;
  email: string;
}

export async function peopleById(db: Db, ids: readonly bigint[]): Promise<Map<bigint, PersonRow>> {
  if (ids.length === 0) return new Map();
  const { rows } = await db.query(`SELECT id, "simplyId" AS "userSimplyId", "firstName", "lastName", email FROM "User" WHERE id = ANY($1::bigint[])`, [ids.map(String)]);
  return new Map(rows.map((r) => [big(r.id), { ...r, id: big(r.id) } as PersonRow]));
}

export interface MemberGrants {
  userId: bigint;
  isTeamAdmin: boolean;
  /** feature permission name → VIEW or EDIT */
  features: Map<string, string>;
}

/**
 * The users of `simplyIds` (null: every one) who are active members of the team (assignees, mentions), with what
 * their membership grants: team admin, and the role's feature permissions.
 */
export async function activeMembers(db: Db, teamId: bigint, simplyIds: readonly string[] | null): Promise<Map<string, MemberGrants>> {
  if (simplyIds?.length === 0) return new Map();
  const { rows } = await db.query(
    `SELECT u.id, u."simplyId", tm."isTeamAdmin", coalesce(r."featurePermissions", '[]'::jsonb) AS features
       FROM "User" u
       JOIN "TeamMembership" tm ON tm."userId" = u.id AND tm."teamId" = $1 AND tm."isActive"
       LEFT JOIN "TeamRole" r ON r."teamId" = tm."teamId" AND r.id = tm."teamRoleId"
      WHERE ($2::text[] IS NULL OR u."simplyId" = ANY($2::text[])) AND u."isActive"`,
    [teamId, simplyIds],
  );
  return new Map(
    rows.map((r) => [
      r.simplyId as string,
      { userId: big(r.id), isTeamAdmin: r.isTeamAdmin as boolean, features: new Map((r.features as { name: string; level: string }[]).map((f) => [f.name, f.level])) },
    ]),
  );
}

