// What the SLA clocks of several conversations are computed from, in one statement: the
// conversation's times, its policy, and the visitor's first message after the team's latest reply.
import { big, type Db } from './sql-helpers.ts';
import type { SlaFacts } from './sla-state.ts';

export interface SlaFactsRow extends SlaFacts {
  conversationId: bigint;
  teamId: bigint;
  policyId: bigint;
  simplyId: string;
  assignedUserId: bigint | null;
  assignedUserSimplyId: string | null;
}

export async function slaFacts(db: Db, teamId: bigint, conversationIds: readonly bigint[]): Promise<Map<bigint, SlaFactsRow>> {
  if (conversationIds.length === 0) return new Map();
  const { rows } = await db.query(
    `SELECT c.id AS "conversationId", c."teamId", s."policyId", c."simplyId", c."assignedUserId", u."simplyId" AS "assignedUserSimplyId",
            c."createdAt", c.priority, c.status, c."firstResponseAt", c."resolvedAt", c."mergedIntoId",
            (SELECT min(m."createdAt") FROM "ConversationMessage" m
              WHERE m."teamId" = c."teamId" AND m."conversationId" = c.id AND m."authorType" = 'END_USER'
                AND m."createdAt" > coalesce((SELECT max(a."createdAt") FROM "ConversationMessage" a
                                               WHERE a."teamId" = c."teamId" AND a."conversationId" = c.id
                                                 AND a."authorType" IN ('AGENT', 'AI') AND a.channel <> 'INTERNAL_NOTE'), '-infinity')) AS "awaitingSince"
       FROM "ConversationSla" s JOIN "Conversation" c ON c."teamId" = s."teamId" AND c.id = s."conversationId"
       LEFT JOIN "User" u ON u.id = c."assignedUserId"
      WHERE s."teamId" = $1 AND s."conversationId" = ANY($2::bigint[])`,
    [teamId, conversationIds.map(String)],
  );
  return new Map(
    rows.map((r) => [
      big(r.conversationId),
      { ...r, conversationId: big(r.conversationId), teamId: big(r.teamId), policyId: big(r.policyId), assignedUserId: r.assignedUserId === null ? null : big(r.assignedUserId), mergedIntoId: r.mergedIntoId === null ? null : big(r.mergedIntoId) } as SlaFactsRow,
    ]),
  );
}
