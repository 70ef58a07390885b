// Action tags in the route-table suites (test/support/area-kit.ts): the races of their write
// routes, the bodies of their id routes, and an ACTIVE tag in the route world.
//
// Races: N creates make N tags with N ids; N renames of one tag leave one of the names; one delete
// wins (the others 404); N bulk generations over one collection leave exactly one tag per record.
import { setActionTagPlan } from '../../src/modules/action-tags/action-tag-plan.service.ts';
import { distinct, expectOneOf, expectSame, expectSuccesses } from '../concurrency/race-checks.ts';
import { N, succeeded, type RaceKit, type RaceTable } from '../concurrency/race-kit.ts';
import { PERSON_ONLY } from '../concurrency/race-person.ts';
import { fresh, ok, type AreaTestKit } from '../support/area-kit.ts';
import { createCollection } from '../support/data-fixtures.ts';
import { createRecord } from '../support/record-fixtures.ts';
import { extrasIdRouteBodies, extrasRaces, extrasWorld } from './webhooks-domains-csv.races.ts';

const TAGS = '/v1/action-tags';
const TAG = `${TAGS}/{simplyActionTagSimplyId}`;

const tag = async (kit: RaceKit): Promise<string> => (await kit.admin('POST', TAGS, { name: fresh('Race tag'), status: 'ACTIVE', actionUrl: 'https://example.org/race' })).id;

const races: RaceTable = {
  [`POST ${TAGS}`]: [
    {
      what: 'N creates',
      async run(kit) {
        const xs = await kit.race(Array.from({ length: N }, (_, i) => ({ method: 'POST', path: TAGS, body: { name: fresh(`race ${i}`), actionUrl: 'https://example.org/' } })));
        kit.expectAnswers(xs, ['201']);
        expectSame(kit, 'distinct ids', distinct(succeeded(xs).map((x) => x.response.body.data.id)), true, xs);
        const page = await kit.adminResponse('GET', `${TAGS}?limit=500`);
        expectSame(kit, 'tags listed', page.body.meta.pagination.total, succeeded(xs).length, xs);
      },
    },
  ],
  [`PUT ${TAG}`]: [
    {
      what: 'N renames of one tag',
      async run(kit) {
        const id = await tag(kit);
        const bodies = Array.from({ length: N }, (_, i) => ({ name: `Renamed ${i}` }));
        const xs = await kit.race(bodies.map((body) => ({ method: 'PUT', path: `${TAGS}/${id}`, body })));
        kit.expectAnswers(xs, ['200']);
        expectOneOf(kit, 'name', { name: (await kit.admin('GET', `${TAGS}/${id}`)).name }, bodies, xs);
      },
    },
  ],
  [`DELETE ${TAG}`]: [
    {
      what: 'N deletes of one tag',
      async run(kit) {
        const id = await tag(kit);
        const xs = await kit.race({ method: 'DELETE', path: `${TAGS}/${id}` });
        kit.expectAnswers(xs, ['200', '404 NOT_FOUND']);
        expectSuccesses(kit, xs, 1, 'a tag is deleted once');
      },
    },
  ],
  [`POST ${TAGS}/bulk-generate`]: [
    {
      what: 'N bulk generations over one collection',
      callers: PERSON_ONLY,
      async run(kit) {
        await setActionTagPlan(kit.server.app.services, kit.team.teamSimplyId, { preset: 'paid-500' }, null);
        const collection = await createCollection(kit.server, kit.team, { name: fresh('Race cards'), fields: { title: 'PLAIN_TEXT' } });
        for (let i = 0; i < 3; i++) await createRecord(kit.server, kit.team.apiKey, collection.id, { title: `Card ${i}` });
        const xs = await kit.race({ method: 'POST', path: `${TAGS}/bulk-generate`, body: { dataCollectionSimplyId: collection.id, actionUrl: 'https://example.org/card' } });
        kit.expectAnswers(xs, ['201']);
        const made = await kit.server.app.services.prisma.actionTag.groupBy({ by: ['dataRecordSimplyId'], where: { teamId: kit.team.teamId, dataCollectionSimplyId: collection.id }, _count: true });
        expectSame(kit, 'records with a tag', made.length, 3, xs);
        expectSame(kit, 'tags per record', made.every((m) => m._count === 1), true, xs);
      },
    },
  ],
};

export const kit: AreaTestKit = {
  // CSV, domains and lifecycle webhooks: webhooks-domains-csv.races.ts
  races: { ...races, ...extrasRaces },
  readQueries: {
    // the fuller read: every traffic class
    [`GET ${TAGS}/analytics`]: () => 'trafficClass=ALL',
  },
  idRouteBodies: {
    [`PUT ${TAG}`]: () => ({ name: fresh('Renamed tag') }),
    ...extrasIdRouteBodies,
  },
  async world(world) {
    const { call, name } = world;
    const made = await ok(await call('POST', TAGS, { name: name('Action tag'), status: 'ACTIVE', actionUrl: 'https://example.org/world' }), 'create an action tag');
    const extras = await extrasWorld(world);
    return { ids: { simplyActionTagSimplyId: made.id, ...extras.ids }, names: ['Action tag'] };
  },
};
