// The recipient statements: a selection's addresses (the kernel reads them over the records the
// selection's filters match, as a search would), their counts for send-readiness, and the INSERT
// that turns them into recipient rows when sending starts.
import type pg from 'pg';
import { emailAddressesInScan, type ScannedAddresses } from '../../kernel/index.ts';
import type { CompiledSelection } from './recipient-selection.ts';

/**
 * The selection's live records (ACTIVE memberships, or ARCHIVED ones when a filter asks for
 * archived records) and the distinct addresses of its email field.
 */
function addressesOf(db: pg.Pool | pg.PoolClient, teamId: bigint, selection: CompiledSelection): Promise<ScannedAddresses> {
  const scan = { teamId, collectionId: selection.collection.id, filters: selection.filters, fieldsById: new Map(selection.fields.map((f) => [f.dataFieldSimplyId, f])) };
  return emailAddressesInScan(db, scan, selection.emailField?.dataFieldSimplyId ?? '');
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
  const held = await addressesOf(db, teamId, selection);
  const { rows } = await db.query<{ suppressed: number }>(
    `SELECT count(*)::int AS suppressed FROM unnest($2::text[]) AS a(address)
      WHERE EXISTS (SELECT 1 FROM "MailSuppression" s WHERE s."teamId" = $1 AND s.address = lower(a.address))`,
    [teamId, held.addresses.map((a) => a.address)],
  );
  return { matching: held.matching, withoutAddress: held.withoutAddress, addresses: held.addresses.length, suppressed: rows[0]!.suppressed };
}

/**
 * Inserts the message's recipients: one row per distinct address (the oldest record holding it),
 * PENDING, or SUPPRESSED when the team's suppression list has the address. The unique
 * (message, record) key makes a repeated run add nobody. Answers how many rows of each state exist.
 */
export async function insertRecipients(db: pg.PoolClient, teamId: bigint, messageId: bigint, selection: CompiledSelection): Promise<{ pending: number; suppressed: number }> {
  const { addresses } = await addressesOf(db, teamId, selection);
  // in the addresses' order: batches take the rows by id, so mail goes out in that order
  await db.query(
    `INSERT INTO "OutgoingMessageRecipient" ("teamId", "outgoingMessageId", "dataRecordId", address, state)
     SELECT $1, $2, u.id, u.address,
            CASE WHEN EXISTS (SELECT 1 FROM "MailSuppression" s WHERE s."teamId" = $1 AND s.address = lower(u.address)) THEN 'SUPPRESSED' ELSE 'PENDING' END
       FROM unnest($3::bigint[], $4::text[]) WITH ORDINALITY AS u(id, address, ord)
      ORDER BY u.ord
     ON CONFLICT ("teamId", "outgoingMessageId", "dataRecordId") DO NOTHING`,
    [teamId, messageId, addresses.map((a) => String(a.recordId)), addresses.map((a) => a.address)],
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
