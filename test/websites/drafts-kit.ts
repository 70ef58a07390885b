// The AI routes of websites in the route-table suites (websites.kit.ts spreads this in): their races
// and the bodies of their id routes. The route world's model is a closed port, so a draft's model
// step fails (424) and a translation is queued (202) to fail in its task; either way no page's
// draft changes under the races.
import { expectSame } from '../concurrency/race-checks.ts';
import { N, type Exchange, type RaceKit, type RaceTable } from '../concurrency/race-kit.ts';
import { PERSON_ONLY } from '../concurrency/race-person.ts';
import { fresh, ok, type BodyFor } from '../support/area-kit.ts';

const SITE = '/v1/websites/{websiteSimplyId}';
const ONE_PAGE = `${SITE}/pages/{pageSimplyId}`;
const ANSWERS = ['200', '202', '424 AI_MODEL_ERROR', '403 AI_FEATURE_UNAVAILABLE'];

/** a site with one page holding a paragraph `lead`, made as the team's admin user (websites refuse API keys) */
async function siteWithText(kit: RaceKit): Promise<{ site: string; page: string; revision: number }> {
  const as = { token: kit.team.userToken, teamId: kit.team.teamSimplyId };
  const site = await ok(await kit.server.request('POST', '/v1/websites', { ...as, body: { name: fresh('AI race site') } }), 'create site');
  const page = await ok(await kit.server.request('POST', `/v1/websites/${site.websiteSimplyId}/pages`, { ...as, body: { title: 'Home' } }), 'create page');
  const lead = { tagName: 'p', attributes: { id: 'lead' }, components: [{ type: 'textnode', content: 'We care for the park' }] };
  const design = await ok(await kit.server.request('PATCH', `/v1/website-pages/${page.pageSimplyId}/design`, { ...as, body: { operations: [{ op: 'insert', parentId: null, component: lead }] } }), 'design');
  return { site: site.websiteSimplyId, page: page.pageSimplyId, revision: design.draftRevision };
}

/** the races changed no draft: drafts are only answers */
async function expectDraftUnchanged(kit: RaceKit, page: string, revision: number, xs: Exchange[]) {
  const as = { token: kit.team.userToken, teamId: kit.team.teamSimplyId };
  const design = await ok(await kit.server.request('GET', `/v1/website-pages/${page}/design`, as), 'read design');
  expectSame(kit, 'draft revision', design.draftRevision, revision, xs);
}

const draftRace = (what: string, path: (s: { site: string; page: string }) => string, body: () => unknown) => ({
  what,
  callers: PERSON_ONLY,
  async run(kit: RaceKit) {
    const made = await siteWithText(kit);
    const xs = await kit.race(Array.from({ length: N }, () => ({ method: 'POST', path: path(made), body: body() })));
    kit.expectAnswers(xs, ANSWERS);
    await expectDraftUnchanged(kit, made.page, made.revision, xs);
  },
});

export const aiRaces: RaceTable = {
  [`POST ${SITE}/translate/start`]: [draftRace('N translations started at once: each queued or refused alike, no draft changed', (s) => `/v1/websites/${s.site}/translate/start`, () => ({ targetLanguageTagIds: ['de'] }))],
  [`POST ${SITE}/page-drafts`]: [draftRace('N page drafts at once: nothing written', (s) => `/v1/websites/${s.site}/page-drafts`, () => ({ brief: fresh('A page') }))],
  [`POST ${SITE}/site-plan-drafts`]: [draftRace('N site plans at once: nothing written', (s) => `/v1/websites/${s.site}/site-plan-drafts`, () => ({ brief: fresh('A site') }))],
  [`POST ${ONE_PAGE}/block-drafts`]: [draftRace('N block drafts at once: nothing written', (s) => `/v1/websites/${s.site}/pages/${s.page}/block-drafts`, () => ({ brief: fresh('A block') }))],
  [`POST ${ONE_PAGE}/text-rewrite-drafts`]: [draftRace('N rewrites at once: nothing written', (s) => `/v1/websites/${s.site}/pages/${s.page}/text-rewrite-drafts`, () => ({ componentIds: ['lead'] }))],
};

export const aiIdRouteBodies: Record<string, BodyFor> = {
  [`POST ${SITE}/translate/start`]: () => ({ targetLanguageTagIds: ['de'] }),
  [`POST ${SITE}/page-drafts`]: () => ({ brief: fresh('A page') }),
  [`POST ${SITE}/site-plan-drafts`]: () => ({ brief: fresh('A site') }),
  [`POST ${ONE_PAGE}/block-drafts`]: () => ({ brief: fresh('A block') }),
  [`POST ${ONE_PAGE}/text-rewrite-drafts`]: () => ({ componentIds: ['nope'] }),
};
