// Websites in the route-table suites (test/support/area-kit.ts): the races of their write routes,
// the bodies of their id routes, and a website with a page in the route world. Website routes are
// for people (API keys: IDP_REQUIRED), so everything here acts as the team's admin user.
//
// Races on websites: N creates with one name get N different slugs; N different settings on one
// site leave one whole body; one delete wins. Races on pages: N creates under one parent get
// positions 0…N-1 and different slugs; N moves keep every sibling list dense; N reorders leave one
// of the submitted trees; one delete wins.
import { distinct, expectDenseRanks, expectOneOf, expectSame } from '../concurrency/race-checks.ts';
import { N, succeeded, type RaceKit, type RaceTable } from '../concurrency/race-kit.ts';
import { PERSON_ONLY } from '../concurrency/race-person.ts';
import { fresh, ok, type AreaTestKit } from '../support/area-kit.ts';

const SITES = '/v1/websites';
const SITE = `${SITES}/{websiteSimplyId}`;
const PAGE = '/v1/website-pages/{pageSimplyId}';

/** set-up and read-back as the team's admin user (websites refuse API keys) */
async function asAdmin(kit: RaceKit, method: string, path: string, body?: unknown): Promise<any> {
  return ok(await kit.server.request(method, path, { token: kit.team.userToken, teamId: kit.team.teamSimplyId, body }), `${method} ${path}`);
}

async function siteWithPages(kit: RaceKit, count: number): Promise<{ site: string; pages: string[] }> {
  const site = await asAdmin(kit, 'POST', SITES, { name: fresh('Race site') });
  const pages: string[] = [];
  for (let i = 0; i < count; i++) pages.push((await asAdmin(kit, 'POST', `${SITES}/${site.websiteSimplyId}/pages`, { title: `Page ${i}` })).pageSimplyId);
  return { site: site.websiteSimplyId, pages };
}

async function expectDenseTree(kit: RaceKit, site: string, count: number, exchanges: Parameters<typeof expectSame>[4]): Promise<any[]> {
  const pages = await asAdmin(kit, 'GET', `${SITES}/${site}/pages`);
  expectSame(kit, 'pages', pages.length, count, exchanges);
  const parents = new Set(pages.map((p: { parentPageSimplyId: string | null }) => p.parentPageSimplyId));
  for (const parent of parents) {
    const siblings = pages.filter((p: { parentPageSimplyId: string | null }) => p.parentPageSimplyId === parent);
    expectDenseRanks(kit, `positions under ${parent ?? 'the root'}`, siblings.map((p: { position: number }) => p.position), siblings.length, 0, exchanges);
    if (!distinct(siblings.map((p: { slug: string }) => p.slug))) kit.problem(`two pages under ${parent ?? 'the root'} share a slug`, exchanges);
  }
  expectSame(kit, 'home pages', pages.filter((p: { isHomePage: boolean }) => p.isHomePage).length, 1, exchanges);
  return pages;
}

const websiteRaces: RaceTable = {
  [`POST ${SITES}`]: [
    {
      what: 'N creates with one name: N sites, N different slugs',
      callers: PERSON_ONLY,
      async run(kit) {
        const name = fresh('Same name');
        const xs = await kit.race({ method: 'POST', path: SITES, body: { name } });
        kit.expectAnswers(xs, ['201']);
        const slugs = succeeded(xs).map((x) => x.response.body.data.slug);
        if (!distinct(slugs)) kit.problem('two sites got one slug', xs);
      },
    },
  ],
  [`PUT ${SITE}`]: [
    {
      what: 'N different settings of one site: one whole body stays',
      callers: PERSON_ONLY,
      async run(kit) {
        const { site } = await siteWithPages(kit, 0);
        const bodies = Array.from({ length: N }, (_, i) => ({ name: `Name ${i}`, metaTitle: `Title ${i}` }));
        const xs = await kit.race(bodies.map((body) => ({ method: 'PUT', path: `${SITES}/${site}`, body })));
        kit.expectAnswers(xs, ['200']);
        const after = await asAdmin(kit, 'GET', `${SITES}/${site}`);
        expectOneOf(kit, 'the settings', { name: after.name, metaTitle: after.metaTitle }, bodies, xs);
      },
    },
  ],
  [`DELETE ${SITE}`]: [
    {
      what: 'N deletes of one site: one wins',
      callers: PERSON_ONLY,
      async run(kit) {
        const { site } = await siteWithPages(kit, 1);
        const xs = await kit.race({ method: 'DELETE', path: `${SITES}/${site}` });
        kit.expectAnswers(xs, ['200', '404 NOT_FOUND']);
        expectSame(kit, 'successful deletes', succeeded(xs).length, 1, xs);
      },
    },
  ],
  [`POST ${SITE}/pages`]: [
    {
      what: 'N creates of one title at the root: positions 0…N, different slugs, one home page',
      callers: PERSON_ONLY,
      async run(kit) {
        const { site } = await siteWithPages(kit, 1);
        const xs = await kit.race({ method: 'POST', path: `${SITES}/${site}/pages`, body: { title: 'Same title' } });
        kit.expectAnswers(xs, ['201']);
        await expectDenseTree(kit, site, 1 + succeeded(xs).length, xs);
      },
    },
  ],
  [`PUT ${SITE}/pages/reorder`]: [
    {
      what: 'N different orders of one tree: one submitted tree stays, dense',
      callers: PERSON_ONLY,
      async run(kit) {
        const { site, pages } = await siteWithPages(kit, 4);
        const trees = Array.from({ length: N }, (_, i) => {
          const rest = pages.slice(1);
          const rotated = [...rest.slice(i % rest.length), ...rest.slice(0, i % rest.length)];
          return { tree: [{ pageSimplyId: pages[0]! }, ...rotated.map((p) => ({ pageSimplyId: p }))] };
        });
        const xs = await kit.race(trees.map((body) => ({ method: 'PUT', path: `${SITES}/${site}/pages/reorder`, body })));
        kit.expectAnswers(xs, ['200']);
        const after = await expectDenseTree(kit, site, pages.length, xs);
        expectOneOf(kit, 'the order', after.map((p: { pageSimplyId: string }) => p.pageSimplyId), trees.map((t) => t.tree.map((n) => n.pageSimplyId)), xs);
      },
    },
  ],
  [`PUT ${PAGE}`]: [
    {
      what: 'N pages moved under one parent at once: positions dense, slugs distinct',
      callers: PERSON_ONLY,
      async run(kit) {
        const { site, pages } = await siteWithPages(kit, N + 1);
        const [parent, ...moving] = pages;
        const xs = await kit.race(moving.map((p) => ({ method: 'PUT', path: `/v1/website-pages/${p}`, body: { parentPageSimplyId: parent } })));
        kit.expectAnswers(xs, ['200']);
        await expectDenseTree(kit, site, pages.length, xs);
      },
    },
  ],
  [`PATCH ${PAGE}/design`]: [
    {
      what: 'N patches inserting different sections into one draft: all N kept, N revisions',
      callers: PERSON_ONLY,
      async run(kit) {
        const { pages } = await siteWithPages(kit, 1);
        const path = `/v1/website-pages/${pages[0]}/design`;
        const xs = await kit.race(Array.from({ length: N }, (_, i) => ({ method: 'PATCH', path, body: { operations: [{ op: 'insert', parentId: null, component: { tagName: 'section', attributes: { id: `race${i}` } } }] } })));
        kit.expectAnswers(xs, ['200']);
        const after = await asAdmin(kit, 'GET', path);
        expectSame(kit, 'sections kept', after.design.components.length, succeeded(xs).length, xs);
        expectSame(kit, 'draft revision', after.draftRevision, 1 + succeeded(xs).length, xs);
      },
    },
  ],
  [`DELETE ${PAGE}`]: [
    {
      what: 'N deletes of one page of three: one wins, the others close up',
      callers: PERSON_ONLY,
      async run(kit) {
        const { site, pages } = await siteWithPages(kit, 3);
        const path = `/v1/website-pages/${pages[2]}`;
        const xs = await kit.race({ method: 'DELETE', path });
        kit.expectAnswers(xs, ['200', '404 NOT_FOUND']);
        expectSame(kit, 'successful deletes', succeeded(xs).length, 1, xs);
        await expectDenseTree(kit, site, 2, xs);
      },
    },
  ],
};

export const kit: AreaTestKit = {
  races: websiteRaces,
  idRouteBodies: {
    [`PUT ${SITE}`]: () => ({ metaTitle: fresh('Title') }),
    [`POST ${SITE}/pages`]: () => ({ title: fresh('Page') }),
    [`PUT ${SITE}/pages/reorder`]: (own) => ({ tree: [{ pageSimplyId: own.pageSimplyId }] }),
    [`PUT ${PAGE}`]: () => ({ metaTitle: fresh('Title') }),
    [`PATCH ${PAGE}/design`]: () => ({ operations: [{ op: 'insert', parentId: null, component: { tagName: 'p' } }] }),
  },
  async world({ server, team, name }) {
    const as = { token: team.userToken, teamId: team.teamSimplyId };
    const site = await ok(await server.request('POST', SITES, { ...as, body: { name: name('Website') } }), 'create website');
    const page = await ok(await server.request('POST', `${SITES}/${site.websiteSimplyId}/pages`, { ...as, body: { title: name('Website page') } }), 'create page');
    return { ids: { websiteSimplyId: site.websiteSimplyId, pageSimplyId: page.pageSimplyId }, names: ['Website', 'Website page'] };
  },
};
