// The team's agents as routing sees them: who can work conversations (a team admin, or a role with
// one of the three conversation features), their presence, limit and open load, in one statement.
// Open load: conversations assigned to them that are OPEN, PENDING or ESCALATED and not merged,
// counted live (no stored counter can drift from the conversations it counts).
import { INBOX_ALL_FEATURE, INBOX_FEATURE, TABLE_FEATURE } from './conversation-access.ts';
import { activeMembers } from './people.sql.ts';
import { ROUTING_LIMITS } from './routing.input.ts';
import { big, type Db } from './sql-helpers.ts';

export const OPEN_STATUSES = ['OPEN', 'PENDING', 'ESCALATED'] as const;
const WORK_FEATURES = [TABLE_FEATURE, INBOX_FEATURE, INBOX_ALL_FEATURE];

/** The users of `simplyIds` who are active members able to work conversations: simplyId → user id. */
export async function workingMemberIds(db: Db, teamId: bigint, simplyIds: readonly string[]): Promise<Map<string, bigint>> {
  const members = await activeMembers(db, teamId, [...new Set(simplyIds)]);
  return new Map(
    [...members].filter(([, m]) => m.isTeamAdmin || WORK_FEATURES.some((f) => m.features.has(f))).map(([simplyId, m]) => [simplyId, m.userId]),
  );
}

export interface AgentRow {
  userId: bigint;
  userSimplyId: string;
  firstName: string;
  lastName: string;
  email: string;
  teamRoleId: bigint | null;
  /** ONLINE, AWAY or OFFLINE as stored (ONLINE with a stale heartbeat reads OFFLINE: `online` says which) */
  status: string;
  online: boolean;
  lastHeartbeatAt: Date | null;
  lastAssignedAt: Date | null;
  /** the agent's own limit, or the default */
  maxOpenConversations: number;
  limitIsDefault: boolean;
  openConversations: number;
}

/**
 * The team's active members who can work conversations (of `userIds` or `teamRoleId` when given),
 * with presence, limit and open load.
 */
export async function teamAgents(db: Db, teamId: bigint, only: { userIds?: readonly bigint[]; teamRoleId?: bigint | null } = {}): Promise<AgentRow[]> {
  const { rows } = await db.query(
    `SELECT u.id AS "userId", u."simplyId" AS "userSimplyId", u."firstName", u."lastName", u.email, tm."teamRoleId", tm."isTeamAdmin",
            coalesce(r."featurePermissions", '[]'::jsonb) AS features, coalesce(p.status, 'OFFLINE') AS status,
            (p.status = 'ONLINE' AND p."lastHeartbeatAt" > now() - make_interval(secs => $4)) IS TRUE AS online,
            p."lastHeartbeatAt", p."lastAssignedAt", p."maxOpenConversations",
            (SELECT count(*)::int FROM "Conversation" c
              WHERE c."teamId" = tm."teamId" AND c."assignedUserId" = u.id AND c.status = ANY($5::text[]) AND c."mergedIntoId" IS NULL) AS "openConversations"
       FROM "TeamMembership" tm
       JOIN "User" u ON u.id = tm."userId" AND u."isActive"
       LEFT JOIN "TeamRole" r ON r."teamId" = tm."teamId" AND r.id = tm."teamRoleId"
       LEFT JOIN "ConversationAgentPresence" p ON p."teamId" = tm."teamId" AND p."userId" = u.id
      WHERE tm."teamId" = $1 AND tm."isActive"
        AND ($2::bigint[] IS NULL OR u.id = ANY($2::bigint[]) OR tm."teamRoleId" = $3)
      ORDER BY u.id`,
    [
      teamId,
      only.userIds === undefined && only.teamRoleId == null ? null : (only.userIds ?? []).map(String),
      only.teamRoleId ?? null,
      ROUTING_LIMITS.presenceWindowSeconds,
      OPEN_STATUSES,
    ],
  );
  return rows
    .filter((r) => r.isTeamAdmin || (r.features as { name: string }[]).some((f) => WORK_FEATURES.includes(f.name)))
    .map((r) => ({
      userId: big(r.userId),
      userSimplyId: r.userSimplyId,
      firstName: r.firstName,
      lastName: r.lastName,
      email: r.email,
      teamRoleId: r.teamRoleId === null ? null : big(r.teamRoleId),
      status: r.status,
      online: r.online,
      lastHeartbeatAt: r.lastHeartbeatAt,
      lastAssignedAt: r.lastAssignedAt,
      maxOpenConversations: r.maxOpenConversations ?? ROUTING_LIMITS.defaultAgentLimit,
      limitIsDefault: r.maxOpenConversations === null,
      openConversations: r.openConversations,
    }));
}

/** Open conversations per agent that were routed to them by `ruleId` (the rule's "inbox" load). */
export async function ruleLoads(db: Db, teamId: bigint, ruleId: bigint, userIds: readonly bigint[]): Promise<Map<bigint, number>> {
  if (userIds.length === 0) return new Map();
  const { rows } = await db.query(
    `SELECT c."assignedUserId" AS "userId", count(*)::int AS n
       FROM "ConversationRouting" r JOIN "Conversation" c ON c."teamId" = r."teamId" AND c.id = r."conversationId"
      WHERE r."teamId" = $1 AND r."ruleId" = $2 AND c."assignedUserId" = ANY($3::bigint[]) AND c.status = ANY($4::text[]) AND c."mergedIntoId" IS NULL
      GROUP BY 1`,
    [teamId, ruleId, userIds.map(String), OPEN_STATUSES],
  );
  return new Map(rows.map((r) => [big(r.userId), r.n as number]));
}
