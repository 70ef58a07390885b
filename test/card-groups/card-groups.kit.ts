// Card groups in the route-table suites (test/support/area-kit.ts): the races of their
// administration routes, the bodies of the id routes, and a card group on the world's collection
// (the record routes render it on the world's record). The area's tests are
// test/records/card-groups*.test.ts, beside the record routes they serve.
//
// Races on card groups: concurrent creates and moves keep the positions 0…n-1 once each, the
// last writer's whole group stays, one delete wins.
import { freshCollection, unique } from '../concurrency/fresh-resources.ts';
import { expectDenseRanks, expectOneDeletion, expectOneOf, expectSame } from '../concurrency/race-checks.ts';
import { N, succeeded, type RaceKit, type RaceTable } from '../concurrency/race-kit.ts';
import { fresh, ok, type AreaTestKit } from '../support/area-kit.ts';

const COLLECTION = '/v1/data-collections/{dataCollectionSimplyId}/card-groups';
const GROUP = `${COLLECTION}/{dataCardGroupSimplyId}`;
const groupsOf = (collection: string) => `/v1/data-collections/${collection}/card-groups`;

const body = (name: string, fieldId: string, extra: Record<string, unknown> = {}) => ({ name, cards: [{ kind: 'FIELDS', dataFieldSimplyIds: [fieldId] }], ...extra });

/** a collection with `count` card groups */
async function withGroups(kit: RaceKit, count: number): Promise<{ collection: string; fieldIds: string[]; groupIds: string[] }> {
  const c = await freshCollection(kit, { fields: 2 });
  const groupIds: string[] = [];
  for (let i = 0; i < count; i++) groupIds.push((await kit.admin('POST', groupsOf(c.id), body(unique('group'), c.fieldIds[0]!))).id);
  return { collection: c.id, fieldIds: c.fieldIds, groupIds };
}

async function expectDensePositions(kit: RaceKit, collection: string, count: number, exchanges: Parameters<typeof expectSame>[4]): Promise<any[]> {
  const groups = await kit.admin('GET', groupsOf(collection));
  expectSame(kit, 'card groups', groups.length, count, exchanges);
  expectDenseRanks(kit, 'card group positions', groups.map((g: { position: number }) => g.position), count, 0, exchanges);
  return groups;
}

const cardGroupRaces: RaceTable = {
  [`POST ${COLLECTION}`]: [
    {
      what: 'N creates at the front of one collection: every group made, positions 0…N once each',
      async run(kit) {
        const g = await withGroups(kit, 1);
        const xs = await kit.race(Array.from({ length: N }, (_, i) => ({ method: 'POST', path: groupsOf(g.collection), body: body(`group ${i}`, g.fieldIds[0]!, { position: 0 }) })));
        kit.expectAnswers(xs, ['201']);
        const groups = await expectDensePositions(kit, g.collection, 1 + succeeded(xs).length, xs);
        // the group made first was pushed back by every create at the front
        expectSame(kit, 'the first group’s position', groups.find((x: { id: string }) => x.id === g.groupIds[0])?.position, succeeded(xs).length, xs);
      },
    },
  ],
  [`PUT ${GROUP}`]: [
    {
      what: 'N different replaces of one group: one whole body stays',
      async run(kit) {
        const g = await withGroups(kit, 1);
        const bodies = Array.from({ length: N }, (_, i) => body(`name ${i}`, g.fieldIds[i % 2]!));
        const xs = await kit.race(bodies.map((b) => ({ method: 'PUT', path: `${groupsOf(g.collection)}/${g.groupIds[0]}`, body: b })));
        kit.expectAnswers(xs, ['200']);
        const [group] = await expectDensePositions(kit, g.collection, 1, xs);
        expectOneOf(kit, 'the group', { name: group.name, fields: group.cards[0].dataFieldSimplyIds }, bodies.map((b) => ({ name: b.name, fields: b.cards[0]!.dataFieldSimplyIds })), xs);
      },
    },
    {
      what: 'N moves of different groups to different places: positions stay 0…n-1 once each',
      async run(kit) {
        const g = await withGroups(kit, N);
        const xs = await kit.race(g.groupIds.map((id, i) => ({ method: 'PUT', path: `${groupsOf(g.collection)}/${id}`, body: body(`moved ${i}`, g.fieldIds[0]!, { position: N - 1 - i }) })));
        kit.expectAnswers(xs, ['200']);
        await expectDensePositions(kit, g.collection, N, xs);
      },
    },
  ],
  [`DELETE ${GROUP}`]: [
    {
      what: 'N deletes of one group of three: one wins, the other two close up',
      async run(kit) {
        const g = await withGroups(kit, 3);
        const path = `${groupsOf(g.collection)}/${g.groupIds[0]}`;
        const xs = await kit.race({ method: 'DELETE', path });
        kit.expectAnswers(xs, ['200', '404 NOT_FOUND']);
        await expectOneDeletion(kit, xs, { method: 'DELETE', path });
        await expectDensePositions(kit, g.collection, 2, xs);
      },
    },
  ],
};

export const kit: AreaTestKit = {
  races: cardGroupRaces,
  idRouteBodies: {
    [`POST ${COLLECTION}`]: (own) => body(fresh('group'), own.dataFieldSimplyId!),
    [`PUT ${GROUP}`]: (own) => body(fresh('group'), own.dataFieldSimplyId!),
  },
  async world({ call, name, ids }) {
    const group = await ok(
      await call('POST', groupsOf(ids.dataCollectionSimplyId!), { name: name('Card group'), cards: [{ kind: 'FIELDS', title: name('Card'), dataFieldSimplyIds: [ids.dataFieldSimplyId] }] }),
      'create card group',
    );
    return { ids: { dataCardGroupSimplyId: group.id }, names: ['Card group', 'Card'] };
  },
};
