// Content templates in the route-table suites (test/support/area-kit.ts): the races of their write
// routes, the bodies of their id routes, and a document template in the route world.
//
// Races on content templates: creates, PATCH (the row lock makes the design rule and the archive
// check hold), archiving (a repeat is 404), previews (read-only), copies, link (reassign) and the
// always-refused unlink.
import { freshCollection, readAll, unique } from '../concurrency/fresh-resources.ts';
import { expectOneDeletion, expectOneOf, expectSame } from '../concurrency/race-checks.ts';
import { N, succeeded, type RaceKit, type RaceTable } from '../concurrency/race-kit.ts';
import { fresh, ok, type AreaTestKit } from '../support/area-kit.ts';

const PATH = '/v1/content-templates';
const one = (id: string) => `${PATH}/${id}`;

async function freshDocumentTemplate(kit: RaceKit): Promise<{ id: string; collection: string; record: string }> {
  const c = await freshCollection(kit, { fields: 1, records: 1 });
  const t = await kit.admin('POST', PATH, { name: unique('template'), dataCollectionSimplyId: c.id, textContent: 'Hi {{field_0}}', documentSettings: {} });
  return { id: t.id, collection: c.id, record: c.recordIds[0]! };
}

const contentTemplateRaces: RaceTable = {
  [`POST ${PATH}`]: [
    {
      what: 'N identical message templates (names need not be unique)',
      async run(kit) {
        const name = unique('template');
        const xs = await kit.race({ method: 'POST', path: PATH, body: { name, textContent: 'Hello', usageTypes: ['OUTGOING_MESSAGE'] } });
        kit.expectAnswers(xs, ['201']);
        const ids = succeeded(xs).map((x) => x.response.body.data.id);
        expectSame(kit, 'distinct ids of the created templates', new Set(ids).size, ids.length, xs);
        expectSame(kit, 'templates with the name', (await readAll(kit, `${PATH}?search=${encodeURIComponent(name)}`)).length, succeeded(xs).length, xs);
      },
    },
  ],
  [`PATCH ${PATH}/{contentTemplateSimplyId}`]: [
    {
      what: 'N different names and designs',
      async run(kit) {
        const { id } = await freshDocumentTemplate(kit);
        const bodies = Array.from({ length: N }, (_, i) => ({ name: `name ${i}`, designHtml: `<p>design ${i}</p>` }));
        const xs = await kit.race(bodies.map((body) => ({ method: 'PATCH', path: one(id), body })));
        kit.expectAnswers(xs, ['200']);
        for (const [i, x] of xs.entries()) {
          const data = x.response.body?.data;
          if (x.response.status === 200 && data?.name !== bodies[i]!.name) kit.problem(`an update answered with name ${JSON.stringify(data?.name)}, not its own ${bodies[i]!.name}`, [x]);
        }
        const t = await kit.admin('GET', one(id));
        expectOneOf(kit, 'the template', { name: t.name, designHtml: t.designHTML }, bodies, xs);
      },
    },
    {
      what: 'N-1 designs racing the removal of the page settings (a design never stays without settings)',
      async run(kit) {
        const { id } = await freshDocumentTemplate(kit);
        const xs = await kit.race([
          ...Array.from({ length: N - 1 }, (_, i) => ({ method: 'PATCH', path: one(id), body: { designHtml: `<p>${i}</p>` } })),
          { method: 'PATCH', path: one(id), body: { documentSettings: null } },
        ]);
        kit.expectAnswers(xs, ['200', '400 VALIDATION_ERROR']);
        const t = await kit.admin('GET', one(id));
        if (t.hasDesign && !t.hasDocumentSettings) kit.problem('the template has a design but no documentSettings after the race', xs);
      },
    },
    {
      what: 'N updates racing an archive of the template',
      async run(kit) {
        const { id } = await freshDocumentTemplate(kit);
        const xs = await kit.race([...Array.from({ length: N - 1 }, (_, i) => ({ method: 'PATCH', path: one(id), body: { name: `name ${i}` } })), { method: 'DELETE', path: one(id) }]);
        // an update after the archive is refused whole (409)
        kit.expectAnswers(xs, ['200', '409 CONFLICT']);
        if ((await kit.admin('GET', one(id))).archivedAt === null) kit.problem('the template is not archived after the race', xs);
      },
    },
  ],
  [`DELETE ${PATH}/{contentTemplateSimplyId}`]: [
    {
      what: 'N archives of one template',
      async run(kit) {
        const { id } = await freshDocumentTemplate(kit);
        const xs = await kit.race({ method: 'DELETE', path: one(id) });
        kit.expectAnswers(xs, ['200', '404 NOT_FOUND']);
        await expectOneDeletion(kit, xs, { method: 'DELETE', path: one(id) });
        if (!(await kit.admin('GET', one(id))).archivedAt) kit.problem('the template is not archived after the deletes', xs);
      },
    },
  ],
  [`POST ${PATH}/{contentTemplateSimplyId}/preview-render`]: [
    {
      what: 'N previews of one template for one record (nothing is written)',
      async run(kit) {
        const { id, record } = await freshDocumentTemplate(kit);
        const xs = await kit.race({ method: 'POST', path: `${one(id)}/preview-render`, body: { dataRecordSimplyId: record } });
        kit.expectAnswers(xs, ['200']);
        expectSame(kit, 'distinct previews', new Set(succeeded(xs).map((x) => x.response.body.data.html)).size, 1, xs);
      },
    },
  ],
  [`POST ${PATH}/{contentTemplateSimplyId}/copy`]: [
    {
      what: 'N copies of one template',
      async run(kit) {
        const { id, collection } = await freshDocumentTemplate(kit);
        const xs = await kit.race({ method: 'POST', path: `${one(id)}/copy`, body: {} });
        kit.expectAnswers(xs, ['201']);
        const ids = succeeded(xs).map((x) => x.response.body.data.id);
        expectSame(kit, 'distinct ids of the copies', new Set(ids).size, ids.length, xs);
        expectSame(kit, 'templates of the collection', (await kit.admin('GET', `${PATH}/collection/${collection}`)).length, ids.length + 1, xs);
      },
    },
  ],
  [`POST ${PATH}/collection/{dataCollectionSimplyId}/link`]: [
    {
      what: 'one template linked to N collections at once: it ends in exactly one of them',
      async run(kit) {
        const { id } = await freshDocumentTemplate(kit);
        const targets = await Promise.all(Array.from({ length: N }, () => freshCollection(kit, { fields: 1 })));
        const xs = await kit.race(targets.map((c) => ({ method: 'POST', path: `${PATH}/collection/${c.id}/link`, body: { contentTemplateSimplyId: id } })));
        kit.expectAnswers(xs, ['200']);
        const t = await kit.admin('GET', one(id));
        expectOneOf(kit, 'the collection', t.dataCollectionSimplyId, targets.map((c) => c.id), xs);
        const listing = await Promise.all(targets.map((c) => kit.admin('GET', `${PATH}/collection/${c.id}`)));
        expectSame(kit, 'collections listing the template', listing.filter((l: { id: string }[]) => l.some((x) => x.id === id)).length, 1, xs);
      },
    },
    {
      what: 'links of one template racing its archive: a link after the archive is refused whole',
      async run(kit) {
        const { id, collection } = await freshDocumentTemplate(kit);
        const targets = await Promise.all(Array.from({ length: N - 1 }, () => freshCollection(kit, { fields: 1 })));
        const xs = await kit.race([...targets.map((c) => ({ method: 'POST', path: `${PATH}/collection/${c.id}/link`, body: { contentTemplateSimplyId: id } })), { method: 'DELETE', path: one(id) }]);
        kit.expectAnswers(xs, ['200']);
        const t = await kit.admin('GET', one(id));
        if (!t.archivedAt) kit.problem('the template is not archived after the race', xs);
        // where it was, or where a link that answered 200 put it
        const possible = [collection, ...targets.filter((_, i) => xs[i]!.response.status === 200).map((c) => c.id)];
        if (!possible.includes(t.dataCollectionSimplyId)) kit.problem(`the template ended in ${t.dataCollectionSimplyId}: neither its collection nor one a link answered 200 for`, xs);
      },
    },
  ],
  [`DELETE ${PATH}/collection/{dataCollectionSimplyId}/link/{contentTemplateSimplyId}`]: [
    {
      what: 'N unlinks of a document template: all refused, the assignment stays',
      async run(kit) {
        const { id, collection } = await freshDocumentTemplate(kit);
        const xs = await kit.race({ method: 'DELETE', path: `${PATH}/collection/${collection}/link/${id}` });
        kit.expectAnswers(xs, ['400 VALIDATION_ERROR']);
        expectSame(kit, 'the collection', (await kit.admin('GET', one(id))).dataCollectionSimplyId, collection, xs);
      },
    },
  ],
};

export const kit: AreaTestKit = {
  races: contentTemplateRaces,
  idRouteBodies: {
    'PATCH /v1/content-templates/{contentTemplateSimplyId}': () => ({ name: fresh('renamed content template') }),
    'POST /v1/content-templates/{contentTemplateSimplyId}/preview-render': (own) => ({ dataRecordSimplyId: own.dataRecordSimplyId }),
    'POST /v1/content-templates/{contentTemplateSimplyId}/copy': () => ({}),
    'POST /v1/content-templates/collection/{dataCollectionSimplyId}/link': (own) => ({ contentTemplateSimplyId: own.contentTemplateSimplyId }),
  },
  async world({ call, name, ids }) {
    const contentTemplate = await ok(
      await call('POST', '/v1/content-templates', {
        name: name('Content template'),
        dataCollectionSimplyId: ids.dataCollectionSimplyId,
        textContent: 'Hello {{record.name}}',
        documentSettings: { headerHtml: '<b>{{record.name}}</b>' },
      }),
      'create content template',
    );
    return { ids: { contentTemplateSimplyId: contentTemplate.id }, names: ['Content template'] };
  },
};
