// The pure team-schema diff (src/modules/team-schema/schema-diff.ts).
import { describe, expect, it } from 'vitest';
import { canonicalJson, diffTeamSchemas, sameValue } from '../../src/modules/team-schema/schema-diff.ts';
import type { ExportedCollection, ExportedField, ExportedView, TeamSchemaDocument } from '../../src/modules/team-schema/schema-export.ts';

const field = (id: string, over: Partial<ExportedField> = {}): ExportedField => ({
  dataFieldSimplyId: id,
  title: id,
  columnName: id.toLowerCase(),
  dataType: 'PLAIN_TEXT',
  isRequired: false,
  sortOrder: 0,
  config: {},
  ...over,
});

const collection = (id: string, fields: ExportedField[] = [], over: Partial<ExportedCollection> = {}): ExportedCollection => ({
  dataCollectionSimplyId: id,
  name: id,
  singularName: null,
  pluralName: null,
  archetype: null,
  type: 'STANDARD',
  parentDataCollectionSimplyId: null,
  dataRecordCalculatedNameFormula: null,
  filterCriteria: null,
  isArchived: false,
  fields,
  ...over,
});

const view = (id: string, collectionId: string, over: Partial<ExportedView> = {}): ExportedView => ({
  dataViewSimplyId: id,
  dataCollectionSimplyId: collectionId,
  name: id,
  description: null,
  enumDataViewTypeId: 'LIST',
  isPublished: false,
  config: { columns: [], filters: [], sortOrder: [] },
  ...over,
});

const doc = (collections: ExportedCollection[], views: ExportedView[] = [], extra: Partial<TeamSchemaDocument> = {}): TeamSchemaDocument => ({
  formatVersion: 1,
  collections,
  views,
  wizards: [],
  automations: [],
  ...extra,
});

const EMPTY = { added: [], removed: [], changed: [] };

describe('canonical JSON', () => {
  it('ignores key order and undefined, keeps array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, 1], c: null }, u: undefined })).toBe('{"a":{"c":null,"d":[2,1]},"b":1}');
    expect(sameValue({ en: 'A', fr: 'B' }, { fr: 'B', en: 'A' })).toBe(true);
    expect(sameValue([1, 2], [2, 1])).toBe(false);
    expect(sameValue(undefined, null)).toBe(true);
    expect(sameValue('1', 1)).toBe(false);
  });
});

describe('diffTeamSchemas', () => {
  it('identical documents (and two empty schemas) have no changes', () => {
    const a = doc([collection('C1', [field('F1')])], [view('V1', 'C1')]);
    expect(diffTeamSchemas(a, structuredClone(a))).toEqual({ hasChanges: false, collections: EMPTY, fields: EMPTY, views: EMPTY, wizards: EMPTY, automations: EMPTY });
    expect(diffTeamSchemas(null, null).hasChanges).toBe(false);
  });

  it('from the empty schema (version 0) everything is added; to it, everything is removed', () => {
    const a = doc([collection('C1', [field('F1'), field('F2')])], [view('V1', 'C1')]);
    const up = diffTeamSchemas(null, a);
    expect(up.hasChanges).toBe(true);
    expect(up.collections.added).toEqual([
      { id: 'C1', dataCollectionSimplyId: 'C1', changedProperties: [], before: null, after: expect.objectContaining({ name: 'C1', type: 'STANDARD' }) },
    ]);
    expect(up.collections.added[0]!.after).not.toHaveProperty('fields');
    expect(up.collections.added[0]!.after).not.toHaveProperty('dataCollectionSimplyId');
    expect(up.fields.added.map((f) => [f.id, f.dataCollectionSimplyId])).toEqual([
      ['F1', 'C1'],
      ['F2', 'C1'],
    ]);
    expect(up.fields.added[0]!.after).toEqual({ dataCollectionSimplyId: 'C1', title: 'F1', columnName: 'f1', dataType: 'PLAIN_TEXT', isRequired: false, sortOrder: 0, config: {} });
    expect(up.views.added).toEqual([{ id: 'V1', dataCollectionSimplyId: 'C1', changedProperties: [], before: null, after: expect.objectContaining({ enumDataViewTypeId: 'LIST' }) }]);
    const down = diffTeamSchemas(a, null);
    expect(down.collections.removed.map((c) => c.id)).toEqual(['C1']);
    expect(down.fields.removed.map((c) => c.id)).toEqual(['F1', 'F2']);
    expect(down.views.removed[0]).toMatchObject({ id: 'V1', after: null, before: expect.objectContaining({ name: 'V1' }) });
  });

  it('matches by simplyId: renames are changes with before/after of the changed properties only', () => {
    const a = doc([collection('C1', [field('F1'), field('F2', { config: { maxLength: 10 } })], { name: { en: 'People' } }), collection('C2')], [view('V1', 'C1'), view('V2', 'C2')]);
    const b = doc(
      [
        collection('C1', [field('F1', { title: { en: 'First name' }, isRequired: true }), field('F3')], { name: { en: 'Persons' }, archetype: 'PERSON' }),
        collection('C3'),
      ],
      [view('V1', 'C1', { config: { columns: ['F1'], filters: [], sortOrder: [] } }), view('V3', 'C3')],
    );
    const d = diffTeamSchemas(a, b);
    expect(d.hasChanges).toBe(true);
    expect(d.collections).toEqual({
      added: [expect.objectContaining({ id: 'C3' })],
      removed: [expect.objectContaining({ id: 'C2', after: null })],
      changed: [{ id: 'C1', dataCollectionSimplyId: 'C1', changedProperties: ['name', 'archetype'], before: { name: { en: 'People' }, archetype: null }, after: { name: { en: 'Persons' }, archetype: 'PERSON' } }],
    });
    expect(d.fields.changed).toEqual([
      { id: 'F1', dataCollectionSimplyId: 'C1', changedProperties: ['title', 'isRequired'], before: { title: 'F1', isRequired: false }, after: { title: { en: 'First name' }, isRequired: true } },
    ]);
    expect(d.fields.added.map((f) => f.id)).toEqual(['F3']);
    expect(d.fields.removed.map((f) => f.id)).toEqual(['F2']);
    expect(d.views.changed).toEqual([
      { id: 'V1', dataCollectionSimplyId: 'C1', changedProperties: ['config'], before: { config: { columns: [], filters: [], sortOrder: [] } }, after: { config: { columns: ['F1'], filters: [], sortOrder: [] } } },
    ]);
    expect(d.views.added.map((v) => v.id)).toEqual(['V3']);
    expect(d.views.removed.map((v) => v.id)).toEqual(['V2']);
  });

  it('a field moved to another collection is a change of dataCollectionSimplyId', () => {
    const a = doc([collection('C1', [field('F1')]), collection('C2')]);
    const b = doc([collection('C1'), collection('C2', [field('F1')])]);
    const d = diffTeamSchemas(a, b);
    expect(d.collections).toEqual(EMPTY);
    expect(d.fields.changed).toEqual([{ id: 'F1', dataCollectionSimplyId: 'C2', changedProperties: ['dataCollectionSimplyId'], before: { dataCollectionSimplyId: 'C1' }, after: { dataCollectionSimplyId: 'C2' } }]);
  });

  it('key order inside JSON properties is not a change', () => {
    const a = doc([collection('C1', [field('F1', { config: { min: 1, max: 5 } })], { name: { en: 'A', fr: 'B' } })]);
    const b = doc([collection('C1', [field('F1', { config: { max: 5, min: 1 } })], { name: { fr: 'B', en: 'A' } })]);
    expect(diffTeamSchemas(a, b).hasChanges).toBe(false);
  });

  it('wizards and automations are matched by their simplyId key; items without one are ignored', () => {
    const a = doc([], [], { wizards: [{ dataWizardSimplyId: 'W1', name: 'Intake' }, { nothing: true }], automations: [{ automationSimplyId: 'A1', isActive: true }] });
    const b = doc([], [], { wizards: [{ dataWizardSimplyId: 'W1', name: 'Intake v2' }], automations: [] });
    const d = diffTeamSchemas(a, b);
    expect(d.wizards.changed).toEqual([{ id: 'W1', dataCollectionSimplyId: null, changedProperties: ['name'], before: { name: 'Intake' }, after: { name: 'Intake v2' } }]);
    expect(d.automations.removed.map((x) => x.id)).toEqual(['A1']);
  });
});
