// The spaces of a mapping as the booking model shows them (displayName, capacity, publicDetails),
// read by team through the data kernel: a booking link shows its channel's spaces to people who
// cannot read the collection, so this read is the channel's, not the caller's.
import { decodeRecordFields, findRecords, type TeamSchema } from '../../kernel/index.ts';
import type { Services } from '../../app/context.ts';
import type { Mapping } from './space-bookings.input.ts';

export interface Space {
  spaceRecordSimplyId: string;
  displayName: string;
  capacity: number | null;
  publicDetails: { rateLabel: string | null; highlights: string | null };
}

const text = (v: unknown): string | null => (typeof v === 'string' ? v : v === null || v === undefined ? null : String(v));

/** The named records of the mapped spaces collection, in the order asked; ids of other collections or teams are left out. */
export async function readSpaces(services: Services, schema: TeamSchema, mapping: Mapping, ids: readonly string[]): Promise<Space[]> {
  const collection = schema.collectionsBySimplyId.get(mapping.spaces.dataCollectionSimplyId);
  if (!collection || ids.length === 0) return [];
  const rows = await findRecords(services.pool, schema.teamId, [...new Set(ids)]);
  const fields = schema.fieldsOf(collection);
  const byId = new Map(rows.filter((r) => r.collectionId === collection.id && !r.isArchived).map((r) => [r.simplyId, r]));
  const m = mapping.spaces;
  return ids.flatMap((id) => {
    const row = byId.get(id);
    if (!row) return [];
    const values = decodeRecordFields(fields, row.values);
    const capacity = m.capacityFieldSimplyId ? values[m.capacityFieldSimplyId] : null;
    return [
      {
        spaceRecordSimplyId: id,
        displayName: text(values[m.displayNameFieldSimplyId]) ?? row.calculatedName,
        capacity: typeof capacity === 'number' ? capacity : null,
        publicDetails: {
          rateLabel: m.publicDetails?.rateLabelFieldSimplyId ? text(values[m.publicDetails.rateLabelFieldSimplyId]) : null,
          highlights: m.publicDetails?.highlightsFieldSimplyId ? text(values[m.publicDetails.highlightsFieldSimplyId]) : null,
        },
      },
    ];
  });
}
