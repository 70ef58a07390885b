// The statements of form submissions (ConversationFormSubmission): the claim of a run's completion
// event, the conversation a submission threads into, and the fields a team role hides (read, as
// people.sql.ts reads roles for the inbox's reach). The run's answers come from the wizards area.
import type pg from 'pg';
import { OPEN_STATUSES } from './routing-people.sql.ts';
import { big } from './sql-helpers.ts';

export interface FormClaim {
  teamId: bigint;
  eventId: string;
  dataWizardInstanceSimplyId: string;
  dataWizardSimplyId: string;
  dataRecordId: bigint;
}

/** Claims the run for a message: the claim's id, or null when it was claimed before (the event handed on again). */
export async function claimFormSubmission(db: pg.PoolClient, c: FormClaim): Promise<bigint | null> {
  const { rows } = await db.query(
    `INSERT INTO "ConversationFormSubmission" ("teamId", "eventId", "dataWizardInstanceSimplyId", "dataWizardSimplyId", "dataRecordId")
     VALUES ($1, $2, $3, $4, $5) ON CONFLICT ("teamId", "dataWizardInstanceSimplyId") DO NOTHING RETURNING id`,
    [c.teamId, c.eventId, c.dataWizardInstanceSimplyId, c.dataWizardSimplyId, c.dataRecordId],
  );
  return rows[0] ? big(rows[0].id) : null;
}

export async function settleFormSubmission(db: pg.PoolClient, teamId: bigint, id: bigint, conversationId: bigint, messageId: bigint): Promise<void> {
  await db.query(`UPDATE "ConversationFormSubmission" SET "conversationId" = $3, "messageId" = $4 WHERE "teamId" = $1 AND id = $2`, [teamId, id, conversationId, messageId]);
}

/**
 * The open conversation the record's earlier submissions of the wizard went to, followed through
 * merges to the conversation it reads in now: the most recently active one that is live and OPEN,
 * PENDING or ESCALATED. Null: a new conversation.
 */
export async function openFormConversation(db: pg.PoolClient, teamId: bigint, dataRecordId: bigint, dataWizardSimplyId: string): Promise<bigint | null> {
  const { rows } = await db.query(
    `WITH RECURSIVE up(id) AS (
       SELECT s."conversationId" FROM "ConversationFormSubmission" s
        WHERE s."teamId" = $1 AND s."dataRecordId" = $2 AND s."dataWizardSimplyId" = $3 AND s."conversationId" IS NOT NULL
       UNION
       SELECT c."mergedIntoId" FROM "Conversation" c JOIN up ON c.id = up.id WHERE c."teamId" = $1 AND c."mergedIntoId" IS NOT NULL
     )
     SELECT c.id FROM "Conversation" c JOIN up ON c.id = up.id
      WHERE c."teamId" = $1 AND c."mergedIntoId" IS NULL AND c.status = ANY($4::text[])
      ORDER BY c."lastMessageAt" DESC, c.id DESC LIMIT 1`,
    [teamId, dataRecordId, dataWizardSimplyId, OPEN_STATUSES],
  );
  return rows[0] ? big(rows[0].id) : null;
}

/** The fields some team role may not read (field permission NONE). */
export async function fieldsHiddenByRoles(db: pg.PoolClient, teamId: bigint): Promise<Set<string>> {
  const { rows } = await db.query(`SELECT DISTINCT "dataFieldSimplyId" FROM "TeamRoleFieldPermission" WHERE "teamId" = $1 AND level = 'NONE'`, [teamId]);
  return new Set(rows.map((r) => r.dataFieldSimplyId as string));
}
