// The suppression list in SQL: each row with the simplyIds of the mail that caused it and of the
// composed message that mail belonged to, so the list shows both without numeric ids.
import type pg from 'pg';

export interface SuppressionRow {
  address: string;
  reason: string;
  createdAt: Date;
  mailSimplyId: string | null;
  outgoingMessageSimplyId: string | null;
}

export interface SuppressionFilter {
  teamId: bigint;
  /** lower-cased text the address must contain */
  search?: string | null;
  reason?: string | null;
}

const COLUMNS = `s.address, s.reason, s."createdAt", m."simplyId" AS "mailSimplyId", o."simplyId" AS "outgoingMessageSimplyId"`;

// A composed message sends one mail per recipient, so a mail belongs to at most one message.
const FROM = `"MailSuppression" s
  LEFT JOIN "MailMessage" m ON m.id = s."mailMessageId" AND m."teamId" = s."teamId"
  LEFT JOIN LATERAL (
    SELECT om."simplyId" FROM "OutgoingMessageRecipient" r JOIN "OutgoingMessage" om ON om.id = r."outgoingMessageId"
     WHERE r."teamId" = s."teamId" AND r."mailMessageId" = s."mailMessageId" LIMIT 1
  ) o ON s."mailMessageId" IS NOT NULL`;

function where(f: SuppressionFilter): { text: string; values: unknown[] } {
  const values: unknown[] = [f.teamId.toString()];
  const parts = ['s."teamId" = $1'];
  // strpos, not LIKE: the search text is taken literally (% and _ are characters of addresses)
  if (f.search) parts.push(`strpos(s.address, $${values.push(f.search)}) > 0`);
  if (f.reason) parts.push(`s.reason = $${values.push(f.reason)}`);
  return { text: parts.join(' AND '), values };
}

/** Newest first (ties by insertion order). */
export async function findSuppressionPage(db: pg.Pool | pg.PoolClient, f: SuppressionFilter, limit: number, offset: number): Promise<SuppressionRow[]> {
  const w = where(f);
  const { rows } = await db.query<SuppressionRow>(
    `SELECT ${COLUMNS} FROM ${FROM} WHERE ${w.text} ORDER BY s."createdAt" DESC, s.id DESC LIMIT ${limit} OFFSET ${offset}`,
    w.values,
  );
  return rows;
}

export async function countSuppressions(db: pg.Pool | pg.PoolClient, f: SuppressionFilter): Promise<number> {
  const w = where(f);
  const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM "MailSuppression" s WHERE ${w.text}`, w.values);
  return rows[0]!.n;
}

/** The team's row for one of the given address forms (they are alternatives for one address). */
export async function findSuppression(db: pg.Pool | pg.PoolClient, teamId: bigint, addresses: readonly string[]): Promise<SuppressionRow | null> {
  const { rows } = await db.query<SuppressionRow>(`SELECT ${COLUMNS} FROM ${FROM} WHERE s."teamId" = $1 AND s.address = ANY($2::text[]) LIMIT 1`, [
    teamId.toString(),
    addresses,
  ]);
  return rows[0] ?? null;
}

/**
 * Adds the address with reason MANUAL unless the team already has it (whatever the reason): null
 * then. A concurrent insert of the same address waits for the first and then does nothing.
 */
export async function insertManualSuppression(db: pg.Pool | pg.PoolClient, teamId: bigint, address: string): Promise<SuppressionRow | null> {
  const { rows } = await db.query<SuppressionRow>(
    `INSERT INTO "MailSuppression" ("teamId", address, reason) VALUES ($1, $2, 'MANUAL')
     ON CONFLICT ("teamId", address) DO NOTHING
     RETURNING address, reason, "createdAt", NULL::text AS "mailSimplyId", NULL::text AS "outgoingMessageSimplyId"`,
    [teamId.toString(), address],
  );
  return rows[0] ?? null;
}

/** Removes the team's row for one of the address forms; false when there was none (or a concurrent delete took it). */
export async function deleteSuppression(db: pg.Pool | pg.PoolClient, teamId: bigint, addresses: readonly string[]): Promise<boolean> {
  const { rowCount } = await db.query(`DELETE FROM "MailSuppression" WHERE "teamId" = $1 AND address = ANY($2::text[])`, [teamId.toString(), addresses]);
  return (rowCount ?? 0) > 0;
}

/** Which of the bare addresses are on the team's list, compared without case (answers them lower-cased). */
export async function suppressedAmong(db: pg.Pool | pg.PoolClient, teamId: bigint, addresses: readonly string[]): Promise<Set<string>> {
  if (addresses.length === 0) return new Set();
  const { rows } = await db.query<{ address: string }>(`SELECT address FROM "MailSuppression" WHERE "teamId" = $1 AND address = ANY($2::text[])`, [
    teamId.toString(),
    addresses.map((a) => a.toLowerCase()),
  ]);
  return new Set(rows.map((r) => r.address));
}
