// Display names (Document 1 §2.3 `name`): the collection's formula is text with
// `{dataFieldSimplyId}` (or `{columnName}`) placeholders, each replaced by the field's one-line
// display text; runs of whitespace collapse and the result is trimmed. Without a formula the
// name is the display text of the first field (in sortOrder) that has a value.
import { toDisplayText } from '../values/index.ts';
import type { FieldDefinition } from '../schema/team-schema.ts';

const PLACEHOLDER = /\{([^{}]{1,64})\}/g;
export const MAX_NAME_LENGTH = 500;
export const MAX_FORMULA_LENGTH = 1000;

/** Placeholders of a formula that name no field of the collection (empty: the formula is fine). */
export function unknownPlaceholders(formula: string, fields: readonly FieldDefinition[]): string[] {
  const known = new Set(fields.flatMap((f) => [f.dataFieldSimplyId, f.columnName]));
  return [...formula.matchAll(PLACEHOLDER)].map((m) => m[1]!).filter((name) => !known.has(name));
}

/** Field simplyIds a formula reads. */
export function formulaFields(formula: string, fields: readonly FieldDefinition[]): string[] {
  const names = new Set([...formula.matchAll(PLACEHOLDER)].map((m) => m[1]!));
  return fields.filter((f) => names.has(f.dataFieldSimplyId) || names.has(f.columnName)).map((f) => f.dataFieldSimplyId);
}

export function calculateName(formula: string | null, fields: readonly FieldDefinition[], values: Record<string, unknown>): string {
  let text: string;
  if (formula) {
    const byName = new Map<string, FieldDefinition>();
    for (const f of fields) {
      byName.set(f.columnName, f);
      byName.set(f.dataFieldSimplyId, f);
    }
    text = formula.replace(PLACEHOLDER, (whole, name: string) => {
      const field = byName.get(name);
      return field ? toDisplayText(field, values[field.dataFieldSimplyId]) : whole;
    });
  } else {
    text = '';
    for (const f of fields) {
      text = toDisplayText(f, values[f.dataFieldSimplyId]);
      if (text) break;
    }
  }
  const name = text.replace(/\s+/g, ' ').trim();
  return [...name].length > MAX_NAME_LENGTH ? [...name].slice(0, MAX_NAME_LENGTH).join('') : name;
}

/** What calculatedName filters, `query` and the name sort compare: the lower-cased name. */
export function nameKeyOf(name: string): string {
  return name.toLowerCase();
}
