// The recipient statements: a selection's candidate records as SQL (the records module's filter
// compiler over memberships, as a search would run it), their counts for send-readiness, and the
// one INSERT … SELECT that turns them into recipient rows when sending starts.
import type pg from 'pg';
import { compileFilters } from '../../kernel/index.ts';
import { SqlParams } from '../../kernel/index.ts';
import type { CompiledSelection } from './recipient-selection.ts';

/**
 * `SELECT id, address` of the selection's live records (not deleted; ACTIVE memberships, or
 * ARCHIVED ones when a filter asks for archived records) with the trimmed text of the email field
 * where it looks like an address (`local@domain`), else null.
 */
function candidates(teamId: bigint, selection: CompiledSelection, sql: SqlParams): { text: string; team: string } {
  const team = sql.param(teamId);
  const fieldsById = new Map(selection.fields.map((f) => [f.dataFieldSimplyId, f]));
  const compiled = compileFilters(selection.filters, fieldsById, sql, team);
  const key = sql.param(selection.emailField?.dataFieldSimplyId ?? '');
  const where = [
    `m."teamId" = ${team}`,
    `m."collectionId" = ${sql.param(selection.collection.id)}`,
    `m.state = '${compiled.archived ? 'ARCHIVED' : 'ACTIVE'}'`,
    `r."deletedAt" IS NULL`,
    ...compiled.conditions,
  ];
  const text = `
    SELECT r.id, CASE WHEN jsonb_typeof(r.values -> ${key}) = 'string' AND btrim(r.values ->> ${key}) ~ '^[^@[:space:]]+@[^@[:space:]]+$'
                      THEN btrim(r.values ->> ${key}) END AS address
      FROM "DataRecordMembership" m JOIN "DataRecord" r ON r."teamId" = m."teamId" AND r.id = m."recordId"
     WHERE ${where.join(' AND ')}`;
  return { text, team };
}

export interface SelectionCounts {
  /** records the selection matches */
  matching: number;
  /** of those, records without a usable address */
  withoutAddress: number;
  /** distinct addresses (case-insensitive) */
  addresses: number;
  /** distinct addresses on the team's suppression list */
  suppressed: number;
}

export async function countSelection(db: pg.Pool | pg.PoolClient, teamId: bigint, selection: CompiledSelection): Promise<SelectionCounts> {
  const sql = new SqlParams();
  const { text, team } = candidates(teamId, selection, sql);
  const { rows } = await db.query<Record<keyof SelectionCounts, string>>(
    `WITH c AS (${text})
     SELECT count(*) AS matching,
            count(*) FILTER (WHERE c.address IS NULL) AS "withoutAddress",
            count(DISTINCT lower(c.address)) AS addresses,
            count(DISTINCT lower(c.address)) FILTER (WHERE EXISTS (SELECT 1 FROM "MailSuppression" s WHERE s."teamId" = ${team} AND s.address = lower(c.address))) AS suppressed
       FROM c`,
    sql.values,
  );
  const row = rows[0]!;
  return { matching: Number(row.matching), withoutAddress: Number(row.withoutAddress), addresses: Number(row.addresses), suppressed: Number(row.suppressed) };
}

/**
 * Inserts the message's recipients: one row per distinct address (the oldest record holding it),
 * PENDING, or SUPPRESSED when the team's suppression list has the address. The unique
 * (message, record) key makes a repeated run add nobody. Answers how many rows of each state exist.
 */
export async function insertRecipients(db: pg.PoolClient, teamId: bigint, messageId: bigint, selection: CompiledSelection): Promise<{ pending: number; suppressed: number }> {
  const sql = new SqlParams();
  const { text, team } = candidates(teamId, selection, sql);
  const message = sql.param(messageId);
  await db.query(
    `INSERT INTO "OutgoingMessageRecipient" ("teamId", "outgoingMessageId", "dataRecordId", address, state)
     SELECT ${team}, ${message}, c.id, c.address,
            CASE WHEN EXISTS (SELECT 1 FROM "MailSuppression" s WHERE s."teamId" = ${team} AND s.address = lower(c.address)) THEN 'SUPPRESSED' ELSE 'PENDING' END
       FROM (SELECT DISTINCT ON (lower(c.address)) c.id, c.address FROM (${text}) c WHERE c.address IS NOT NULL ORDER BY lower(c.address), c.id) c
     ON CONFLICT ("teamId", "outgoingMessageId", "dataRecordId") DO NOTHING`,
    sql.values,
  );
  return recipientStateCounts(db, teamId, messageId).then((counts) => ({ pending: counts.PENDING ?? 0, suppressed: counts.SUPPRESSED ?? 0 }));
}

/** Recipient rows of a message by state, in one grouped statement. */
export async function recipientStateCounts(db: pg.Pool | pg.PoolClient, teamId: bigint, messageId: bigint): Promise<Record<string, number>> {
  const { rows } = await db.query<{ state: string; n: string }>(
    `SELECT state, count(*) AS n FROM "OutgoingMessageRecipient" WHERE "teamId" = $1 AND "outgoingMessageId" = $2 GROUP BY state`,
    [teamId, messageId],
  );
  return Object.fromEntries(rows.map((r) => [r.state, Number(r.n)]));
}
