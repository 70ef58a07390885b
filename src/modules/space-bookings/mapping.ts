// A source connection's mapping checked against the team's schema: each mapped collection and field
// exists (in this team: another team's ids read as missing) and each field's data type fits its role.
import type { CollectionDefinition, TeamSchema } from '../../kernel/index.ts';
import type { Mapping } from './space-bookings.input.ts';

const TEXT = ['PLAIN_TEXT', 'FORMATTED_TEXT'];

/** role → data types that fit it (and, for relationships, the collection it must point at) */
interface Role {
  path: string;
  fieldSimplyId: string | undefined;
  types: string[];
  target?: string;
}

export interface MappingProblem {
  field: string;
  message: string;
  [key: string]: unknown;
}

export function checkMapping(schema: TeamSchema, mapping: Mapping): MappingProblem[] {
  const problems: MappingProblem[] = [];
  const collection = (path: string, simplyId: string): CollectionDefinition | null => {
    const found = schema.collectionsBySimplyId.get(simplyId);
    if (!found || found.isArchived) problems.push({ field: path, message: `${simplyId} is not a collection of this team` });
    return found && !found.isArchived ? found : null;
  };
  const check = (c: CollectionDefinition | null, roles: Role[]) => {
    if (!c) return;
    const own = new Map(schema.fieldsOf(c).map((f) => [f.dataFieldSimplyId, f]));
    for (const role of roles) {
      if (!role.fieldSimplyId) continue;
      const field = own.get(role.fieldSimplyId);
      if (!field) {
        problems.push({ field: role.path, message: `${role.fieldSimplyId} is not a field of collection ${c.simplyId}` });
      } else if (!role.types.includes(field.dataType)) {
        problems.push({ field: role.path, message: `is a ${field.dataType} field; this role needs ${role.types.join(' or ')}` });
      } else if (role.target) {
        const target = (field.config as { targetDataCollectionSimplyId?: string }).targetDataCollectionSimplyId;
        if (target && target !== role.target) problems.push({ field: role.path, message: `points at collection ${target}, not at ${role.target}` });
      }
    }
  };
  const s = mapping.spaces;
  const b = mapping.bookings;
  check(collection('mapping.spaces.dataCollectionSimplyId', s.dataCollectionSimplyId), [
    { path: 'mapping.spaces.displayNameFieldSimplyId', fieldSimplyId: s.displayNameFieldSimplyId, types: TEXT },
    { path: 'mapping.spaces.capacityFieldSimplyId', fieldSimplyId: s.capacityFieldSimplyId, types: ['NUMBER'] },
    { path: 'mapping.spaces.publicDetails.rateLabelFieldSimplyId', fieldSimplyId: s.publicDetails?.rateLabelFieldSimplyId, types: TEXT },
    { path: 'mapping.spaces.publicDetails.highlightsFieldSimplyId', fieldSimplyId: s.publicDetails?.highlightsFieldSimplyId, types: TEXT },
  ]);
  check(collection('mapping.bookings.dataCollectionSimplyId', b.dataCollectionSimplyId), [
    { path: 'mapping.bookings.startsAtFieldSimplyId', fieldSimplyId: b.startsAtFieldSimplyId, types: ['DATE_TIME'] },
    { path: 'mapping.bookings.endsAtFieldSimplyId', fieldSimplyId: b.endsAtFieldSimplyId, types: ['DATE_TIME'] },
    { path: 'mapping.bookings.spacesFieldSimplyId', fieldSimplyId: b.spacesFieldSimplyId, types: ['MULTI_DATA_RECORD', 'SINGLE_DATA_RECORD'], target: s.dataCollectionSimplyId },
    { path: 'mapping.bookings.titleFieldSimplyId', fieldSimplyId: b.titleFieldSimplyId, types: TEXT },
    { path: 'mapping.bookings.notesFieldSimplyId', fieldSimplyId: b.notesFieldSimplyId, types: TEXT },
    { path: 'mapping.bookings.statusFieldSimplyId', fieldSimplyId: b.statusFieldSimplyId, types: ['PLAIN_TEXT'] },
    { path: 'mapping.bookings.requesterFieldSimplyId', fieldSimplyId: b.requesterFieldSimplyId, types: ['SINGLE_DATA_RECORD'], target: mapping.people?.dataCollectionSimplyId },
    { path: 'mapping.bookings.amountFieldSimplyId', fieldSimplyId: b.amountFieldSimplyId, types: ['NUMBER'] },
  ]);
  if (mapping.people) {
    check(collection('mapping.people.dataCollectionSimplyId', mapping.people.dataCollectionSimplyId), [
      { path: 'mapping.people.displayNameFieldSimplyId', fieldSimplyId: mapping.people.displayNameFieldSimplyId, types: TEXT },
      { path: 'mapping.people.emailFieldSimplyId', fieldSimplyId: mapping.people.emailFieldSimplyId, types: ['EMAIL_ADDRESS'] },
    ]);
  }
  return problems;
}

/** The booking collection's mapped fields, for the write permission check and the record's values. */
export function bookingFieldIds(mapping: Mapping): string[] {
  const b = mapping.bookings;
  return [b.startsAtFieldSimplyId, b.endsAtFieldSimplyId, b.spacesFieldSimplyId, b.titleFieldSimplyId, b.notesFieldSimplyId, b.statusFieldSimplyId, b.requesterFieldSimplyId, b.amountFieldSimplyId].filter(
    (id): id is string => id !== undefined,
  );
}
