// Merge tags in SEND_EMAIL and SEND_USER_NOTIFICATION texts: `{{fld-XXXX-XXXX-XXXX}}` or
// `{{column_name}}` is the record's field as one-line display text (the same text record names
// are made of); `{{record.id}}` and `{{record.name}}` are the record's simplyId and display name.
// Values are HTML-escaped in html bodies. Tags are checked when the action is saved, so an
// unknown tag never reaches a recipient.
import type { FieldDefinition } from '../collections/team-schema.ts';
import { toDisplayText } from '../collections/values/index.ts';

const TAG = /\{\{\s*([^{}\s]{1,80})\s*\}\}/g;
export const BUILT_IN_TAGS = ['record.id', 'record.name'] as const;

export interface MergeRecord {
  simplyId: string;
  calculatedName: string;
  values: Record<string, unknown>;
}

/** Tags of `text` that name nothing (no field of `fields`, no built-in); all of them when there is no record. */
export function unknownTags(text: string, fields: readonly FieldDefinition[] | null): string[] {
  const known = new Set<string>(fields ? [...BUILT_IN_TAGS, ...fields.flatMap((f) => [f.dataFieldSimplyId, f.columnName])] : []);
  return [...new Set([...text.matchAll(TAG)].map((m) => m[1]!).filter((name) => !known.has(name)))];
}

export function hasTags(text: string): boolean {
  return [...text.matchAll(TAG)].length > 0;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

export function renderTags(text: string, fields: readonly FieldDefinition[], record: MergeRecord | null, options: { html?: boolean } = {}): string {
  const byName = new Map<string, FieldDefinition>();
  for (const f of fields) {
    byName.set(f.columnName, f);
    byName.set(f.dataFieldSimplyId, f);
  }
  return text.replace(TAG, (whole, name: string) => {
    let value: string;
    if (!record) return whole;
    if (name === 'record.id') value = record.simplyId;
    else if (name === 'record.name') value = record.calculatedName;
    else {
      const field = byName.get(name);
      if (!field) return whole;
      value = toDisplayText(field, record.values[field.dataFieldSimplyId]);
    }
    return options.html ? escapeHtml(value) : value;
  });
}
