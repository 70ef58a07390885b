// Websites in the route-table suites (test/support/area-kit.ts): the races of their write routes,
// the bodies of their id routes, and a website with a page in the route world. Website routes are
// for people (API keys: IDP_REQUIRED), so everything here acts as the team's admin user.
//
// Races on websites: N creates with one name get N different slugs; N different settings on one
// site leave one whole body; one delete wins. Races on pages: N creates under one parent get
// positions 0…N-1 and different slugs; N moves keep every sibling list dense; N reorders leave one
// of the submitted trees; one delete wins. Access areas: N over one root page make one; N with a
// new root page make N pages, dense; a blog set-up is made once. Saved layouts: N creates make N;
// N content changes of one layout count N revisions; one delete wins; one detach of a synced layout
// wins (the others find no reference). Imports (the route world cannot reach a source site):
// N discovers or starts naming a private address are each refused and queue nothing; N reviews of
// an import that does not exist are each 404.
// Templates: N creates make N; N names of one leave one whole body; one delete (archive) wins; N
// releases are numbered 1…N; N sites from one template get N slugs and N copies; one apply of a
// pending release wins (the others find nothing to apply); one disconnect and one page detach win.
import { distinct, expectDenseRanks, expectOneOf, expectSame } from '../concurrency/race-checks.ts';
import { type Exchange, N, succeeded, type RaceKit, type RaceTable } from '../concurrency/race-kit.ts';
import { PERSON_ONLY } from '../concurrency/race-person.ts';
import { fresh, ok, type AreaTestKit } from '../support/area-kit.ts';
import { createCollection } from '../support/data-fixtures.ts';
import { aiIdRouteBodies, aiRaces } from './drafts-kit.ts';
import { untilTaskDone } from '../support/background-task-fixtures.ts';

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

const TEMPLATES = '/v1/website-templates';
const TEMPLATE = `${TEMPLATES}/{teamWebsiteTemplateSimplyId}`;

/** a released template of a one-page site, and (`mode`) a site made from it, its copy finished */
async function templateWithSite(kit: RaceKit, mode?: 'AUTO' | 'REVIEW'): Promise<{ template: string; site: string | null }> {
  const { site: source } = await siteWithPages(kit, 1);
  const template = (await asAdmin(kit, 'POST', TEMPLATES, { name: fresh('Race template'), sourceWebsiteSimplyId: source })).teamWebsiteTemplateSimplyId;
  await asAdmin(kit, 'POST', `${TEMPLATES}/${template}/release`, {});
  if (!mode) return { template, site: null };
  const made = await asAdmin(kit, 'POST', `${TEMPLATES}/${template}/websites`, { name: fresh('From template'), templateSyncMode: mode });
  await untilTaskDone(kit.server, { token: kit.team.userToken, teamId: kit.team.teamSimplyId }, made.backgroundTaskSimplyId);
  return { template, site: made.website.websiteSimplyId };
}

const VERSION = '/v1/website-page-versions/{versionSimplyId}';
const BACKUP = '/v1/website-backups/{websiteBackupSimplyId}';
const COMMENT = '/v1/website-comments/{commentSimplyId}';
const REPLY = '/v1/website-comment-replies/{replySimplyId}';
const AREA = '/v1/website-access-areas/{accessAreaSimplyId}';
const LAYOUT = `${SITE}/saved-layouts/{savedLayoutSimplyId}`;
const LAYOUT_CONTENT = (words: string) => ({ components: [{ tagName: 'p', components: [{ type: 'textnode', content: words }] }] });

/** N requests of one kind, each answered 2xx (a serialized write: one after the other, all applied) */
const allApplied = (what: string, build: (kit: RaceKit) => Promise<{ path: string; body?: unknown; check?: (xs: Exchange[]) => Promise<void> }>, status = '200') => ({
  what,
  callers: PERSON_ONLY,
  async run(kit: RaceKit) {
    const { path, body, check } = await build(kit);
    const xs = await kit.race({ method: 'POST', path, body });
    kit.expectAnswers(xs, [status]);
    await check?.(xs);
  },
});

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
  [`POST ${PAGE}/publish`]: [
    allApplied('N publishes of one page: each keeps a version, numbered 1…N', async (kit) => {
      const { pages } = await siteWithPages(kit, 1);
      return {
        path: `/v1/website-pages/${pages[0]}/publish`,
        body: {},
        async check(xs) {
          const versions = await asAdmin(kit, 'GET', `/v1/website-pages/${pages[0]}/versions?limit=100`);
          expectDenseRanks(kit, 'version numbers', versions.map((v: { number: number }) => v.number), succeeded(xs).length, 1, xs);
        },
      };
    }),
  ],
  [`POST ${PAGE}/submit-for-review`]: [
    {
      what: 'N submissions of one page: one moves it to IN_REVIEW, the others are refused',
      callers: PERSON_ONLY,
      async run(kit) {
        const { pages } = await siteWithPages(kit, 1);
        const xs = await kit.race({ method: 'POST', path: `/v1/website-pages/${pages[0]}/submit-for-review` });
        kit.expectAnswers(xs, ['200', '409 WEBSITE_PAGE_REVIEW_STATE']);
        expectSame(kit, 'successful submissions', succeeded(xs).length, 1, xs);
      },
    },
  ],
  [`POST ${PAGE}/request-changes`]: [
    {
      what: 'N requests for changes on one page in review: one applies',
      callers: PERSON_ONLY,
      async run(kit) {
        const { pages } = await siteWithPages(kit, 1);
        await asAdmin(kit, 'POST', `/v1/website-pages/${pages[0]}/submit-for-review`);
        const xs = await kit.race({ method: 'POST', path: `/v1/website-pages/${pages[0]}/request-changes`, body: { message: 'again' } });
        kit.expectAnswers(xs, ['200', '409 WEBSITE_PAGE_REVIEW_STATE']);
        expectSame(kit, 'successful requests', succeeded(xs).length, 1, xs);
      },
    },
  ],
  [`POST ${PAGE}/versions`]: [
    allApplied('N checkpoints of one page: numbered 1…N once each', async (kit) => {
      const { pages } = await siteWithPages(kit, 1);
      return {
        path: `/v1/website-pages/${pages[0]}/versions`,
        body: { label: 'race' },
        async check(xs) {
          const versions = await asAdmin(kit, 'GET', `/v1/website-pages/${pages[0]}/versions?limit=100`);
          expectDenseRanks(kit, 'version numbers', versions.map((v: { number: number }) => v.number), succeeded(xs).length, 1, xs);
        },
      };
    }, '201'),
  ],
  [`PATCH ${VERSION}`]: [
    {
      what: 'N different labels of one version: one stays',
      callers: PERSON_ONLY,
      async run(kit) {
        const { pages } = await siteWithPages(kit, 1);
        const version = await asAdmin(kit, 'POST', `/v1/website-pages/${pages[0]}/versions`, {});
        const bodies = Array.from({ length: N }, (_, i) => ({ label: `Label ${i}` }));
        const xs = await kit.race(bodies.map((body) => ({ method: 'PATCH', path: `/v1/website-page-versions/${version.versionSimplyId}`, body })));
        kit.expectAnswers(xs, ['200']);
        expectOneOf(kit, 'the label', (await asAdmin(kit, 'GET', `/v1/website-page-versions/${version.versionSimplyId}`)).label, bodies.map((b) => b.label), xs);
      },
    },
  ],
  [`POST ${VERSION}/restore`]: [
    allApplied('N restores of one version: each keeps the draft it replaces', async (kit) => {
      const { pages } = await siteWithPages(kit, 1);
      const version = await asAdmin(kit, 'POST', `/v1/website-pages/${pages[0]}/versions`, {});
      return {
        path: `/v1/website-page-versions/${version.versionSimplyId}/restore`,
        async check(xs) {
          const page = await asAdmin(kit, 'GET', `/v1/website-pages/${pages[0]}`);
          expectSame(kit, 'draft revision', page.draftRevision, 1 + succeeded(xs).length, xs);
          const versions = await asAdmin(kit, 'GET', `/v1/website-pages/${pages[0]}/versions?limit=100`);
          expectDenseRanks(kit, 'version numbers', versions.map((v: { number: number }) => v.number), 1 + succeeded(xs).length, 1, xs);
        },
      };
    }),
  ],
  [`POST ${SITE}/publish-activation`]: [allApplied('N activation tokens: each issued', async (kit) => ({ path: `${SITES}/${(await siteWithPages(kit, 0)).site}/publish-activation` }), '201')],
  [`POST ${SITE}/preview-sessions`]: [allApplied('N preview sessions of one site: each issued', async (kit) => ({ path: `${SITES}/${(await siteWithPages(kit, 1)).site}/preview-sessions`, body: {} }), '201')],
  [`POST ${SITE}/header-footer/publish`]: [allApplied('N header and footer publishes: each applied', async (kit) => ({ path: `${SITES}/${(await siteWithPages(kit, 0)).site}/header-footer/publish` }))],
  [`POST ${SITE}/campaign-chrome/publish`]: [
    allApplied('N campaign chrome publishes: each keeps a backup', async (kit) => {
      const { site } = await siteWithPages(kit, 1);
      await asAdmin(kit, 'PUT', `${SITES}/${site}`, { campaignChromeConfig: { version: 2, popups: [{ id: 'b', type: 'BANNER', enabled: true, accessibleLabel: 'Notice', html: '<p>Hi</p>' }] } });
      return {
        path: `${SITES}/${site}/campaign-chrome/publish`,
        async check(xs) {
          expectSame(kit, 'backups', (await asAdmin(kit, 'GET', `${SITES}/${site}/backups?limit=100`)).length, succeeded(xs).length, xs);
        },
      };
    }),
  ],
  [`POST ${SITE}/backups`]: [
    allApplied('N backups of one site: N kept', async (kit) => {
      const { site } = await siteWithPages(kit, 2);
      return {
        path: `${SITES}/${site}/backups`,
        body: {},
        async check(xs) {
          expectSame(kit, 'backups', (await asAdmin(kit, 'GET', `${SITES}/${site}/backups?limit=100`)).length, succeeded(xs).length, xs);
        },
      };
    }, '201'),
  ],
  [`POST ${BACKUP}/restore`]: [
    allApplied('N restores of one backup: the site ends as the backup, the tree dense', async (kit) => {
      const { site, pages } = await siteWithPages(kit, 2);
      const backup = await asAdmin(kit, 'POST', `${SITES}/${site}/backups`, {});
      await asAdmin(kit, 'DELETE', `/v1/website-pages/${pages[1]}`);
      await asAdmin(kit, 'POST', `${SITES}/${site}/pages`, { title: 'Added later' });
      return {
        path: `/v1/website-backups/${backup.websiteBackupSimplyId}/restore`,
        async check(xs) {
          const after = await expectDenseTree(kit, site, 2, xs);
          expectSame(kit, 'pages', after.map((p: { pageSimplyId: string }) => p.pageSimplyId).sort(), [...pages].sort(), xs);
        },
      };
    }),
  ],
  [`POST ${PAGE}/comments`]: [
    allApplied('N comments on one page: N kept', async (kit) => {
      const { pages } = await siteWithPages(kit, 1);
      return {
        path: `/v1/website-pages/${pages[0]}/comments`,
        body: { xPercent: 10, yPixels: 10, comment: 'race' },
        async check(xs) {
          expectSame(kit, 'comments', (await asAdmin(kit, 'GET', `/v1/website-pages/${pages[0]}/comments`)).length, succeeded(xs).length, xs);
        },
      };
    }, '201'),
  ],
  [`POST ${COMMENT}/resolve`]: [
    allApplied('N resolves of one comment: resolved once, by the first', async (kit) => {
      const { pages } = await siteWithPages(kit, 1);
      const comment = await asAdmin(kit, 'POST', `/v1/website-pages/${pages[0]}/comments`, { xPercent: 1, yPixels: 1, comment: 'x' });
      return {
        path: `/v1/website-comments/${comment.commentSimplyId}/resolve`,
        async check(xs) {
          expectSame(kit, 'resolvedAt answered', new Set(succeeded(xs).map((x) => x.response.body.data.resolvedAt)).size, 1, xs);
        },
      };
    }),
  ],
  [`POST ${COMMENT}/unresolve`]: [
    allApplied('N reopenings of one resolved comment: open', async (kit) => {
      const { pages } = await siteWithPages(kit, 1);
      const comment = await asAdmin(kit, 'POST', `/v1/website-pages/${pages[0]}/comments`, { xPercent: 1, yPixels: 1, comment: 'x' });
      await asAdmin(kit, 'POST', `/v1/website-comments/${comment.commentSimplyId}/resolve`);
      return { path: `/v1/website-comments/${comment.commentSimplyId}/unresolve` };
    }),
  ],
  [`POST ${COMMENT}/replies`]: [
    allApplied('N replies to one comment: N kept', async (kit) => {
      const { pages } = await siteWithPages(kit, 1);
      const comment = await asAdmin(kit, 'POST', `/v1/website-pages/${pages[0]}/comments`, { xPercent: 1, yPixels: 1, comment: 'x' });
      return {
        path: `/v1/website-comments/${comment.commentSimplyId}/replies`,
        body: { comment: 'reply' },
        async check(xs) {
          const [listed] = await asAdmin(kit, 'GET', `/v1/website-pages/${pages[0]}/comments`);
          expectSame(kit, 'replies', listed.replies.length, succeeded(xs).length, xs);
        },
      };
    }, '201'),
  ],
  [`DELETE ${COMMENT}`]: [
    {
      what: 'N deletes of one comment: one wins',
      callers: PERSON_ONLY,
      async run(kit) {
        const { pages } = await siteWithPages(kit, 1);
        const comment = await asAdmin(kit, 'POST', `/v1/website-pages/${pages[0]}/comments`, { xPercent: 1, yPixels: 1, comment: 'x' });
        const xs = await kit.race({ method: 'DELETE', path: `/v1/website-comments/${comment.commentSimplyId}` });
        kit.expectAnswers(xs, ['200', '404 NOT_FOUND']);
        expectSame(kit, 'successful deletes', succeeded(xs).length, 1, xs);
      },
    },
  ],
  [`DELETE ${REPLY}`]: [
    {
      what: 'N deletes of one reply: one wins',
      callers: PERSON_ONLY,
      async run(kit) {
        const { pages } = await siteWithPages(kit, 1);
        const comment = await asAdmin(kit, 'POST', `/v1/website-pages/${pages[0]}/comments`, { xPercent: 1, yPixels: 1, comment: 'x' });
        const reply = await asAdmin(kit, 'POST', `/v1/website-comments/${comment.commentSimplyId}/replies`, { comment: 'y' });
        const xs = await kit.race({ method: 'DELETE', path: `/v1/website-comment-replies/${reply.replySimplyId}` });
        kit.expectAnswers(xs, ['200', '404 NOT_FOUND']);
        expectSame(kit, 'successful deletes', succeeded(xs).length, 1, xs);
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
  [`POST ${SITE}/access-areas`]: [
    {
      what: 'N areas over one root page: one is made, the others are refused',
      callers: PERSON_ONLY,
      async run(kit) {
        const { site, pages } = await siteWithPages(kit, 1);
        const collection = await createCollection(kit.server, kit.team, { name: fresh('People'), fields: { name: 'PLAIN_TEXT' } });
        const xs = await kit.race({ method: 'POST', path: `${SITES}/${site}/access-areas`, body: { name: 'Members', rootPageSimplyIds: [pages[0]], admits: [{ dataCollectionSimplyId: collection.id }] } });
        kit.expectAnswers(xs, ['201', '409 WEBSITE_ACCESS_AREA_PAGE_TAKEN']);
        expectSame(kit, 'areas made', succeeded(xs).length, 1, xs);
        expectSame(kit, 'areas listed', (await asAdmin(kit, 'GET', `${SITES}/${site}/access-areas`)).length, 1, xs);
      },
    },
  ],
  [`POST ${SITE}/access-areas/root-page`]: [
    {
      what: 'N areas with a new root page of one title: N areas, N pages with different slugs',
      callers: PERSON_ONLY,
      async run(kit) {
        const { site } = await siteWithPages(kit, 1);
        const collection = await createCollection(kit.server, kit.team, { name: fresh('People'), fields: { name: 'PLAIN_TEXT' } });
        const xs = await kit.race({ method: 'POST', path: `${SITES}/${site}/access-areas/root-page`, body: { name: 'Members', admits: [{ dataCollectionSimplyId: collection.id }], page: { title: 'Members' } } });
        kit.expectAnswers(xs, ['201']);
        await expectDenseTree(kit, site, 1 + succeeded(xs).length, xs);
        const roots = (await asAdmin(kit, 'GET', `${SITES}/${site}/access-areas`)).map((a: { rootPageSimplyIds: string[] }) => a.rootPageSimplyIds[0]);
        expectSame(kit, 'areas', roots.length, succeeded(xs).length, xs);
        if (!distinct(roots)) kit.problem('two areas got one root page', xs);
      },
    },
  ],
  [`PUT ${AREA}`]: [
    {
      what: 'N different names of one area: one whole body stays',
      callers: PERSON_ONLY,
      async run(kit) {
        const { site } = await siteWithPages(kit, 0);
        const collection = await createCollection(kit.server, kit.team, { name: fresh('People'), fields: { name: 'PLAIN_TEXT' } });
        const area = await asAdmin(kit, 'POST', `${SITES}/${site}/access-areas/root-page`, { name: 'Members', admits: [{ dataCollectionSimplyId: collection.id }], page: { title: 'Members' } });
        const bodies = Array.from({ length: N }, (_, i) => ({ name: `Area ${i}`, enabled: i % 2 === 0 }));
        const xs = await kit.race(bodies.map((body) => ({ method: 'PUT', path: `/v1/website-access-areas/${area.accessAreaSimplyId}`, body })));
        kit.expectAnswers(xs, ['200']);
        const [after] = await asAdmin(kit, 'GET', `${SITES}/${site}/access-areas`);
        expectOneOf(kit, 'the area', { name: after.name, enabled: after.enabled }, bodies, xs);
      },
    },
  ],
  [`POST ${SITE}/saved-layouts`]: [
    allApplied('N creates of layouts on one site: N layouts', async (kit) => {
      const { site } = await siteWithPages(kit, 0);
      return {
        path: `${SITES}/${site}/saved-layouts`,
        body: { name: 'Banner', category: 'banner', contentJson: LAYOUT_CONTENT('Hello') },
        check: async (xs) => expectSame(kit, 'layouts listed', (await asAdmin(kit, 'GET', `${SITES}/${site}/saved-layouts`)).length, succeeded(xs).length, xs),
      };
    }, '201'),
  ],
  [`PATCH ${LAYOUT}`]: [
    {
      what: 'N content changes of one layout: N revisions, one whole body stays',
      callers: PERSON_ONLY,
      async run(kit) {
        const { site } = await siteWithPages(kit, 0);
        const layout = await asAdmin(kit, 'POST', `${SITES}/${site}/saved-layouts`, { name: 'Banner', category: 'banner', syncMode: 'SYNCED', contentJson: LAYOUT_CONTENT('Hello') });
        const bodies = Array.from({ length: N }, (_, i) => ({ name: `Banner ${i}`, contentJson: LAYOUT_CONTENT(`Version ${i}`) }));
        const path = `${SITES}/${site}/saved-layouts/${layout.savedLayoutSimplyId}`;
        const xs = await kit.race(bodies.map((body) => ({ method: 'PATCH', path, body })));
        kit.expectAnswers(xs, ['200']);
        const after = await asAdmin(kit, 'GET', path);
        expectSame(kit, 'content revision', after.contentRevision, 1 + succeeded(xs).length, xs);
        expectOneOf(kit, 'the layout', { name: after.name, words: after.contentJson.components[0].components[0].content }, bodies.map((b, i) => ({ name: b.name, words: `Version ${i}` })), xs);
      },
    },
  ],
  [`DELETE ${LAYOUT}`]: [
    {
      what: 'N deletes of one layout: one wins',
      callers: PERSON_ONLY,
      async run(kit) {
        const { site } = await siteWithPages(kit, 0);
        const layout = await asAdmin(kit, 'POST', `${SITES}/${site}/saved-layouts`, { name: 'Banner', category: 'banner', contentJson: LAYOUT_CONTENT('Hello') });
        const xs = await kit.race({ method: 'DELETE', path: `${SITES}/${site}/saved-layouts/${layout.savedLayoutSimplyId}` });
        kit.expectAnswers(xs, ['200', '404 NOT_FOUND']);
        expectSame(kit, 'successful deletes', succeeded(xs).length, 1, xs);
      },
    },
  ],
  [`POST ${PAGE}/synced-layouts/{savedLayoutSimplyId}/detach`]: [
    {
      what: 'N detaches of one synced layout from one page: one wins, one copy',
      callers: PERSON_ONLY,
      async run(kit) {
        const { site, pages } = await siteWithPages(kit, 1);
        const layout = await asAdmin(kit, 'POST', `${SITES}/${site}/saved-layouts`, { name: 'Banner', category: 'banner', syncMode: 'SYNCED', contentJson: LAYOUT_CONTENT('Hello') });
        await asAdmin(kit, 'PATCH', `/v1/website-pages/${pages[0]}/design`, { operations: [{ op: 'insertLayout', parentId: null, savedLayoutSimplyId: layout.savedLayoutSimplyId }] });
        const xs = await kit.race({ method: 'POST', path: `/v1/website-pages/${pages[0]}/synced-layouts/${layout.savedLayoutSimplyId}/detach` });
        kit.expectAnswers(xs, ['200', '409 WEBSITE_SYNCED_LAYOUT_NOT_ON_PAGE']);
        expectSame(kit, 'successful detaches', succeeded(xs).length, 1, xs);
        expectSame(kit, 'components on the page', (await asAdmin(kit, 'GET', `/v1/website-pages/${pages[0]}/design`)).design.components.length, 1, xs);
      },
    },
  ],
  [`POST ${SITES}/import/discover`]: [
    {
      what: 'N discovers of a private address: each refused',
      callers: PERSON_ONLY,
      async run(kit) {
        const xs = await kit.race({ method: 'POST', path: `${SITES}/import/discover`, body: { sourceUrl: 'http://10.20.30.40/' } });
        kit.expectAnswers(xs, ['400 WEBSITE_IMPORT_TARGET_REFUSED']);
      },
    },
  ],
  [`POST ${SITES}/import/start`]: [
    {
      what: 'N starts naming a private address: each refused, no import task queued',
      callers: PERSON_ONLY,
      async run(kit) {
        const tasks = async () => (await kit.server.request('GET', '/v1/background-tasks?enumBackgroundTaskTypeId=WEBSITE_IMPORT', { token: kit.team.userToken, teamId: kit.team.teamSimplyId })).body.data?.total ?? -1;
        const before = await tasks();
        const xs = await kit.race({ method: 'POST', path: `${SITES}/import/start`, body: { sourceUrl: 'http://192.168.7.7/', targetMode: 'NEW_WEBSITE' } });
        kit.expectAnswers(xs, ['400 WEBSITE_IMPORT_TARGET_REFUSED']);
        expectSame(kit, 'import tasks', await tasks(), before, xs);
      },
    },
  ],
  [`POST ${SITES}/import/{backgroundTaskSimplyId}/review`]: [
    {
      what: 'N reviews of an import that does not exist: each 404',
      callers: PERSON_ONLY,
      async run(kit) {
        const xs = await kit.race({ method: 'POST', path: `${SITES}/import/btk-2222-3333-4444/review`, body: { responses: [{ suggestionId: 'missing-images', action: 'ACCEPT' }] } });
        kit.expectAnswers(xs, ['404 NOT_FOUND']);
      },
    },
  ],
  [`POST ${TEMPLATES}`]: [
    allApplied('N creates of templates of one site: N different templates, each readable', async (kit) => {
      const { site } = await siteWithPages(kit, 1);
      return {
        path: TEMPLATES,
        body: { name: fresh('Template'), sourceWebsiteSimplyId: site },
        async check(xs) {
          const ids = succeeded(xs).map((x) => x.response.body.data.teamWebsiteTemplateSimplyId);
          if (!distinct(ids)) kit.problem('two creates answered one template', xs);
          for (const id of ids) expectSame(kit, `template ${id}`, (await asAdmin(kit, 'GET', `${TEMPLATES}/${id}`)).sourceWebsiteSimplyId, site, xs);
        },
      };
    }, '201'),
  ],
  [`PUT ${TEMPLATE}`]: [
    {
      what: 'N different names of one template: one whole body stays',
      callers: PERSON_ONLY,
      async run(kit) {
        const { template } = await templateWithSite(kit);
        const bodies = Array.from({ length: N }, (_, i) => ({ name: `Template ${i}`, description: `Description ${i}` }));
        const xs = await kit.race(bodies.map((body) => ({ method: 'PUT', path: `${TEMPLATES}/${template}`, body })));
        kit.expectAnswers(xs, ['200']);
        const after = await asAdmin(kit, 'GET', `${TEMPLATES}/${template}`);
        expectOneOf(kit, 'the template', { name: after.name, description: after.description }, bodies, xs);
      },
    },
  ],
  [`DELETE ${TEMPLATE}`]: [
    {
      what: 'N deletes of one template: one archives it',
      callers: PERSON_ONLY,
      async run(kit) {
        const { template } = await templateWithSite(kit);
        const xs = await kit.race({ method: 'DELETE', path: `${TEMPLATES}/${template}` });
        kit.expectAnswers(xs, ['200', '404 NOT_FOUND']);
        expectSame(kit, 'successful deletes', succeeded(xs).length, 1, xs);
      },
    },
  ],
  [`POST ${TEMPLATE}/release`]: [
    allApplied('N releases of one template: numbered 2…N+1 once each', async (kit) => {
      const { template } = await templateWithSite(kit);
      return {
        path: `${TEMPLATES}/${template}/release`,
        body: { releaseNotes: 'race' },
        async check(xs) {
          const numbers = succeeded(xs).map((x) => x.response.body.data.release.number);
          expectDenseRanks(kit, 'release numbers', numbers, succeeded(xs).length, 2, xs);
          expectSame(kit, 'newest release', (await asAdmin(kit, 'GET', `${TEMPLATES}/${template}`)).latestReleaseNumber, 1 + succeeded(xs).length, xs);
        },
      };
    }, '201'),
  ],
  [`POST ${TEMPLATE}/websites`]: [
    {
      what: 'N sites of one name from one template: N sites, N different slugs, N copy tasks',
      callers: PERSON_ONLY,
      async run(kit) {
        const { template } = await templateWithSite(kit);
        const xs = await kit.race({ method: 'POST', path: `${TEMPLATES}/${template}/websites`, body: { name: fresh('Same name') } });
        kit.expectAnswers(xs, ['201']);
        const made = succeeded(xs).map((x) => x.response.body.data);
        if (!distinct(made.map((m) => m.website.slug))) kit.problem('two sites got one slug', xs);
        if (!distinct(made.map((m) => m.backgroundTaskSimplyId))) kit.problem('two sites share a copy task', xs);
        expectSame(kit, 'connected sites', (await asAdmin(kit, 'GET', `${TEMPLATES}/${template}`)).connectedWebsiteCount, made.length, xs);
      },
    },
  ],
  [`POST ${SITE}/template/apply`]: [
    {
      what: 'N applies of one pending release: one applies it, the others find nothing to apply',
      callers: PERSON_ONLY,
      async run(kit) {
        const { template, site } = await templateWithSite(kit, 'REVIEW');
        await asAdmin(kit, 'POST', `${TEMPLATES}/${template}/release`, {});
        const xs = await kit.race({ method: 'POST', path: `${SITES}/${site}/template/apply` });
        kit.expectAnswers(xs, ['200', '409 WEBSITE_TEMPLATE_NOTHING_TO_APPLY']);
        expectSame(kit, 'successful applies', succeeded(xs).length, 1, xs);
        const connected = (await asAdmin(kit, 'GET', `${TEMPLATES}/${template}`)).websites[0];
        expectSame(kit, 'the site’s releases', [connected.appliedReleaseNumber, connected.pendingReleaseNumber], [2, null], xs);
      },
    },
  ],
  [`POST ${SITE}/template/disconnect`]: [
    {
      what: 'N disconnects of one site: one wins, the pages stay',
      callers: PERSON_ONLY,
      async run(kit) {
        const { site } = await templateWithSite(kit, 'AUTO');
        const xs = await kit.race({ method: 'POST', path: `${SITES}/${site}/template/disconnect` });
        kit.expectAnswers(xs, ['200', '409 WEBSITE_NOT_FROM_TEMPLATE']);
        expectSame(kit, 'successful disconnects', succeeded(xs).length, 1, xs);
        expectSame(kit, 'pages', (await asAdmin(kit, 'GET', `${SITES}/${site}/pages`)).length, 1, xs);
      },
    },
  ],
  [`POST ${PAGE}/template/detach`]: [
    {
      what: 'N detaches of one page from its template: one wins',
      callers: PERSON_ONLY,
      async run(kit) {
        const { site } = await templateWithSite(kit, 'AUTO');
        const [page] = await asAdmin(kit, 'GET', `${SITES}/${site}/pages`);
        const xs = await kit.race({ method: 'POST', path: `/v1/website-pages/${page.pageSimplyId}/template/detach` });
        kit.expectAnswers(xs, ['200', '409 WEBSITE_PAGE_NOT_FROM_TEMPLATE']);
        expectSame(kit, 'successful detaches', succeeded(xs).length, 1, xs);
      },
    },
  ],
  [`POST ${SITE}/blog/setup`]: [
    {
      what: 'N blog set-ups of one site: one makes the blog, the others answer it',
      callers: PERSON_ONLY,
      async run(kit) {
        const { site } = await siteWithPages(kit, 1);
        const xs = await kit.race({ method: 'POST', path: `${SITES}/${site}/blog/setup` });
        kit.expectAnswers(xs, ['201', '200']);
        expectSame(kit, 'set-ups that made the blog', xs.filter((x) => x.response.status === 201).length, 1, xs);
        await expectDenseTree(kit, site, 3, xs);
      },
    },
  ],
};

export const kit: AreaTestKit = {
  races: { ...websiteRaces, ...aiRaces },
  idRouteBodies: {
    ...aiIdRouteBodies,
    [`PUT ${SITE}`]: () => ({ metaTitle: fresh('Title') }),
    [`POST ${SITE}/pages`]: () => ({ title: fresh('Page') }),
    [`PUT ${SITE}/pages/reorder`]: (own) => ({ tree: [{ pageSimplyId: own.pageSimplyId }] }),
    [`PUT ${PAGE}`]: () => ({ metaTitle: fresh('Title') }),
    [`PATCH ${PAGE}/design`]: () => ({ operations: [{ op: 'insert', parentId: null, component: { tagName: 'p' } }] }),
    [`POST ${PAGE}/publish`]: () => ({}),
    [`POST ${PAGE}/request-changes`]: () => ({}),
    [`POST ${PAGE}/versions`]: () => ({ label: fresh('Label') }),
    [`PATCH ${VERSION}`]: () => ({ label: fresh('Label') }),
    [`POST ${SITE}/backups`]: () => ({}),
    [`POST ${SITE}/preview-sessions`]: () => ({}),
    [`POST ${PAGE}/comments`]: () => ({ xPercent: 1, yPixels: 1, comment: fresh('Comment') }),
    [`POST ${COMMENT}/replies`]: () => ({ comment: fresh('Reply') }),
    [`POST ${SITE}/access-areas`]: (own) => ({ name: fresh('Area'), rootPageSimplyIds: [own.pageSimplyId], admits: [{ dataCollectionSimplyId: own.dataCollectionSimplyId }] }),
    [`POST ${SITE}/access-areas/root-page`]: (own) => ({ name: fresh('Area'), admits: [{ dataCollectionSimplyId: own.dataCollectionSimplyId }], page: { title: fresh('Members') } }),
    [`PUT ${AREA}`]: () => ({ name: fresh('Area') }),
    [`POST ${SITE}/saved-layouts`]: () => ({ name: fresh('Layout'), category: 'banner', contentJson: LAYOUT_CONTENT('Hello') }),
    [`PATCH ${LAYOUT}`]: () => ({ name: fresh('Layout') }),
    [`POST ${SITES}/import/{backgroundTaskSimplyId}/review`]: () => ({ responses: [{ suggestionId: 'missing-images', action: 'ACCEPT' }] }),
    [`PUT ${TEMPLATE}`]: () => ({ description: fresh('Description') }),
    [`POST ${TEMPLATE}/release`]: () => ({ releaseNotes: fresh('Notes') }),
    [`POST ${TEMPLATE}/websites`]: () => ({ name: fresh('From template') }),
  },
  readQueries: {
    'GET /v1/website-comments': () => 'limit=100',
  },
  async world({ server, team, name, ids, need }) {
    const as = { token: team.userToken, teamId: team.teamSimplyId };
    const site = await ok(await server.request('POST', SITES, { ...as, body: { name: name('Website') } }), 'create website');
    const page = await ok(await server.request('POST', `${SITES}/${site.websiteSimplyId}/pages`, { ...as, body: { title: name('Website page') } }), 'create page');
    const version = await ok(await server.request('POST', `/v1/website-pages/${page.pageSimplyId}/versions`, { ...as, body: { label: name('Version') } }), 'save a version');
    const backup = await ok(await server.request('POST', `${SITES}/${site.websiteSimplyId}/backups`, { ...as, body: { summary: name('Backup') } }), 'back up');
    const comment = await ok(await server.request('POST', `/v1/website-pages/${page.pageSimplyId}/comments`, { ...as, body: { xPercent: 5, yPixels: 5, comment: name('Comment') } }), 'comment');
    const reply = await ok(await server.request('POST', `/v1/website-comments/${comment.commentSimplyId}/replies`, { ...as, body: { comment: name('Reply') } }), 'reply');
    const { dataCollectionSimplyId } = ids.dataCollectionSimplyId ? ids : await need('dataCollectionSimplyId');
    const area = await ok(
      await server.request('POST', `${SITES}/${site.websiteSimplyId}/access-areas/root-page`, { ...as, body: { name: name('Access area'), admits: [{ dataCollectionSimplyId }], page: { title: name('Members page') } } }),
      'access area',
    );
    const layout = await ok(
      await server.request('POST', `${SITES}/${site.websiteSimplyId}/saved-layouts`, { ...as, body: { name: name('Saved layout'), category: 'banner', syncMode: 'SYNCED', contentJson: LAYOUT_CONTENT(name('Layout text')) } }),
      'saved layout',
    );
    await ok(await server.request('PATCH', `/v1/website-pages/${page.pageSimplyId}/design`, { ...as, body: { operations: [{ op: 'insertLayout', parentId: null, savedLayoutSimplyId: layout.savedLayoutSimplyId }] } }), 'use the layout');
    const template = await ok(await server.request('POST', TEMPLATES, { ...as, body: { name: name('Website template'), description: name('Template description'), sourceWebsiteSimplyId: site.websiteSimplyId } }), 'website template');
    await ok(await server.request('POST', `${TEMPLATES}/${template.teamWebsiteTemplateSimplyId}/release`, { ...as, body: { releaseNotes: name('Release notes') } }), 'release the template');
    return {
      ids: {
        websiteSimplyId: site.websiteSimplyId,
        pageSimplyId: page.pageSimplyId,
        versionSimplyId: version.versionSimplyId,
        websiteBackupSimplyId: backup.websiteBackupSimplyId,
        commentSimplyId: comment.commentSimplyId,
        replySimplyId: reply.replySimplyId,
        accessAreaSimplyId: area.accessAreaSimplyId,
        savedLayoutSimplyId: layout.savedLayoutSimplyId,
        teamWebsiteTemplateSimplyId: template.teamWebsiteTemplateSimplyId,
      },
      names: ['Website', 'Website page', 'Version', 'Backup', 'Comment', 'Reply', 'Access area', 'Members page', 'Saved layout', 'Layout text', 'Website template', 'Template description', 'Release notes'],
    };
  },
};
