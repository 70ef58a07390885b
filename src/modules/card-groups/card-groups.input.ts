// Bodies of card-group administration (POST and PUT /v1/data-collections/{id}/card-groups…), shared
// by the REST table and the service so both faces refuse the same bodies naming the same fields.
// The shapes are checked here; whether the named fields belong to the collection (or to the
// relationship's target) is checked against the team's schema by card-group-config.ts.
import { z } from 'zod';
import { localizedTextSchema } from '../../app/localized-text.ts';

/** groups one collection may have */
export const MAX_CARD_GROUPS_PER_COLLECTION = 50;
/** cards in one group */
export const MAX_CARDS_PER_GROUP = 20;
/** fields one FIELDS card shows */
export const MAX_FIELDS_PER_CARD = 50;
/** columns one TABLE card shows */
export const MAX_TABLE_COLUMNS = 20;
/** rows a TABLE card renders (the total is always counted) */
export const MAX_TABLE_ROWS = 100;
export const DEFAULT_TABLE_ROWS = 10;

export const CARD_KINDS = ['FIELDS', 'TABLE'] as const;
export type CardKind = (typeof CARD_KINDS)[number];

/**
 * FORWARD: the relationship field is the collection's own and points at the target collection (rows:
 * the records the record's value names). REVERSE: the field belongs to the target collection and
 * points back at this one (rows: the target's records whose value names the record).
 */
export const RELATION_DIRECTIONS = ['FORWARD', 'REVERSE'] as const;
export type RelationDirection = (typeof RELATION_DIRECTIONS)[number];

const FIELD_ID = /^fld-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/;
const fieldId = z.string({ error: 'must be a field simplyId (fld-XXXX-XXXX-XXXX)' }).regex(FIELD_ID, 'must be a field simplyId (fld-XXXX-XXXX-XXXX)');

/** an ordered list of distinct field simplyIds */
function fieldList(min: number, max: number, what: string) {
  return z
    .array(fieldId, { error: `must be an array of ${what}` })
    .min(min, `must name at least ${min === 1 ? 'one' : min} of the ${what}`)
    .max(max, `at most ${max} ${what}`)
    .superRefine((ids, ctx) => {
      const seen = new Set<string>();
      ids.forEach((id, i) => {
        if (seen.has(id)) ctx.addIssue({ code: 'custom', path: [i], message: `repeats ${id}` });
        seen.add(id);
      });
    });
}

const title = localizedTextSchema.nullable().default(null);

const fieldsCard = z.strictObject({
  kind: z.literal('FIELDS'),
  title,
  dataFieldSimplyIds: fieldList(1, MAX_FIELDS_PER_CARD, 'fields of the collection'),
});

const tableCard = z.strictObject({
  kind: z.literal('TABLE'),
  title,
  dataFieldSimplyId: fieldId,
  direction: z.enum(RELATION_DIRECTIONS, { error: `must be one of ${RELATION_DIRECTIONS.join(', ')}` }).nullable().default(null),
  columnFieldSimplyIds: fieldList(0, MAX_TABLE_COLUMNS, 'fields of the target collection').default([]),
  rowLimit: z
    .number({ error: `must be a whole number from 1 to ${MAX_TABLE_ROWS}` })
    .int(`must be a whole number from 1 to ${MAX_TABLE_ROWS}`)
    .min(1, `must be a whole number from 1 to ${MAX_TABLE_ROWS}`)
    .max(MAX_TABLE_ROWS, `must be a whole number from 1 to ${MAX_TABLE_ROWS}`)
    .default(DEFAULT_TABLE_ROWS),
});

const card = z.discriminatedUnion('kind', [fieldsCard, tableCard], { error: `must be one of ${CARD_KINDS.join(', ')}` });

export type CardInput = z.output<typeof card>;
export type FieldsCardInput = z.output<typeof fieldsCard>;
export type TableCardInput = z.output<typeof tableCard>;

/** POST (a new group) and PUT (the group replaced): the name, the cards in order, and where the group goes */
export const cardGroupInput = z.strictObject({
  name: localizedTextSchema,
  position: z
    .number({ error: 'must be a whole number ≥ 0' })
    .int('must be a whole number ≥ 0')
    .min(0, 'must be a whole number ≥ 0')
    .max(10_000, 'must be at most 10000')
    .optional(),
  cards: z.array(card, { error: 'must be an array of cards { kind: FIELDS | TABLE, … }' }).max(MAX_CARDS_PER_GROUP, `at most ${MAX_CARDS_PER_GROUP} cards`),
});

export type CardGroupInput = z.output<typeof cardGroupInput>;
