// The update step of the record write path, inside the caller's transaction: the rows, smart
// collection memberships, and the audit entries, domain events and outbox rows of each change.
// `updateRecordsById` (the API) and writers that hold their own transaction (the wizard runner,
// which records its run in the same commit) both end here, so an update leaves the same traces
// whoever makes it.
import type pg from 'pg';
import type { CollectionDefinition, TeamSchema } from '../schema/team-schema.ts';
import { calculateName } from './calculated-name.ts';
import { type BulkSummary, type ChangeActor, type RecordChange, recordChanges, type RecordWriteServices } from './record-changes.ts';
import { type RecordRow, syncSmartMemberships, updateRecords } from './records.sql.ts';

/** A record locked by the caller (lockRecords), and the complete values it should hold. */
export interface RecordRewrite {
  before: RecordRow;
  collection: CollectionDefinition;
  values: Record<string, unknown>;
}

export const sameStoredValue = (a: unknown, b: unknown): boolean => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * Writes the rewrites that change something (a value, or the calculated name) and answers the new
 * rows by simplyId and the event ids. A rewrite that changes nothing writes nothing and fires
 * nothing, like a no-op PATCH.
 */
export async function applyRecordRewrites(
  db: pg.PoolClient,
  services: RecordWriteServices,
  schema: TeamSchema,
  actor: ChangeActor,
  rewrites: readonly RecordRewrite[],
  bulk?: BulkSummary,
): Promise<{ rows: Map<string, RecordRow>; eventIds: string[] }> {
  const planned = rewrites.map((r) => {
    const fields = schema.fieldsOf(r.collection);
    const changedFields = fields.filter((f) => !sameStoredValue(r.before.values[f.dataFieldSimplyId], r.values[f.dataFieldSimplyId]));
    const calculatedName = calculateName(schema.fieldSource(r.collection).calculatedNameFormula, fields, r.values);
    return { ...r, fields, changedFields, calculatedName };
  });
  const real = planned.filter((p) => p.changedFields.length > 0 || p.calculatedName !== p.before.calculatedName);
  const written = await updateRecords(db, actor.teamId, real.map(({ before, values, changedFields, calculatedName }) => ({ before, values, changedFields, calculatedName })));
  const rows = new Map(written.map((r) => [r.simplyId, r]));
  const byCollection = new Map<bigint, { collection: CollectionDefinition; ids: bigint[] }>();
  for (const p of real) {
    const group = byCollection.get(p.collection.id) ?? { collection: p.collection, ids: [] };
    group.ids.push(p.before.id);
    byCollection.set(p.collection.id, group);
  }
  for (const { collection, ids } of byCollection.values()) await syncSmartMemberships(db, schema, collection, ids);
  const changes: RecordChange[] = real.map((p) => ({
    kind: 'UPDATED',
    record: rows.get(p.before.simplyId)!,
    collection: p.collection,
    fields: p.fields,
    before: p.before.values,
    changedFields: p.changedFields,
  }));
  const eventIds = await recordChanges(db, services, actor, changes, bulk);
  return { rows, eventIds };
}
