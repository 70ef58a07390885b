// Which of some values records hold in given fields: how an area learns that something it owns
// (a file, by its id) is referenced from records, without reading the records.
import type pg from 'pg';

/** A field on the records created in one collection. */
export interface CollectionField {
  collectionId: bigint;
  fieldSimplyId: string;
}

/**
 * The values among `values` that a live record holds in one of `fields`, as the field's value or
 * an element of its list. One statement whatever the number of values and fields.
 */
export async function valuesHeldInFields(db: pg.Pool | pg.PoolClient, teamId: bigint, values: readonly string[], fields: readonly CollectionField[]): Promise<Set<string>> {
  if (values.length === 0 || fields.length === 0) return new Set();
  const { rows } = await db.query<{ v: string }>(
    `SELECT wanted.v
       FROM unnest($2::text[]) AS wanted(v)
      WHERE EXISTS (
        SELECT 1 FROM unnest($3::bigint[], $4::text[]) AS rf(collection_id, field_key)
          JOIN "DataRecord" r ON r."teamId" = $1 AND r."collectionId" = rf.collection_id AND r."deletedAt" IS NULL
          -- values are json (text): the field's value alone is made jsonb, to be compared
          CROSS JOIN LATERAL (SELECT (r.values -> rf.field_key)::jsonb AS held) h
         WHERE h.held = to_jsonb(wanted.v) OR h.held @> jsonb_build_array(wanted.v))`,
    [teamId, values, fields.map((f) => f.collectionId), fields.map((f) => f.fieldSimplyId)],
  );
  return new Set(rows.map((r) => r.v));
}
