// Structured difference between two team schema export documents (GET /v1/team-schema/versions/
// compare). Pure: collections, fields and views are matched by simplyId, so a rename is a change of
// `name`, not a removal plus an addition. `null` stands for the empty schema (version 0).
import type { ExportedCollection, ExportedField, ExportedView, TeamSchemaDocument } from './schema-export.ts';

export interface EntityChange {
  /** the simplyId of the collection, field, view, wizard or automation */
  id: string;
  /** the owning collection (fields, views); for a collection, its own simplyId */
  dataCollectionSimplyId: string | null;
  /** changed: the properties whose value differs; added and removed: empty */
  changedProperties: string[];
  /** added: null; removed: the whole entity; changed: the changed properties' old values */
  before: Record<string, unknown> | null;
  /** removed: null; added: the whole entity; changed: the changed properties' new values */
  after: Record<string, unknown> | null;
}

export interface EntityDiff {
  added: EntityChange[];
  removed: EntityChange[];
  changed: EntityChange[];
}

export interface SchemaDiff {
  hasChanges: boolean;
  collections: EntityDiff;
  fields: EntityDiff;
  views: EntityDiff;
  wizards: EntityDiff;
  automations: EntityDiff;
}

export const EMPTY_SCHEMA: TeamSchemaDocument = { formatVersion: 1, collections: [], views: [], wizards: [], automations: [] };

/** JSON with object keys sorted, so equal values compare equal whatever their key order. */
export function canonicalJson(value: unknown): string {
  if (value === undefined) return 'null';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

export function sameValue(a: unknown, b: unknown): boolean {
  return canonicalJson(a ?? null) === canonicalJson(b ?? null);
}

interface Keyed {
  id: string;
  dataCollectionSimplyId: string | null;
  /** compared properties (the id itself and nested lists left out) */
  props: Record<string, unknown>;
}

function diffKeyed(before: readonly Keyed[], after: readonly Keyed[]): EntityDiff {
  const old = new Map(before.map((e) => [e.id, e]));
  const now = new Map(after.map((e) => [e.id, e]));
  const diff: EntityDiff = { added: [], removed: [], changed: [] };
  for (const e of after) {
    const was = old.get(e.id);
    if (!was) {
      diff.added.push({ id: e.id, dataCollectionSimplyId: e.dataCollectionSimplyId, changedProperties: [], before: null, after: e.props });
      continue;
    }
    const keys = [...new Set([...Object.keys(was.props), ...Object.keys(e.props)])];
    const changedProperties = keys.filter((k) => !sameValue(was.props[k], e.props[k]));
    if (changedProperties.length === 0) continue;
    diff.changed.push({
      id: e.id,
      dataCollectionSimplyId: e.dataCollectionSimplyId,
      changedProperties,
      before: Object.fromEntries(changedProperties.map((k) => [k, was.props[k] ?? null])),
      after: Object.fromEntries(changedProperties.map((k) => [k, e.props[k] ?? null])),
    });
  }
  for (const e of before) {
    if (!now.has(e.id)) diff.removed.push({ id: e.id, dataCollectionSimplyId: e.dataCollectionSimplyId, changedProperties: [], before: e.props, after: null });
  }
  return diff;
}

function collectionsOf(doc: TeamSchemaDocument): Keyed[] {
  return doc.collections.map((c: ExportedCollection) => {
    const { dataCollectionSimplyId, fields: _fields, ...props } = c;
    return { id: dataCollectionSimplyId, dataCollectionSimplyId, props };
  });
}

/** Fields carry their collection as a property: a field moved to another collection is a change. */
function fieldsOf(doc: TeamSchemaDocument): Keyed[] {
  return doc.collections.flatMap((c) =>
    (c.fields ?? []).map((f: ExportedField) => {
      const { dataFieldSimplyId, ...rest } = f;
      return { id: dataFieldSimplyId, dataCollectionSimplyId: c.dataCollectionSimplyId, props: { dataCollectionSimplyId: c.dataCollectionSimplyId, ...rest } };
    }),
  );
}

function viewsOf(doc: TeamSchemaDocument): Keyed[] {
  return doc.views.map((v: ExportedView) => {
    const { dataViewSimplyId, ...props } = v;
    return { id: dataViewSimplyId, dataCollectionSimplyId: v.dataCollectionSimplyId, props };
  });
}

const GENERIC_KEYS = ['dataWizardSimplyId', 'automationSimplyId', 'id', 'simplyId'];

/** Wizards and automations (filled by their capabilities): keyed by the first simplyId-like key found. */
function genericOf(items: readonly unknown[] | undefined): Keyed[] {
  const out: Keyed[] = [];
  for (const item of items ?? []) {
    if (!item || typeof item !== 'object' || Array.isArray(item)) continue;
    const record = item as Record<string, unknown>;
    const key = GENERIC_KEYS.find((k) => typeof record[k] === 'string');
    if (!key) continue;
    const { [key]: id, ...props } = record;
    out.push({ id: id as string, dataCollectionSimplyId: typeof record.dataCollectionSimplyId === 'string' ? record.dataCollectionSimplyId : null, props });
  }
  return out;
}

const isEmpty = (d: EntityDiff) => d.added.length + d.removed.length + d.changed.length === 0;

export function diffTeamSchemas(before: TeamSchemaDocument | null, after: TeamSchemaDocument | null): SchemaDiff {
  const a = before ?? EMPTY_SCHEMA;
  const b = after ?? EMPTY_SCHEMA;
  const diff = {
    collections: diffKeyed(collectionsOf(a), collectionsOf(b)),
    fields: diffKeyed(fieldsOf(a), fieldsOf(b)),
    views: diffKeyed(viewsOf(a), viewsOf(b)),
    wizards: diffKeyed(genericOf(a.wizards), genericOf(b.wizards)),
    automations: diffKeyed(genericOf(a.automations), genericOf(b.automations)),
  };
  return { hasChanges: !Object.values(diff).every(isEmpty), ...diff };
}
