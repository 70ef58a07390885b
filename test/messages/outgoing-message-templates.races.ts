// Races on template authoring: creates, whole edits (each answer the template as its own edit left
// it), edits racing an archive (never written after it), archives (one lands, the others 404),
// duplicates (one copy each) and previews (nothing written, the same rendering each time).
import { readAll, unique } from '../concurrency/fresh-resources.ts';
import { expectOneDeletion, expectOneOf, expectSame } from '../concurrency/race-checks.ts';
import { N, succeeded, type RaceKit, type RaceTable } from '../concurrency/race-kit.ts';

const PATH = '/v1/outgoing-message-templates';
const one = (id: string) => `${PATH}/${id}`;

async function freshTemplate(kit: RaceKit): Promise<{ id: string; name: string }> {
  const name = unique('authored template');
  const created = await kit.admin('POST', PATH, { name, subjectLine: 'Hello {{first_name}}', htmlContent: '<p>Dear {{first_name}}</p>', textContent: 'Dear {{first_name}}' });
  return { id: created.id, name };
}

export const outgoingMessageTemplateRaces: RaceTable = {
  [`POST ${PATH}`]: [
    {
      what: 'N identical templates with content (names need not be unique)',
      async run(kit) {
        const name = unique('authored template');
        const xs = await kit.race({ method: 'POST', path: PATH, body: { name, subjectLine: 'Hi', htmlContent: '<p>Hi<script>x()</script></p>', designJson: { v: 1 } } });
        kit.expectAnswers(xs, ['201']);
        const ids = succeeded(xs).map((x) => x.response.body.data.id);
        expectSame(kit, 'distinct ids of the created templates', new Set(ids).size, ids.length, xs);
        expectSame(kit, 'distinct stored bodies', new Set(succeeded(xs).map((x) => x.response.body.data.htmlContent)), new Set(['<p>Hi</p>']), xs);
        expectSame(kit, 'templates with the name', (await readAll(kit, PATH)).filter((t) => t.name === name).length, succeeded(xs).length, xs);
      },
    },
  ],
  [`PATCH ${PATH}/{outgoingMessageTemplateSimplyId}`]: [
    {
      what: 'N different subjects, preheaders and bodies',
      async run(kit) {
        const { id } = await freshTemplate(kit);
        const bodies = Array.from({ length: N }, (_, i) => ({ subjectLine: `subject ${i}`, preheader: `preheader ${i}`, htmlContent: `<p>body ${i}</p>`, textContent: `text ${i}` }));
        const xs = await kit.race(bodies.map((body) => ({ method: 'PATCH', path: one(id), body })));
        kit.expectAnswers(xs, ['200']);
        for (const [i, x] of xs.entries()) {
          const data = x.response.body?.data;
          if (x.response.status === 200 && (data?.subjectLine !== bodies[i]!.subjectLine || data?.htmlContent !== bodies[i]!.htmlContent)) {
            kit.problem(`an edit answered with ${JSON.stringify(data?.subjectLine)}, not its own ${bodies[i]!.subjectLine}`, [x]);
          }
        }
        const t = await kit.admin('GET', one(id));
        expectOneOf(kit, 'the template', { subjectLine: t.subjectLine, preheader: t.preheader, htmlContent: t.htmlContent, textContent: t.textContent }, bodies, xs);
      },
    },
    {
      what: 'N edits racing an archive of the template',
      async run(kit) {
        const { id, name } = await freshTemplate(kit);
        const bodies = Array.from({ length: N - 1 }, (_, i) => ({ name: `name ${i}` }));
        const xs = await kit.race([...bodies.map((body) => ({ method: 'PATCH', path: one(id), body })), { method: 'DELETE', path: one(id) }]);
        // an edit after the archive is refused (409), whole
        kit.expectAnswers(xs, ['200']);
        const t = await kit.admin('GET', one(id));
        if (!t.archivedAt) kit.problem('the template is not archived after the race', xs);
        const written = xs.slice(0, N - 1).filter((x) => x.response.status === 200).map((x) => (x.sent.body as { name: string }).name);
        if (t.name !== name && !written.includes(t.name)) kit.problem(`the archived template is named ${JSON.stringify(t.name)}: neither its original name nor an edit answered 200`, xs);
      },
    },
  ],
  [`DELETE ${PATH}/{outgoingMessageTemplateSimplyId}`]: [
    {
      what: 'N archives of one template',
      async run(kit) {
        const { id } = await freshTemplate(kit);
        const xs = await kit.race({ method: 'DELETE', path: one(id) });
        kit.expectAnswers(xs, ['200', '404 NOT_FOUND']);
        await expectOneDeletion(kit, xs, { method: 'DELETE', path: one(id) });
        if (!(await kit.admin('GET', one(id))).archivedAt) kit.problem('the template is not archived after the deletes', xs);
        if ((await readAll(kit, PATH)).some((x) => x.id === id)) kit.problem('the archived template is still in the default list', xs);
      },
    },
  ],
  [`POST ${PATH}/{outgoingMessageTemplateSimplyId}/duplicate`]: [
    {
      what: 'N duplicates of one template',
      async run(kit) {
        const { id, name } = await freshTemplate(kit);
        const xs = await kit.race({ method: 'POST', path: `${one(id)}/duplicate`, body: {} });
        kit.expectAnswers(xs, ['201']);
        const ids = succeeded(xs).map((x) => x.response.body.data.id);
        expectSame(kit, 'distinct ids of the copies', new Set(ids).size, ids.length, xs);
        const copies = (await readAll(kit, PATH)).filter((t) => t.name === `${name} (copy)`);
        expectSame(kit, 'copies in the list', copies.length, ids.length, xs);
      },
    },
  ],
  [`POST ${PATH}/{outgoingMessageTemplateSimplyId}/preview`]: [
    {
      what: 'N previews of one template (nothing is written)',
      async run(kit) {
        const { id } = await freshTemplate(kit);
        const before = await kit.admin('GET', one(id));
        const xs = await kit.race({ method: 'POST', path: `${one(id)}/preview`, body: { sampleValues: { first_name: 'Ada' } } });
        kit.expectAnswers(xs, ['200']);
        expectSame(kit, 'distinct previews', new Set(succeeded(xs).map((x) => JSON.stringify(x.response.body.data))).size, 1, xs);
        expectSame(kit, 'the template after the previews', await kit.admin('GET', one(id)), before, xs);
      },
    },
  ],
};
