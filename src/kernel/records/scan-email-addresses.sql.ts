// The email addresses a field holds over the records a scan matches (mail to a selection of
// records): the whole match set in one statement, de-duplicated without case in the database, so
// a caller holds one entry per address rather than one per record.
import type pg from 'pg';
import { compileFilters } from './record-filters.sql.ts';
import type { RecordScan } from './record-scans.sql.ts';
import { SqlParams } from '../../db/sql-params.ts';

export interface ScannedAddresses {
  /** records the scan matches */
  matching: number;
  /** of those, records whose field holds no address */
  withoutAddress: number;
  /** one per address compared without case (the lowest record id holding it), ordered by the lower-cased address */
  addresses: { recordId: bigint; address: string }[];
}

/**
 * The addresses in the field (by simplyId) of the scan's records. An address is the field's text,
 * trimmed, where it looks like `local@domain`; anything else (no value, a list, a stray word) counts
 * as none.
 */
export async function emailAddressesInScan(db: pg.Pool | pg.PoolClient, scan: Omit<RecordScan, 'recordIds'>, fieldSimplyId: string): Promise<ScannedAddresses> {
  const sql = new SqlParams();
  const team = sql.param(scan.teamId);
  const compiled = compileFilters(scan.filters, scan.fieldsById, sql, team);
  const key = sql.param(fieldSimplyId);
  const where = [`m."teamId" = ${team}`, `m."collectionId" = ${sql.param(scan.collectionId)}`, `m.state = '${compiled.archived ? 'ARCHIVED' : 'ACTIVE'}'`, `r."deletedAt" IS NULL`, ...compiled.conditions];
  const { rows } = await db.query<{ matching: number; withoutAddress: number; ids: string[]; addresses: string[] }>(
    `WITH c AS (
       SELECT r.id, CASE WHEN json_typeof(f.v) = 'string' AND btrim(f.v #>> '{}') ~ '^[^@[:space:]]+@[^@[:space:]]+$'
                         THEN btrim(f.v #>> '{}') END AS address
         FROM "DataRecordMembership" m JOIN "DataRecord" r ON r."teamId" = m."teamId" AND r.id = m."recordId"
              -- values are json (text): the field is found in it once a row
              CROSS JOIN LATERAL (SELECT r.values -> ${key} AS v) f
        WHERE ${where.join(' AND ')}
     ),
     d AS (SELECT DISTINCT ON (lower(c.address)) c.id, c.address FROM c WHERE c.address IS NOT NULL ORDER BY lower(c.address), c.id)
     SELECT (SELECT count(*)::int FROM c) AS matching,
            (SELECT count(*)::int FROM c WHERE c.address IS NULL) AS "withoutAddress",
            (SELECT coalesce(array_agg(d.id::text ORDER BY lower(d.address)), '{}') FROM d) AS ids,
            (SELECT coalesce(array_agg(d.address ORDER BY lower(d.address)), '{}') FROM d) AS addresses`,
    sql.values,
  );
  const row = rows[0]!;
  return { matching: row.matching, withoutAddress: row.withoutAddress, addresses: row.ids.map((id, i) => ({ recordId: BigInt(id), address: row.addresses[i]! })) };
}
