// Which constituent an email address names in a team: a live record of one of the team's PERSON
// collections (the archetype set on the collection or inherited from its parent) whose
// EMAIL_ADDRESS field holds the address, compared without case as record filters compare it. When
// several records hold it, the oldest one is the constituent.
import type pg from 'pg';
import { prefixOf } from '../../kernel/index.ts';
import type { TeamSchema } from '../../kernel/index.ts';

export interface MatchedConstituent {
  recordId: bigint;
  recordSimplyId: string;
  /** the address as the record stores it (mail goes there) */
  address: string;
}

interface Targets {
  collectionIds: string[];
  fieldIds: string[];
}

function targetsOf(schema: TeamSchema | null): Targets {
  if (!schema) return { collectionIds: [], fieldIds: [] };
  // SMART collections show their source's records: the source itself is searched
  const people = schema.collections.filter((c) => !c.isArchived && c.type !== 'SMART' && schema.effectiveArchetype(c) === 'PERSON');
  return {
    collectionIds: people.map((c) => String(c.id)),
    fieldIds: people.flatMap((c) => c.ownFields.filter((f) => f.dataType === 'EMAIL_ADDRESS').map((f) => String(f.id))),
  };
}

/**
 * One indexed probe of the record keys. It runs for an unknown team too (no targets, team 0), so
 * that case costs the same round trip as a real one.
 */
export async function matchContact(pool: pg.Pool, teamId: bigint | null, schema: TeamSchema | null, address: string): Promise<MatchedConstituent | null> {
  const { collectionIds, fieldIds } = targetsOf(schema);
  const key = address.toLowerCase();
  const { rows } = await pool.query<{ id: string; simplyId: string; fieldId: string; values: Record<string, unknown> }>(
    `SELECT r.id, r."simplyId", k."fieldId", r.values
       FROM "DataRecordKey" k
       JOIN "DataRecord" r ON r.id = k."recordId" AND r."teamId" = k."teamId"
      WHERE k."teamId" = $1 AND k."fieldId" = ANY($2::bigint[]) AND k.prefix = $3 AND k."textKey" = $4
        AND r."deletedAt" IS NULL AND r."collectionId" = ANY($5::bigint[])
      ORDER BY r."createdAt", r.id
      LIMIT 1`,
    [String(teamId ?? 0n), fieldIds, prefixOf(key), key, collectionIds],
  );
  const row = rows[0];
  if (!row || !schema) return null;
  const field = schema.fieldsById.get(BigInt(row.fieldId));
  const stored = field ? row.values[field.dataFieldSimplyId] : undefined;
  return { recordId: BigInt(row.id), recordSimplyId: row.simplyId, address: typeof stored === 'string' ? stored : address };
}
