// Races on message templates: creates, whole-body updates, and archiving (DELETE), where a
// repeated archive is a 404 and the template stays readable by id.
import { readAll, unique } from '../concurrency/fresh-resources.ts';
import { expectOneDeletion, expectOneOf, expectSame } from '../concurrency/race-checks.ts';
import { N, succeeded, type RaceKit, type RaceTable } from '../concurrency/race-kit.ts';

const PATH = '/v1/message-templates';

async function freshTemplate(kit: RaceKit): Promise<string> {
  return (await kit.admin('POST', PATH, { name: unique('template'), subjectLine: 'race' })).id;
}

export const messageTemplateRaces: RaceTable = {
  [`POST ${PATH}`]: [
    {
      what: 'N identical templates (names need not be unique)',
      async run(kit) {
        const name = unique('template');
        const xs = await kit.race({ method: 'POST', path: PATH, body: { name, deliveryMethod: 'SMS', designFormat: 'PLAIN_TEXT' } });
        kit.expectAnswers(xs, ['201']);
        const ids = succeeded(xs).map((x) => x.response.body.data.id);
        expectSame(kit, 'distinct ids of the created templates', new Set(ids).size, ids.length, xs);
        expectSame(kit, 'templates with the name', (await readAll(kit, PATH)).filter((t) => t.name === name).length, succeeded(xs).length, xs);
      },
    },
  ],
  [`PUT ${PATH}/{outgoingMessageTemplateSimplyId}`]: [
    {
      what: 'N different names, descriptions and subjects',
      async run(kit) {
        const id = await freshTemplate(kit);
        const bodies = Array.from({ length: N }, (_, i) => ({ name: `name ${i}`, description: `description ${i}`, subjectLine: `subject ${i}` }));
        const xs = await kit.race(bodies.map((body) => ({ method: 'PUT', path: `${PATH}/${id}`, body })));
        kit.expectAnswers(xs, ['200']);
        // each answer is the template as its own update left it
        for (const [i, x] of xs.entries()) {
          const data = x.response.body?.data;
          if (x.response.status === 200 && data?.name !== bodies[i]!.name) kit.problem(`an update answered with name ${JSON.stringify(data?.name)}, not its own ${bodies[i]!.name}`, [x]);
        }
        const t = await kit.admin('GET', `${PATH}/${id}`);
        expectOneOf(kit, 'the template', { name: t.name, description: t.description, subjectLine: t.subjectLine }, bodies, xs);
      },
    },
    {
      what: 'N updates racing an archive of the template',
      async run(kit) {
        const original = unique('template');
        const id = (await kit.admin('POST', PATH, { name: original })).id;
        const bodies = Array.from({ length: N - 1 }, (_, i) => ({ name: `name ${i}` }));
        const xs = await kit.race([...bodies.map((body) => ({ method: 'PUT', path: `${PATH}/${id}`, body })), { method: 'DELETE', path: `${PATH}/${id}` }]);
        // an update after the archive is refused (409), whole
        kit.expectAnswers(xs, ['200']);
        const archive = xs[N - 1]!;
        if (archive.response.body?.data?.deleted !== true) kit.problem('the archive did not answer { deleted: true }', [archive]);
        const t = await kit.admin('GET', `${PATH}/${id}`);
        if (!t.archivedAt) kit.problem('the template is not archived after the race', xs);
        const written = xs.slice(0, N - 1).filter((x) => x.response.status === 200).map((x) => (x.sent.body as { name: string }).name);
        if (t.name !== original && !written.includes(t.name)) kit.problem(`the archived template is named ${JSON.stringify(t.name)}: neither its original name nor an update answered 200`, xs);
      },
    },
  ],
  [`DELETE ${PATH}/{outgoingMessageTemplateSimplyId}`]: [
    {
      what: 'N archives of one template',
      async run(kit) {
        const id = await freshTemplate(kit);
        const xs = await kit.race({ method: 'DELETE', path: `${PATH}/${id}` });
        kit.expectAnswers(xs, ['200', '404 NOT_FOUND']);
        await expectOneDeletion(kit, xs, { method: 'DELETE', path: `${PATH}/${id}` });
        const t = await kit.admin('GET', `${PATH}/${id}`);
        if (!t.archivedAt) kit.problem('the template is not archived after the deletes', xs);
        if ((await readAll(kit, PATH)).some((x) => x.id === id)) kit.problem('the archived template is still in the default list', xs);
      },
    },
  ],
};
