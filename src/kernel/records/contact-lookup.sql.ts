// Which record a contact value (an email address, a phone number) names. The record keys hold each
// contact field's canonical key (EMAIL_ADDRESS lower-cased, as equality filters compare it), so one
// probe of the (teamId, fieldId, prefix) index answers across several collections and fields.
import type pg from 'pg';
import type { FieldDefinition } from '../schema/team-schema.ts';
import { prefixOf } from './record-keys.ts';

export interface ContactLookup {
  /** the collections whose own records count (a SMART collection shows its source's records: pass the source) */
  collectionIds: readonly bigint[];
  /** the contact fields to search, of those collections */
  fields: readonly FieldDefinition[];
  /** the value's key as the record keys hold it */
  key: string;
}

export interface ContactHolder {
  id: bigint;
  simplyId: string;
  /** the value as the record stores it, in the field that matched */
  value: unknown;
}

/**
 * The oldest live record of the collections whose field holds the key, or null. The statement runs
 * even with nothing to search (no fields, team 0): a caller that must not reveal by its timing
 * whether a team or a field exists pays the same round trip either way.
 */
export async function findOldestContactHolder(db: pg.Pool | pg.PoolClient, teamId: bigint, lookup: ContactLookup): Promise<ContactHolder | null> {
  const { rows } = await db.query<{ id: string; simplyId: string; fieldId: string; values: Record<string, unknown> }>(
    `SELECT r.id, r."simplyId", k."fieldId", r.values
       FROM "DataRecordKey" k
       JOIN "DataRecord" r ON r.id = k."recordId" AND r."teamId" = k."teamId"
      WHERE k."teamId" = $1 AND k."fieldId" = ANY($2::bigint[]) AND k.prefix = $3 AND k."textKey" = $4
        AND r."deletedAt" IS NULL AND r."collectionId" = ANY($5::bigint[])
      ORDER BY r."createdAt", r.id
      LIMIT 1`,
    [String(teamId), lookup.fields.map((f) => String(f.id)), prefixOf(lookup.key), lookup.key, lookup.collectionIds.map(String)],
  );
  const row = rows[0];
  if (!row) return null;
  // the statement matched only these fields' keys
  const field = lookup.fields.find((f) => f.id === BigInt(row.fieldId))!;
  return { id: BigInt(row.id), simplyId: row.simplyId, value: row.values[field.dataFieldSimplyId] };
}
