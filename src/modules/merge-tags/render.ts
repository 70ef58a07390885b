// Rendering a parsed template for one record. A tag names a field of the record's collection by
// column name or field simplyId, or one of the built-ins `record.id` / `record.name`; its value is
// the field's one-line display text (the text record names are made of), so numbers, dates,
// booleans, multi-values and addresses all render as one line and no value carries markup or line
// breaks of its own. A tag that names nothing, a field without a value, and any tag when there is
// no record render as the empty string: checking that every tag is known belongs to whoever saves
// a template (`unknownTags`), not to the send, which must not fail or leak `{{…}}` to a recipient.
// Names are looked up in Maps, never as object properties, so `{{__proto__}}`, `{{constructor}}` or
// `{{toString}}` find nothing unless a field really has that column name.
// A caller may also fill tags of its own that no record holds (`MergeContext.values`, e.g. the
// composer's `{{unsubscribe_url}}`): they win over a field of the same name, so a record can never
// replace what the caller puts there, and are filled even without a record.
import { escapeHtml } from '../../app/html-escape.ts';
import { toDisplayText, type FieldDef } from '../../kernel/index.ts';
import { MergeOutputTooLargeError } from './merge-tags.errors.ts';
import { parseTemplate, type ParsedTemplate } from './template.ts';

export const BUILT_IN_TAGS = ['record.id', 'record.name'] as const;

/** The composer's per-recipient unsubscribe link (docs/api/merge-tags.md "Tags of composed messages"). */
export const UNSUBSCRIBE_URL_TAG = 'unsubscribe_url';

/** What a tag can name: a field with its column name (a FieldDefinition of the team schema fits). */
export interface MergeField extends FieldDef {
  columnName: string;
}

/** The record a template is rendered for. */
export interface MergeRecord {
  simplyId: string;
  calculatedName: string | null;
  /** stored values by field simplyId */
  values: Record<string, unknown> | null;
}

export interface MergeContext {
  /** the fields of the record's collection; pass the same array again to reuse its name index */
  fields: readonly MergeField[];
  record: MergeRecord | null;
  /** tags the caller fills itself, by name: ahead of the fields, escaped like any value, also without a record */
  values?: ReadonlyMap<string, string>;
}

export interface RenderOptions {
  /** escape values for HTML (text and quoted attribute values) */
  html?: boolean;
  /** the most characters (UTF-16 units) the result may have; more throws MergeOutputTooLargeError */
  maxLength?: number;
}

/** Enough for any mail body the platform sends (the mailer takes at most 500 000 characters of HTML). */
export const DEFAULT_MAX_OUTPUT = 1_000_000;

const indexes = new WeakMap<readonly MergeField[], { size: number; index: Map<string, MergeField> }>();

function fieldIndex(fields: readonly MergeField[]): Map<string, MergeField> {
  const known = indexes.get(fields);
  // the length check catches an array grown or shrunk in place since it was indexed
  let index = known && known.size === fields.length ? known.index : undefined;
  if (!index) {
    index = new Map();
    // simplyIds first, so a column name can never shadow another field's id
    for (const f of fields) index.set(f.dataFieldSimplyId, f);
    for (const f of fields) if (!index.has(f.columnName)) index.set(f.columnName, f);
    indexes.set(fields, { size: fields.length, index });
  }
  return index;
}

/** Tags of `text` that name nothing (no field of `fields`, no built-in); all of them when there are no fields (no collection). */
export function unknownTags(text: string, fields: readonly MergeField[] | null): string[] {
  const tags = parseTemplate(text).tags;
  if (!fields) return [...tags];
  const index = fieldIndex(fields);
  return tags.filter((name) => !(BUILT_IN_TAGS as readonly string[]).includes(name) && !index.has(name));
}

/**
 * The pieces of `text` around every tag named in `names`, each on its own: checking them one by one
 * (unknownTags) leaves those tags out, and nothing can read as a tag across a cut, as it could if
 * the pieces were joined again.
 */
export function textsAroundTags(text: string, names: readonly string[]): string[] {
  const parsed = parseTemplate(text);
  if (!parsed.tags.some((name) => names.includes(name))) return [text];
  const pieces: string[] = [];
  let current = '';
  for (const token of parsed.tokens) {
    if (token.type === 'tag' && names.includes(token.name)) {
      pieces.push(current);
      current = '';
    } else current += token.type === 'text' ? token.text : token.raw;
  }
  pieces.push(current);
  return pieces.filter((piece) => piece !== '');
}

export { escapeHtml };

function valueOf(name: string, index: Map<string, MergeField>, record: MergeRecord): string {
  if (name === 'record.id') return record.simplyId ?? '';
  if (name === 'record.name') return record.calculatedName ?? '';
  const field = index.get(name);
  if (!field) return '';
  const values = record.values;
  const stored = values && typeof values === 'object' && Object.hasOwn(values, field.dataFieldSimplyId) ? values[field.dataFieldSimplyId] : undefined;
  return toDisplayText(field, stored);
}

/** The template with every tag replaced by its value for the context's record (empty when missing). */
export function renderTemplate(template: string | ParsedTemplate, context: MergeContext, options: RenderOptions = {}): string {
  const parsed = typeof template === 'string' ? parseTemplate(template) : template;
  const max = options.maxLength ?? DEFAULT_MAX_OUTPUT;
  const index = fieldIndex(context.fields);
  const values = new Map<string, string>();
  const parts: string[] = [];
  let length = 0;
  for (const token of parsed.tokens) {
    let piece: string;
    if (token.type === 'text') piece = token.text;
    else {
      let value = values.get(token.name);
      if (value === undefined) {
        value = context.values?.get(token.name) ?? (context.record ? valueOf(token.name, index, context.record) : '');
        if (options.html) value = escapeHtml(value);
        values.set(token.name, value);
      }
      piece = value;
    }
    length += piece.length;
    if (length > max) throw new MergeOutputTooLargeError(max);
    parts.push(piece);
  }
  return parts.join('');
}
