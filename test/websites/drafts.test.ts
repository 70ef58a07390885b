// AI drafts (docs/api/websites.md "AI drafts"): a page, a site plan, blocks and text rewrites from
// a brief. The model's answer is read into the design components' shape, what the design rules
// refuse is taken out (script, event handlers, javascript: links), a malformed answer gets one
// repair turn and then 424, and nothing is written until an editor applies the operations with the
// design PATCH. Without a model every route (and translate/start) answers 403. Against the local
// model server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectOk } from '../support/expect-envelope.ts';
import { createTeam, type TeamFixture } from '../support/fixtures.ts';
import { startModelServer, type ModelServer } from '../support/model-server.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { text } from './served-fixtures.ts';
import { adminOf, call, createPage, createSite, memberWith } from './websites-fixtures.ts';

let model: ModelServer;
let server: TestServer;
let team: TeamFixture;
let site: string;
let page: string;

beforeAll(async () => {
  model = await startModelServer();
  server = await startTestServer({ env: { AI_BASE_URL: model.baseUrl, AI_MODEL: 'test-model', AI_MAX_RETRIES: 0, AI_TIMEOUT_MS: 5000 } as never });
  team = await createTeam(server);
  site = (await createSite(server, adminOf(team))).websiteSimplyId;
  page = (await createPage(server, adminOf(team), site, { title: 'Home' })).pageSimplyId;
  expectOk(
    await call(server, adminOf(team), 'PATCH', `/v1/website-pages/${page}/design`, {
      operations: [
        { op: 'insert', parentId: null, component: { tagName: 'section', attributes: { id: 'main' }, components: [text('lead', 'We care for the park'), text('more', 'Join us on Saturdays')] } },
      ],
    }),
  );
});
afterAll(async () => {
  await server?.close();
  await model?.close();
});

const SITE = () => `/v1/websites/${site}`;
const PAGE = () => `${SITE()}/pages/${page}`;
const post = (path: string, body: unknown) => call(server, adminOf(team), 'POST', path, body);
const answer = (value: unknown) => ({ text: JSON.stringify(value) });
const designOf = async (id: string) => expectOk(await call(server, adminOf(team), 'GET', `/v1/website-pages/${id}/design`));

const hostileComponents = [
  { tagName: 'section', classes: ['hero'], components: [{ tagName: 'h1', components: [{ type: 'textnode', content: 'Volunteer days' }] }, { tagName: 'script', components: [{ type: 'textnode', content: 'alert(1)' }] }] },
  { type: 'image', tagName: 'img', attributes: { src: 'https://example.org/a.png', alt: 'Volunteers', onerror: 'alert(2)' } },
  { tagName: 'a', attributes: { href: 'javascript:alert(3)', title: 'Join' }, style: { background: 'url(javascript:alert(4))', color: 'red' }, components: [{ type: 'textnode', content: 'Join' }] },
];

describe('page drafts', () => {
  it('answers a page draft whose operations an editor applies with the design PATCH; nothing is written before', async () => {
    model.reset();
    model.reply(
      answer({
        title: 'Volunteer days',
        metaDescription: 'Help us care for the park',
        components: [{ tagName: 'section', attributes: { id: 'main' }, classes: ['hero'], components: [{ tagName: 'h1', components: [{ type: 'textnode', content: 'Volunteer days' }] }] }],
        styles: [{ selectors: ['.hero'], style: { padding: '2rem' } }],
      }),
    );
    const before = await designOf(page);
    const draft = expectOk(await post(`${SITE()}/page-drafts`, { brief: 'A page about volunteer days' }));
    expect(draft).toMatchObject({ websiteSimplyId: site, title: 'Volunteer days', metaDescription: 'Help us care for the park', removed: [] });
    // the model's id is never kept: the platform names components
    const section = draft.design.components[0];
    expect(section.attributes.id).toMatch(/^c[0-9a-f]{10}$/);
    expect(draft.operations[0]).toEqual({ op: 'insert', parentId: null, component: section });
    expect(draft.operations[1]).toEqual({ op: 'setRule', selectors: ['.hero'], style: { padding: '2rem' } });
    // the brief reached the model as data
    expect(JSON.stringify(model.requests[0]!.body.messages)).toContain('A page about volunteer days');
    expect((await designOf(page)).draftRevision).toBe(before.draftRevision);

    // accepting: a new page, and the operations as they are
    const target = (await createPage(server, adminOf(team), site, { title: draft.title })).pageSimplyId;
    expectOk(await call(server, adminOf(team), 'PATCH', `/v1/website-pages/${target}/design`, { operations: draft.operations }));
    const accepted = await designOf(target);
    expect(accepted.design.components[0].attributes.id).toBe(section.attributes.id);
    expect(accepted.design.styles[0].style).toEqual({ padding: '2rem' });
  });

  it('takes out what could run in a visitor’s browser and says so', async () => {
    model.reset();
    model.reply(answer({ title: 'Hostile', components: hostileComponents }));
    const draft = expectOk(await post(`${SITE()}/page-drafts`, { brief: 'anything' }));
    const json = JSON.stringify(draft.design);
    expect(json).not.toContain('script');
    expect(json).not.toContain('alert');
    expect(json).not.toContain('onerror');
    expect(json).not.toContain('javascript');
    expect(json).toContain('Volunteer days');
    expect(json).toContain('"alt":"Volunteers"');
    expect(json).toContain('"color":"red"');
    const fields = draft.removed.map((r: { field: string }) => r.field);
    expect(fields).toEqual(
      expect.arrayContaining([expect.stringMatching(/components\.0\.components\.1$/), expect.stringMatching(/attributes\.onerror$/), expect.stringMatching(/attributes\.href$/), expect.stringMatching(/style\.background$/)]),
    );
    // still a design the PATCH accepts
    const target = (await createPage(server, adminOf(team), site, { title: 'Hostile' })).pageSimplyId;
    expectOk(await call(server, adminOf(team), 'PATCH', `/v1/website-pages/${target}/design`, { operations: draft.operations }));
  });

  it('repairs a malformed answer once, then answers 424 with what was wrong', async () => {
    model.reset();
    model.reply({ text: 'Sure! Here is your page: <h1>Hi</h1>' }, answer({ title: 'Fixed', components: [{ tagName: 'p', components: [{ type: 'textnode', content: 'Now JSON' }] }] }));
    const repaired = expectOk(await post(`${SITE()}/page-drafts`, { brief: 'a page' }));
    expect(repaired.title).toBe('Fixed');
    expect(model.requests).toHaveLength(2);
    expect(JSON.stringify(model.requests[1]!.body.messages)).toContain('cannot be used');

    model.reset();
    model.reply(answer({ title: 'No components' }), answer({ title: 'Still none', components: 'a string' }));
    const refused = expectError(await post(`${SITE()}/page-drafts`, { brief: 'a page' }), 424, 'AI_MODEL_ERROR');
    expect(JSON.stringify(refused.details)).toContain('answer.components');
    expect(model.requests).toHaveLength(2);
  });

  it('answers 424 when the model step fails, without its message', async () => {
    model.reset();
    model.reply({ error: { status: 500, message: 'secret provider detail' } });
    const failed = expectError(await post(`${SITE()}/page-drafts`, { brief: 'a page' }), 424, 'AI_MODEL_ERROR');
    expect(JSON.stringify(failed)).not.toContain('secret provider detail');
  });

  it('refuses a bad brief and a VIEWER', async () => {
    expectError(await post(`${SITE()}/page-drafts`, { brief: '' }), 400, 'VALIDATION_ERROR');
    expectError(await post(`${SITE()}/page-drafts`, {}), 400, 'VALIDATION_ERROR');
    const viewer = await memberWith(server, team, ['TEAM_WEBSITES:VIEW']);
    expect((await call(server, viewer, 'POST', `${SITE()}/page-drafts`, { brief: 'x' })).status).toBe(403);
  });
});

describe('site plan drafts', () => {
  it('answers a page tree with purposes and sections, slugs made fit and cut to maxPages', async () => {
    model.reset();
    model.reply(
      answer({
        pages: [
          { title: 'Home', slug: 'home', purpose: 'Welcome', sections: [{ heading: 'Hero', purpose: 'Say who we are' }] },
          { title: 'Über uns <script>', purpose: 'Who we are', children: [{ title: 'Team', purpose: 'The people' }, { title: 'History' }] },
          { title: 'Donate' },
        ],
      }),
    );
    const plan = expectOk(await post(`${SITE()}/site-plan-drafts`, { brief: 'A park association', maxPages: 4 }));
    expect(plan.totalPages).toBe(4);
    expect(plan.pages.map((p: { slug: string }) => p.slug)).toEqual(['home', 'uber-uns-script']);
    expect(plan.pages[0].sections).toEqual([{ heading: 'Hero', purpose: 'Say who we are' }]);
    expect(plan.pages[1].children.map((p: { title: string }) => p.title)).toEqual(['Team', 'History']);
  });

  it('answers 424 for an answer that is not a plan, after one repair', async () => {
    model.reset();
    model.reply(answer({ pages: 'none' }), answer({ plan: [] }));
    expectError(await post(`${SITE()}/site-plan-drafts`, { brief: 'A park association' }), 424, 'AI_MODEL_ERROR');
    expect(model.requests).toHaveLength(2);
  });
});

describe('block drafts', () => {
  it('answers blocks with insert operations under the parent given, sending the page’s outline', async () => {
    model.reset();
    model.reply(answer({ blocks: [{ tagName: 'div', classes: ['cta'], components: [{ tagName: 'a', attributes: { href: '/join' }, components: [{ type: 'textnode', content: 'Become a member' }] }] }] }));
    const draft = expectOk(await post(`${PAGE()}/block-drafts`, { brief: 'A call to action', parentId: 'main', index: 1 }));
    expect(draft.blocks).toHaveLength(1);
    expect(draft.operations).toEqual([{ op: 'insert', parentId: 'main', index: 1, component: draft.blocks[0] }]);
    expect(JSON.stringify(model.requests[0]!.body.messages)).toContain('We care for the park');
    const before = await designOf(page);
    expectOk(await call(server, adminOf(team), 'PATCH', `/v1/website-pages/${page}/design`, { operations: draft.operations, baseRevision: draft.draftRevision }));
    const after = await designOf(page);
    expect(after.design.components[0].components[1].attributes.id).toBe(draft.blocks[0].attributes.id);
    expect(after.draftRevision).toBe(before.draftRevision + 1);
  });

  it('takes out hostile parts, and answers 424 for malformed blocks', async () => {
    model.reset();
    model.reply(answer({ blocks: hostileComponents.slice(0, 3) }));
    const draft = expectOk(await post(`${PAGE()}/block-drafts`, { brief: 'x', count: 3 }));
    expect(JSON.stringify(draft.blocks)).not.toMatch(/script|onerror|javascript|alert/);
    expect(draft.removed.length).toBeGreaterThanOrEqual(4);

    model.reset();
    model.reply(answer({ blocks: [{ tagName: 'p', components: 'text' }] }), answer({ blocks: [] }));
    expectError(await post(`${PAGE()}/block-drafts`, { brief: 'x' }), 424, 'AI_MODEL_ERROR');
  });

  it('refuses a parent that is not in the draft, and a page of another site', async () => {
    const unknown = expectError(await post(`${PAGE()}/block-drafts`, { brief: 'x', parentId: 'nope' }), 400, 'VALIDATION_ERROR');
    expect(unknown.details![0]!.field).toBe('parentId');
    const other = (await createSite(server, adminOf(team))).websiteSimplyId;
    expectError(await post(`/v1/websites/${other}/pages/${page}/block-drafts`, { brief: 'x' }), 404, 'NOT_FOUND');
  });
});

describe('text rewrite drafts', () => {
  it('answers rewrites with setText operations, markup taken out', async () => {
    model.reset();
    model.reply(answer({ rewrites: { lead: 'We look after our park', more: 'Come along <script>alert(1)</script>on Saturdays' } }));
    const draft = expectOk(await post(`${PAGE()}/text-rewrite-drafts`, { componentIds: ['lead', 'more'], tone: 'warm', length: 'SHORTER' }));
    expect(draft.rewrites[0]).toEqual({ id: 'lead', before: 'We care for the park', text: 'We look after our park' });
    expect(draft.rewrites[1].text).not.toContain('<');
    expect(draft.removed.map((r: { field: string }) => r.field)).toEqual(['rewrites.more']);
    expect(draft.operations[0]).toEqual({ op: 'setText', id: 'lead', text: 'We look after our park' });
    const sent = JSON.stringify(model.requests[0]!.body.messages);
    expect(sent).toContain('Join us on Saturdays');
    expect(sent).toContain('shorter');
    expectOk(await call(server, adminOf(team), 'PATCH', `/v1/website-pages/${page}/design`, { operations: draft.operations }));
  });

  it('answers 424 when a rewrite is missing after the repair, 400 for components that are not there', async () => {
    model.reset();
    model.reply(answer({ rewrites: { lead: 'Only one' } }), answer({ rewrites: { lead: 'Still one' } }));
    const refused = expectError(await post(`${PAGE()}/text-rewrite-drafts`, { componentIds: ['lead', 'more'] }), 424, 'AI_MODEL_ERROR');
    expect(JSON.stringify(refused.details)).toContain('answer.rewrites.more');
    const missing = expectError(await post(`${PAGE()}/text-rewrite-drafts`, { componentIds: ['lead', 'ghost'] }), 400, 'VALIDATION_ERROR');
    expect(missing.details![0]!.field).toBe('componentIds.1');
    expectError(await post(`${PAGE()}/text-rewrite-drafts`, { componentIds: ['main', 'main'] }), 400, 'VALIDATION_ERROR');
  });
});

describe('without a model', () => {
  let bare: TestServer;
  let bareTeam: TeamFixture;
  beforeAll(async () => {
    bare = await startTestServer();
    bareTeam = await createTeam(bare);
  });
  afterAll(async () => {
    await bare?.close();
  });

  it('refuses every AI route with 403 AI_FEATURE_UNAVAILABLE', async () => {
    const admin = adminOf(bareTeam);
    const s = (await createSite(bare, admin)).websiteSimplyId;
    const p = (await createPage(bare, admin, s, { title: 'Home' })).pageSimplyId;
    expectOk(await call(bare, admin, 'PATCH', `/v1/website-pages/${p}/design`, { operations: [{ op: 'insert', parentId: null, component: text('t', 'Hello') }] }));
    const routes: [string, unknown][] = [
      [`/v1/websites/${s}/translate/start`, { targetLanguageTagIds: ['de'] }],
      [`/v1/websites/${s}/page-drafts`, { brief: 'x' }],
      [`/v1/websites/${s}/site-plan-drafts`, { brief: 'x' }],
      [`/v1/websites/${s}/pages/${p}/block-drafts`, { brief: 'x' }],
      [`/v1/websites/${s}/pages/${p}/text-rewrite-drafts`, { componentIds: ['t'] }],
    ];
    for (const [path, body] of routes) expectError(await call(bare, admin, 'POST', path, body), 403, 'AI_FEATURE_UNAVAILABLE', path);
    const { tasks } = expectOk(await call(bare, admin, 'GET', '/v1/background-tasks?enumBackgroundTaskTypeId=WEBSITE_TRANSLATION'));
    expect(tasks.filter((t: { enumBackgroundTaskTypeId: string }) => t.enumBackgroundTaskTypeId === 'WEBSITE_TRANSLATION')).toEqual([]);
  });
});
