// Which constituent an email address names in a team: a live record of one of the team's PERSON
// collections (the archetype set on the collection or inherited from its parent) whose
// EMAIL_ADDRESS field holds the address, compared without case as record filters compare it. When
// several records hold it, the oldest one is the constituent. A phone number (E.164) names one the
// same way through the PHONE_NUMBER fields (conversations match their visitors by either).
import type pg from 'pg';
import { type FieldDefinition, findOldestContactHolder, type TeamSchema } from '../../kernel/index.ts';

export interface MatchedConstituent {
  recordId: bigint;
  recordSimplyId: string;
  /** the address as the record stores it (mail goes there) */
  address: string;
}

interface Targets {
  collectionIds: bigint[];
  fields: FieldDefinition[];
}

function targetsOf(schema: TeamSchema | null, dataType: 'EMAIL_ADDRESS' | 'PHONE_NUMBER' = 'EMAIL_ADDRESS'): Targets {
  if (!schema) return { collectionIds: [], fields: [] };
  // SMART collections show their source's records: the source itself is searched
  const people = schema.collections.filter((c) => !c.isArchived && c.type !== 'SMART' && schema.effectiveArchetype(c) === 'PERSON');
  return {
    collectionIds: people.map((c) => c.id),
    fields: people.flatMap((c) => c.ownFields.filter((f) => f.dataType === dataType)),
  };
}

/**
 * One indexed probe of the record keys. It runs for an unknown team too (no targets, team 0), so
 * that case costs the same round trip as a real one.
 */
export async function matchContact(pool: pg.Pool, teamId: bigint | null, schema: TeamSchema | null, address: string): Promise<MatchedConstituent | null> {
  const holder = await findOldestContactHolder(pool, teamId ?? 0n, { ...targetsOf(schema), key: address.toLowerCase() });
  if (!holder || !schema) return null;
  return { recordId: holder.id, recordSimplyId: holder.simplyId, address: typeof holder.value === 'string' ? holder.value : address };
}

/** The constituent whose PHONE_NUMBER field holds `e164` (the key phone fields store), as matchContact does for email. */
export async function matchContactPhone(pool: pg.Pool, teamId: bigint, schema: TeamSchema, e164: string): Promise<MatchedConstituent | null> {
  const holder = await findOldestContactHolder(pool, teamId, { ...targetsOf(schema, 'PHONE_NUMBER'), key: e164 });
  if (!holder) return null;
  return { recordId: holder.id, recordSimplyId: holder.simplyId, address: typeof holder.value === 'string' ? holder.value : e164 };
}
