// Collections and fields in the route-table suites (test/support/area-kit.ts): the races of their
// write routes, the bodies of their id routes, how the collection list is read, and a collection
// with one field in the route world.
//
// Races on collections and fields: creation, SMART membership (resync, archive and restore),
// display-name formulas, unique column names, field order.
import { freshCollection, freshSmartCollection, readAll, unique, type FreshCollection } from '../concurrency/fresh-resources.ts';
import { distinct, expectDenseRanks, expectOneDeletion, expectOneOf, expectSame, expectSuccesses } from '../concurrency/race-checks.ts';
import { N, succeeded, type Exchange, type RaceKit, type RaceTable } from '../concurrency/race-kit.ts';
import { fresh, ok, type AreaTestKit } from '../support/area-kit.ts';

const collectionPath = (id: string) => `/v1/data-collections/${id}`;

/** a source of 5 records, 3 with "x" in the first field, and a SMART collection selecting those 3 */
async function smartOverSource(kit: RaceKit): Promise<{ source: FreshCollection; smart: string; members: number }> {
  const source = await freshCollection(kit, { fields: 1, records: 5, values: (r) => [r < 3 ? 'x' : 'y'] });
  return { source, smart: await freshSmartCollection(kit, source, 'x'), members: 3 };
}

/** the SMART collection's members, by its counter and by its record list */
async function expectMembers(kit: RaceKit, smart: string, members: number, exchanges: Exchange[]): Promise<void> {
  expectSame(kit, 'SMART recordCount', (await kit.admin('GET', collectionPath(smart))).recordCount, members, exchanges);
  expectSame(kit, 'SMART records listed', (await readAll(kit, `/v1/data-records?dataCollectionSimplyId=${smart}`)).length, members, exchanges);
}

async function fieldsOf(kit: RaceKit, id: string): Promise<{ id: string; title: string; columnName: string; sortOrder: number }[]> {
  return kit.admin('GET', `${collectionPath(id)}/fields`);
}

/** permutations of `ids`: rotations, then reversed rotations */
const orders = (ids: string[]) => Array.from({ length: N }, (_, i) => {
  const rotated = [...ids.slice(i % ids.length), ...ids.slice(0, i % ids.length)];
  return i < ids.length ? rotated : rotated.reverse();
});

const collectionRaces: RaceTable = {
  'POST /v1/data-collections': [
    {
      what: 'N identical collections (names need not be unique)',
      async run(kit) {
        const name = unique('collection');
        const xs = await kit.race({ method: 'POST', path: '/v1/data-collections', body: { name, fields: [{ title: 'Name', dataType: 'PLAIN_TEXT', columnName: 'name' }] } });
        kit.expectAnswers(xs, ['201']);
        const listed = (await readAll(kit, '/v1/data-collections')).filter((c) => c.name === name);
        expectSame(kit, 'collections with the name', listed.length, succeeded(xs).length, xs);
        if (!distinct(listed.map((c) => c.id))) kit.problem('two collections got one id', xs);
      },
    },
    {
      what: 'N SMART collections over one source at once',
      async run(kit) {
        const source = await freshCollection(kit, { fields: 1, records: 5, values: (r) => [r < 3 ? 'x' : 'y'] });
        const body = { name: unique('smart'), type: 'SMART', parentDataCollectionSimplyId: source.id, filterCriteria: [{ field: source.fieldIds[0], operator: 'eq', value: 'x' }] };
        const xs = await kit.race({ method: 'POST', path: '/v1/data-collections', body });
        kit.expectAnswers(xs, ['201']);
        for (const x of succeeded(xs)) await expectMembers(kit, x.response.body.data.id, 3, xs);
      },
    },
  ],
  'PATCH /v1/data-collections/{dataCollectionSimplyId}': [
    {
      what: 'N identical archetype changes',
      async run(kit) {
        const { id } = await freshCollection(kit);
        const xs = await kit.race({ method: 'PATCH', path: collectionPath(id), body: { archetype: 'PERSON' } });
        kit.expectAnswers(xs, ['200']);
        expectSame(kit, 'archetype', (await kit.admin('GET', collectionPath(id))).archetype, 'PERSON', xs);
      },
    },
    {
      what: 'N display-name formulas naming different fields (records renamed after each)',
      async run(kit) {
        const c = await freshCollection(kit, { fields: 2, records: 4 });
        const formulas = Array.from({ length: N }, (_, i) => `{${c.fieldIds[i % 2]}}`);
        const xs = await kit.race(formulas.map((f) => ({ method: 'PATCH', path: collectionPath(c.id), body: { dataRecordCalculatedNameFormula: f } })));
        kit.expectAnswers(xs, ['200']);
        const formula = (await kit.admin('GET', collectionPath(c.id))).dataRecordCalculatedNameFormula;
        expectOneOf(kit, 'formula', formula, formulas, xs);
        const named = c.fieldIds.indexOf(String(formula).slice(1, -1));
        const records = await readAll(kit, `/v1/data-records?dataCollectionSimplyId=${c.id}`);
        const stale = records.filter((r) => r.name !== r.fields[c.fieldIds[named]!]);
        if (stale.length) kit.problem(`${stale.length} of ${records.length} records are not named by the final formula ${formula}: ${JSON.stringify(stale.map((r) => r.name))}`, xs);
      },
    },
  ],
  'POST /v1/data-collections/{dataCollectionSimplyId}/rename': [
    {
      what: 'N different names',
      async run(kit) {
        const { id } = await freshCollection(kit);
        const names = Array.from({ length: N }, (_, i) => unique(`renamed ${i}`));
        const xs = await kit.race(names.map((name) => ({ method: 'POST', path: `${collectionPath(id)}/rename`, body: { name } })));
        kit.expectAnswers(xs, ['200']);
        expectOneOf(kit, 'name', (await kit.admin('GET', collectionPath(id))).name, names, xs);
      },
    },
  ],
  'POST /v1/data-collections/{dataCollectionSimplyId}/archive': [
    {
      what: 'N identical archivings',
      async run(kit) {
        const { id } = await freshCollection(kit);
        const xs = await kit.race({ method: 'POST', path: `${collectionPath(id)}/archive`, body: { isArchived: true } });
        kit.expectAnswers(xs, ['200']);
        expectSame(kit, 'isArchived', (await kit.admin('GET', collectionPath(id))).isArchived, true, xs);
      },
    },
    {
      what: 'a SMART collection archived and restored N times at once (restoring rebuilds its members)',
      async run(kit) {
        const { smart, members } = await smartOverSource(kit);
        await kit.admin('POST', `${collectionPath(smart)}/archive`, { isArchived: true });
        const xs = await kit.race(Array.from({ length: N }, (_, i) => ({ method: 'POST', path: `${collectionPath(smart)}/archive`, body: { isArchived: i % 2 === 0 } })));
        kit.expectAnswers(xs, ['200', '409 CONFLICT']);
        await kit.admin('POST', `${collectionPath(smart)}/archive`, { isArchived: false });
        await expectMembers(kit, smart, members, xs);
      },
    },
  ],
  'POST /v1/data-collections/{dataCollectionSimplyId}/recalculate-record-names': [
    {
      what: 'N recalculations at once',
      async run(kit) {
        const c = await freshCollection(kit, { fields: 2, records: 5 });
        await kit.admin('PATCH', collectionPath(c.id), { dataRecordCalculatedNameFormula: `{${c.fieldIds[1]}}` });
        const xs = await kit.race({ method: 'POST', path: `${collectionPath(c.id)}/recalculate-record-names`, body: {} });
        kit.expectAnswers(xs, ['200']);
        const records = await readAll(kit, `/v1/data-records?dataCollectionSimplyId=${c.id}`);
        expectSame(kit, 'record names', records.map((r) => r.name).sort(), records.map((r) => r.fields[c.fieldIds[1]!]).sort(), xs);
      },
    },
  ],
  'POST /v1/data-collections/{dataCollectionSimplyId}/resync-smart-membership': [
    {
      what: 'N resyncs of one SMART collection at once (was a 500 duplicate key before 1d9d546)',
      async run(kit) {
        const { smart, members } = await smartOverSource(kit);
        const xs = await kit.race({ method: 'POST', path: `${collectionPath(smart)}/resync-smart-membership`, body: {} });
        kit.expectAnswers(xs, ['200']);
        await expectMembers(kit, smart, members, xs);
      },
    },
  ],
  'POST /v1/data-collections/{dataCollectionSimplyId}/fields': [
    {
      what: 'N fields with one columnName at once',
      async run(kit) {
        const c = await freshCollection(kit, { fields: 1 });
        const xs = await kit.race({ method: 'POST', path: `${collectionPath(c.id)}/fields`, body: { title: 'Same', dataType: 'PLAIN_TEXT', columnName: 'same' } });
        kit.expectAnswers(xs, ['201', '409 CONFLICT']);
        expectSuccesses(kit, xs, 1, 'a column name is unique in its collection');
        const fields = await fieldsOf(kit, c.id);
        expectSame(kit, 'fields named same', fields.filter((f) => f.columnName === 'same').length, 1, xs);
        expectSame(kit, 'fieldCount', (await kit.admin('GET', collectionPath(c.id))).fieldCount, fields.length, xs);
      },
    },
    {
      what: 'N fields with one title and no columnName (derived names step around each other)',
      async run(kit) {
        const c = await freshCollection(kit, { fields: 1 });
        const xs = await kit.race({ method: 'POST', path: `${collectionPath(c.id)}/fields`, body: { title: 'Twin', dataType: 'PLAIN_TEXT' } });
        kit.expectAnswers(xs, ['201', '409 CONFLICT']);
        const twins = (await fieldsOf(kit, c.id)).filter((f) => f.title === 'Twin');
        expectSame(kit, 'fields titled Twin', twins.length, succeeded(xs).length, xs);
        if (!distinct(twins.map((f) => f.columnName))) kit.problem(`two fields share a column name: ${JSON.stringify(twins.map((f) => f.columnName))}`, xs);
        expectDenseRanks(kit, 'sortOrders', (await fieldsOf(kit, c.id)).map((f) => f.sortOrder), 1 + twins.length, 0, xs);
      },
    },
  ],
  'PUT /v1/data-collections/{dataCollectionSimplyId}/fields/reorder': [
    {
      what: 'N identical orders',
      async run(kit) {
        const c = await freshCollection(kit, { fields: 4 });
        const order = [...c.fieldIds].reverse();
        const xs = await kit.race({ method: 'PUT', path: `${collectionPath(c.id)}/fields/reorder`, body: { orderedFieldSimplyIds: order } });
        kit.expectAnswers(xs, ['200']);
        expectSame(kit, 'field order', (await fieldsOf(kit, c.id)).map((f) => f.id), order, xs);
      },
    },
    {
      what: 'N different orders',
      async run(kit) {
        const c = await freshCollection(kit, { fields: 4 });
        const submitted = orders(c.fieldIds);
        const xs = await kit.race(submitted.map((o) => ({ method: 'PUT', path: `${collectionPath(c.id)}/fields/reorder`, body: { orderedFieldSimplyIds: o } })));
        kit.expectAnswers(xs, ['200']);
        const fields = await fieldsOf(kit, c.id);
        expectOneOf(kit, 'field order', fields.map((f) => f.id), submitted, xs);
        expectDenseRanks(kit, 'sortOrders', fields.map((f) => f.sortOrder), 4, 0, xs);
      },
    },
  ],
  'PATCH /v1/data-collections/{dataCollectionSimplyId}/fields/{dataFieldSimplyId}': [
    {
      what: 'N different titles for one field',
      async run(kit) {
        const c = await freshCollection(kit, { fields: 1 });
        const titles = Array.from({ length: N }, (_, i) => `Title ${i}`);
        const xs = await kit.race(titles.map((title) => ({ method: 'PATCH', path: `${collectionPath(c.id)}/fields/${c.fieldIds[0]}`, body: { title } })));
        kit.expectAnswers(xs, ['200']);
        expectOneOf(kit, 'title', (await fieldsOf(kit, c.id))[0]!.title, titles, xs);
      },
    },
    {
      what: 'N fields given one columnName at once',
      async run(kit) {
        const c = await freshCollection(kit, { fields: N });
        const xs = await kit.race(c.fieldIds.map((f) => ({ method: 'PATCH', path: `${collectionPath(c.id)}/fields/${f}`, body: { columnName: 'contested' } })));
        kit.expectAnswers(xs, ['200', '409 CONFLICT']);
        expectSuccesses(kit, xs, 1, 'a column name is unique in its collection');
        expectSame(kit, 'fields named contested', (await fieldsOf(kit, c.id)).filter((f) => f.columnName === 'contested').length, 1, xs);
      },
    },
    {
      what: 'N fields each moved to the front at once',
      async run(kit) {
        const c = await freshCollection(kit, { fields: N });
        const xs = await kit.race(c.fieldIds.map((f) => ({ method: 'PATCH', path: `${collectionPath(c.id)}/fields/${f}`, body: { sortOrder: 0 } })));
        kit.expectAnswers(xs, ['200']);
        expectDenseRanks(kit, 'sortOrders', (await fieldsOf(kit, c.id)).map((f) => f.sortOrder), N, 0, xs);
      },
    },
  ],
  'DELETE /v1/data-collections/{dataCollectionSimplyId}/fields/{dataFieldSimplyId}': [
    {
      what: 'N deletes of one field',
      async run(kit) {
        const c = await freshCollection(kit, { fields: 3 });
        const path = `${collectionPath(c.id)}/fields/${c.fieldIds[1]}`;
        const xs = await kit.race({ method: 'DELETE', path });
        kit.expectAnswers(xs, ['200', '404 NOT_FOUND']);
        await expectOneDeletion(kit, xs, { method: 'DELETE', path }, path);
        expectSame(kit, 'fieldCount', (await kit.admin('GET', collectionPath(c.id))).fieldCount, 2, xs);
      },
    },
    {
      what: 'N different fields deleted at once',
      async run(kit) {
        const c = await freshCollection(kit, { fields: N + 2 });
        const xs = await kit.race(c.fieldIds.slice(0, N).map((f) => ({ method: 'DELETE', path: `${collectionPath(c.id)}/fields/${f}` })));
        kit.expectAnswers(xs, ['200']);
        const left = await fieldsOf(kit, c.id);
        expectSame(kit, 'fields left', left.map((f) => f.id), c.fieldIds.slice(N), xs);
        expectSame(kit, 'fieldCount', (await kit.admin('GET', collectionPath(c.id))).fieldCount, 2, xs);
      },
    },
  ],
};


/** the admin detail's editable part, as PUT takes it */
async function adminBody(kit: RaceKit, id: string, change: Record<string, unknown> = {}) {
  const d = await kit.admin('GET', `${collectionPath(id)}/admin-detail`);
  return {
    name: d.name, singularName: d.singularName, pluralName: d.pluralName, archetype: d.archetype,
    parentDataCollectionSimplyId: d.parentDataCollectionSimplyId, dataRecordCalculatedNameFormula: d.dataRecordCalculatedNameFormula,
    filterCriteria: d.filterCriteria, ...change,
  };
}

const adminRaces: RaceTable = {
  'PUT /v1/data-collections/{dataCollectionSimplyId}/admin-detail': [
    {
      what: 'N configurations with different formulas and names (one wins whole; records named by it)',
      async run(kit) {
        const c = await freshCollection(kit, { fields: 2, records: 3 });
        const bodies = await Promise.all(Array.from({ length: N }, (_, i) => adminBody(kit, c.id, { name: `config ${i}`, dataRecordCalculatedNameFormula: `{${c.fieldIds[i % 2]}}` })));
        const xs = await kit.race(bodies.map((body) => ({ method: 'PUT', path: `${collectionPath(c.id)}/admin-detail`, body })));
        kit.expectAnswers(xs, ['200']);
        const d = await kit.admin('GET', `${collectionPath(c.id)}/admin-detail`);
        const winner = bodies.findIndex((b) => b.name === d.name);
        if (winner < 0) kit.problem(`name ${d.name} is none of the bodies`, xs);
        else expectSame(kit, 'formula of the winning body', d.dataRecordCalculatedNameFormula, bodies[winner]!.dataRecordCalculatedNameFormula, xs);
        const records = await readAll(kit, `/v1/data-records?dataCollectionSimplyId=${c.id}`);
        const named = c.fieldIds.indexOf(String(d.dataRecordCalculatedNameFormula).slice(1, -1));
        expectSame(kit, 'record names follow the formula', records.map((r) => r.name).sort(), records.map((r) => r.fields[c.fieldIds[named]!]).sort(), xs);
      },
    },
    {
      what: 'N configurations, each expecting the updatedAt read before: one applies, the others 409',
      async run(kit) {
        const c = await freshCollection(kit);
        const read = await kit.admin('GET', `${collectionPath(c.id)}/admin-detail`);
        await new Promise((r) => setTimeout(r, 5));
        const bodies = await Promise.all(Array.from({ length: N }, (_, i) => adminBody(kit, c.id, { name: `guarded ${i}`, expectedUpdatedAt: read.updatedAt })));
        const xs = await kit.race(bodies.map((body) => ({ method: 'PUT', path: `${collectionPath(c.id)}/admin-detail`, body })));
        kit.expectAnswers(xs, ['200', '409 CONFLICT']);
        expectSame(kit, 'configurations applied', succeeded(xs).length, 1, xs);
      },
    },
  ],
  'PUT /v1/data-collections/{dataCollectionSimplyId}/field-display-overrides': [
    {
      what: 'N different override sets (the collection ends with exactly one of them)',
      async run(kit) {
        const c = await freshCollection(kit, { fields: 3 });
        const sets = Array.from({ length: N }, (_, i) => ({ overrides: [{ dataFieldSimplyId: c.fieldIds[i % 3]!, label: `label ${i}`, position: i }] }));
        const xs = await kit.race(sets.map((body) => ({ method: 'PUT', path: `${collectionPath(c.id)}/field-display-overrides`, body })));
        kit.expectAnswers(xs, ['200']);
        const d = await kit.admin('GET', `${collectionPath(c.id)}/admin-detail`);
        const labelled = d.fields.filter((f: any) => f.display.label !== null);
        expectSame(kit, 'fields with a label', labelled.length, 1, xs);
        expectOneOf(kit, 'label', labelled[0]?.display.label, sets.map((s) => s.overrides[0]!.label), xs);
      },
    },
    {
      what: 'overrides raced against removing the field (no override of a removed field is left, no 500)',
      async run(kit) {
        const c = await freshCollection(kit, { fields: 2 });
        const xs = await kit.race([
          ...Array.from({ length: N - 1 }, () => ({ method: 'PUT', path: `${collectionPath(c.id)}/field-display-overrides`, body: { overrides: [{ dataFieldSimplyId: c.fieldIds[1]!, hidden: true }] } })),
          { method: 'DELETE', path: `${collectionPath(c.id)}/fields/${c.fieldIds[1]}` },
        ]);
        kit.expectAnswers(xs, ['200', '400 VALIDATION_ERROR']);
        const d = await kit.admin('GET', `${collectionPath(c.id)}/admin-detail`);
        expectSame(kit, 'fields left', d.fields.map((f: any) => f.id), [c.fieldIds[0]], xs);
      },
    },
  ],
  'POST /v1/data-collections/{dataCollectionSimplyId}/generate-field-descriptions': [
    {
      what: 'N drafts at once (the route world’s model is unreachable): each answered alike, nothing stored',
      async run(kit) {
        const c = await freshCollection(kit);
        const xs = await kit.race({ method: 'POST', path: `${collectionPath(c.id)}/generate-field-descriptions`, body: {} });
        kit.expectAnswers(xs, ['200', '424 AI_MODEL_ERROR', '403 AI_FEATURE_UNAVAILABLE']);
        const d = await kit.admin('GET', `${collectionPath(c.id)}/admin-detail`);
        expectSame(kit, 'descriptions stored', d.fields.filter((f: any) => f.description !== null).length, 0, xs);
      },
    },
  ],
  'PATCH /v1/data-collections/{dataCollectionSimplyId}/apply-field-descriptions': [
    {
      what: 'N different approvals of one field’s description (it ends as one of them); other fields untouched',
      async run(kit) {
        const c = await freshCollection(kit, { fields: 2 });
        const texts = Array.from({ length: N }, (_, i) => `description ${i}`);
        const xs = await kit.race(texts.map((description) => ({ method: 'PATCH', path: `${collectionPath(c.id)}/apply-field-descriptions`, body: { descriptions: [{ dataFieldSimplyId: c.fieldIds[0], description }] } })));
        kit.expectAnswers(xs, ['200']);
        const d = await kit.admin('GET', `${collectionPath(c.id)}/admin-detail`);
        expectOneOf(kit, 'description', d.fields[0].description, texts, xs);
        expectSame(kit, 'other field', d.fields[1].description, null, xs);
      },
    },
  ],
  'POST /v1/data-collections/{dataCollectionSimplyId}/recalculate-calculated-relationship-fields': [
    {
      what: 'N recalculations at once (nothing to recalculate: every answer zero)',
      async run(kit) {
        const c = await freshCollection(kit, { records: 2 });
        const xs = await kit.race({ method: 'POST', path: `${collectionPath(c.id)}/recalculate-calculated-relationship-fields` });
        kit.expectAnswers(xs, ['200']);
        for (const x of succeeded(xs)) expectSame(kit, 'updatedRecordCount', x.response.body.data.updatedRecordCount, 0, xs);
      },
    },
  ],
  'POST /v1/data-collections/{dataCollectionSimplyId}/preview-smart-membership': [
    {
      what: 'N previews raced against a resync: the same counts, members unchanged by previews',
      async run(kit) {
        const { smart, members } = await smartOverSource(kit);
        const xs = await kit.race([
          ...Array.from({ length: N - 1 }, () => ({ method: 'POST', path: `${collectionPath(smart)}/preview-smart-membership`, body: { sampleSize: 2 } })),
          { method: 'POST', path: `${collectionPath(smart)}/resync-smart-membership` },
        ]);
        kit.expectAnswers(xs, ['200']);
        for (const x of succeeded(xs).filter((e) => e.sent.path.endsWith('preview-smart-membership'))) {
          expectSame(kit, 'matchingRecordCount', x.response.body.data.matchingRecordCount, members, xs);
        }
        await expectMembers(kit, smart, members, xs);
      },
    },
  ],
  'POST /v1/data-collections/{dataCollectionSimplyId}/import-token': [
    {
      what: 'N tokens at once: each distinct (API keys refused)',
      async run(kit) {
        const c = await freshCollection(kit);
        const xs = await kit.race({ method: 'POST', path: `${collectionPath(c.id)}/import-token`, body: {} });
        if (kit.caller.kind === 'API key') return kit.expectAnswers(xs, ['403 IDP_REQUIRED']);
        kit.expectAnswers(xs, ['201']);
        if (!distinct(succeeded(xs).map((x) => x.response.body.data.importToken))) kit.problem('two requests got one token', xs);
      },
    },
  ],
};

export const kit: AreaTestKit = {
  races: { ...collectionRaces, ...adminRaces },
  idRouteBodies: {
    'PATCH /v1/data-collections/{dataCollectionSimplyId}': () => ({ archetype: 'PERSON' }),
    'POST /v1/data-collections/{dataCollectionSimplyId}/rename': () => ({ name: fresh('renamed collection') }),
    'POST /v1/data-collections/{dataCollectionSimplyId}/archive': () => ({ isArchived: false }),
    'POST /v1/data-collections/{dataCollectionSimplyId}/recalculate-record-names': () => ({}),
    'POST /v1/data-collections/{dataCollectionSimplyId}/resync-smart-membership': () => ({}),
    'POST /v1/data-collections/{dataCollectionSimplyId}/fields': () => ({ title: fresh('added field'), dataType: 'PLAIN_TEXT' }),
    'PUT /v1/data-collections/{dataCollectionSimplyId}/fields/reorder': (own) => ({ orderedFieldSimplyIds: [own.dataFieldSimplyId] }),
    'PATCH /v1/data-collections/{dataCollectionSimplyId}/fields/{dataFieldSimplyId}': () => ({ title: fresh('retitled field') }),
    'PUT /v1/data-collections/{dataCollectionSimplyId}/admin-detail': () => ({
      name: fresh('configured collection'), singularName: null, pluralName: null, archetype: null,
      parentDataCollectionSimplyId: null, dataRecordCalculatedNameFormula: null, filterCriteria: null,
    }),
    'PUT /v1/data-collections/{dataCollectionSimplyId}/field-display-overrides': (own) => ({ overrides: [{ dataFieldSimplyId: own.dataFieldSimplyId, label: fresh('label') }] }),
    'POST /v1/data-collections/{dataCollectionSimplyId}/generate-field-descriptions': (own) => ({ dataFieldSimplyIds: [own.dataFieldSimplyId] }),
    'PATCH /v1/data-collections/{dataCollectionSimplyId}/apply-field-descriptions': (own) => ({ descriptions: [{ dataFieldSimplyId: own.dataFieldSimplyId, description: fresh('description') }] }),
    'POST /v1/data-collections/{dataCollectionSimplyId}/recalculate-calculated-relationship-fields': () => ({}),
    'POST /v1/data-collections/{dataCollectionSimplyId}/preview-smart-membership': () => ({ sampleSize: 1 }),
    'POST /v1/data-collections/{dataCollectionSimplyId}/import-token': () => ({}),
  },
  readQueries: {
    'GET /v1/data-collections': () => 'limit=100&includeArchived=true',
  },
  async world({ call, name }) {
    const collection = await ok(await call('POST', '/v1/data-collections', { name: name('Collection') }), 'create collection');
    const field = await ok(await call('POST', `/v1/data-collections/${collection.id}/fields`, { title: name('Field'), dataType: 'PLAIN_TEXT' }), 'create field');
    return { ids: { dataCollectionSimplyId: collection.id, dataFieldSimplyId: field.id }, names: ['Collection', 'Field'] };
  },
};
