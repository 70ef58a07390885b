// Translating a website (docs/api/websites.md "Translations"): POST …/translate/start queues a
// WEBSITE_TRANSLATION task whose overlays (text by component id) are served at /sites/{slug}/{lang}/;
// a layout change keeps every translation of unchanged components, a changed component is stale
// (its source text shows) and only it is translated again. Against the local model server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { untilTaskDone } from '../support/background-task-fixtures.ts';
import { expectError, expectOk } from '../support/expect-envelope.ts';
import { createTeam, type TeamFixture } from '../support/fixtures.ts';
import { type ModelReply, startModelServer, type ModelServer } from '../support/model-server.ts';
import { createMigratedDatabase } from '../support/migrated-database.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { until } from '../support/until.ts';
import { publishedSite, publishPage, text, visit } from './served-fixtures.ts';
import { adminOf, call, createPage, createSite } from './websites-fixtures.ts';

let model: ModelServer;
let server: TestServer;
let team: TeamFixture;
let database: Awaited<ReturnType<typeof createMigratedDatabase>>;

beforeAll(async () => {
  model = await startModelServer();
  // the tasks' jobs are this file's: no other file's workers (with another model) may take them
  database = await createMigratedDatabase('website_translate');
  server = await startTestServer({ databaseUrl: database.url, runJobs: true, env: { AI_BASE_URL: model.baseUrl, AI_MODEL: 'test-model', AI_MAX_RETRIES: 0, AI_TIMEOUT_MS: 5000 } as never });
  team = await createTeam(server);
});
afterAll(async () => {
  await server?.close();
  await model?.close();
  await database?.drop();
});

/** the units the feature sent the model */
const sentUnits = (body: any): { id: string; texts: string[]; attributes: Record<string, string> }[] => {
  const content = String(body.messages.find((m: { role: string }) => m.role === 'user').content);
  return JSON.parse(content.slice(content.indexOf('\n\n') + 2));
};

/** a model that translates by prefixing "DE:" to every text and attribute */
const prefixing = (body: any): ModelReply => {
  const translations = Object.fromEntries(
    sentUnits(body).map((u) => [u.id, { texts: u.texts.map((t) => `DE:${t}`), attributes: Object.fromEntries(Object.entries(u.attributes).map(([k, v]) => [k, `DE:${v}`])) }]),
  );
  return { text: JSON.stringify({ translations }) };
};

const status = async (site: string) => {
  const r = await server.request('POST', '/graphql', {
    token: team.userToken,
    teamId: team.teamSimplyId,
    body: { query: 'query S($id: String!) { websiteTranslationStatus(websiteSimplyId: $id, languageTagId: "de") { pageSimplyId currentCount staleComponentIds missingComponentIds } }', variables: { id: site } },
  });
  expect(r.body.errors).toBeUndefined();
  return r.body.data.websiteTranslationStatus;
};

const translate = async (site: string, body: Record<string, unknown>) => {
  const started = expectOk(await call(server, adminOf(team), 'POST', `/v1/websites/${site}/translate/start`, body), 202);
  expect(started.status).toBe('QUEUED');
  return untilTaskDone(server, { token: team.userToken, teamId: team.teamSimplyId }, started.backgroundTaskSimplyId);
};

describe('translations as overlays', () => {
  it('serves the translated page, keeps translations through a layout change and marks the changed component stale', async () => {
    const admin = adminOf(team);
    const image = { type: 'image', tagName: 'img', attributes: { id: 'pic', src: 'https://example.org/oak.png', alt: 'An old oak tree' } };
    const site = await publishedSite(server, admin, [text('title', 'Welcome to the park', 'h1'), text('intro', 'We care for the trees'), image], {
      defaultLanguageTagId: 'en',
      availableLanguageTagIds: ['en', 'de'],
    });

    model.reset();
    model.otherwise(prefixing);
    const task = await translate(site.websiteSimplyId, { targetLanguageTagIds: ['de'] });
    expect(task.status, JSON.stringify(task)).toBe('COMPLETED');
    expect(task.result).toMatchObject({ successCount: 1, componentsTranslated: 3, componentsKept: 0 });
    expect(task.enumBackgroundTaskTypeId).toBe('WEBSITE_TRANSLATION');

    const german = await visit(server, `${site.base}/de/`);
    expect(german.status).toBe(200);
    expect(german.text).toContain('<html lang="de">');
    expect(german.text).toContain('DE:Welcome to the park');
    expect(german.text).toContain('alt="DE:An old oak tree"');
    // the layout is the page's own: the same src, the same order
    expect(german.text).toContain('https://example.org/oak.png');
    const english = await visit(server, `${site.base}/`);
    expect(english.text).toContain('Welcome to the park');
    expect(english.text).not.toContain('DE:');
    expect(english.text).toContain('<html lang="en">');

    // a layout change: the intro moves up, the title is restyled, a paragraph comes, the intro's text changes
    expectOk(
      await call(server, admin, 'PATCH', `/v1/website-pages/${site.home}/design`, {
        operations: [
          { op: 'move', id: 'intro', parentId: null, index: 0 },
          { op: 'setStyle', id: 'title', style: { color: 'green' } },
          { op: 'insert', parentId: null, component: text('extra', 'Open every day') },
          { op: 'setText', id: 'intro', text: 'We look after every tree' },
        ],
      }),
    );
    const [state] = await status(site.websiteSimplyId);
    expect(state).toMatchObject({ pageSimplyId: site.home, currentCount: 2, staleComponentIds: ['intro'], missingComponentIds: ['extra'] });

    await publishPage(server, admin, site.home);
    const changed = await visit(server, `${site.base}/de/`);
    expect(changed.text).toContain('DE:Welcome to the park');
    expect(changed.text).toContain('alt="DE:An old oak tree"');
    // stale: the source text shows, never the old translation
    expect(changed.text).toContain('We look after every tree');
    expect(changed.text).not.toContain('DE:We care for the trees');
    expect(changed.text).toContain('Open every day');
    expect(changed.text.indexOf('We look after every tree')).toBeLessThan(changed.text.indexOf('DE:Welcome to the park'));

    // translating again sends only what changed
    const before = model.requests.length;
    const again = await translate(site.websiteSimplyId, { targetLanguageTagIds: ['de'] });
    expect(again.result).toMatchObject({ componentsTranslated: 2, componentsKept: 2 });
    const sent = model.requests.slice(before).flatMap((r) => sentUnits(r.body).map((u) => u.id));
    expect(sent.sort()).toEqual(['extra', 'intro']);
    const [after] = await status(site.websiteSimplyId);
    expect(after).toMatchObject({ currentCount: 4, staleComponentIds: [], missingComponentIds: [] });
    const updated = await visit(server, `${site.base}/de/`);
    expect(updated.text).toContain('DE:We look after every tree');
    expect(updated.text).toContain('DE:Open every day');
  });

  it('serves a language only once the site lists it, and only published text', async () => {
    const admin = adminOf(team);
    const site = await publishedSite(server, admin, [text('hello', 'Hello visitors')], { defaultLanguageTagId: 'en', availableLanguageTagIds: ['en'] });
    model.reset();
    model.otherwise(prefixing);
    const task = await translate(site.websiteSimplyId, { targetLanguageTagIds: ['fr'] });
    expect(task.status).toBe('COMPLETED');
    expect((await visit(server, `${site.base}/fr/`)).status).toBe(404);
    expectOk(await call(server, admin, 'PUT', `/v1/websites/${site.websiteSimplyId}`, { availableLanguageTagIds: ['en', 'fr'] }));
    const french = await visit(server, `${site.base}/fr/`);
    expect(french.status).toBe(200);
    expect(french.text).toContain('DE:Hello visitors');

    // a draft edit translated before it is published stays off the served page until it is
    expectOk(await call(server, admin, 'PATCH', `/v1/website-pages/${site.home}/design`, { operations: [{ op: 'setText', id: 'hello', text: 'Hello friends' }] }));
    await translate(site.websiteSimplyId, { targetLanguageTagIds: ['fr'] });
    const still = await visit(server, `${site.base}/fr/`);
    expect(still.text).toContain('Hello visitors');
    expect(still.text).not.toContain('Hello friends');
    await publishPage(server, admin, site.home);
    expect((await visit(server, `${site.base}/fr/`)).text).toContain('DE:Hello friends');
  });

  it('translates a synced layout’s text with the page, apart from a page component with the same id', async () => {
    const admin = adminOf(team);
    // the page has a component "shared" and so has the layout: each is translated on its own
    const site = await publishedSite(server, admin, [text('shared', 'Page words')], { defaultLanguageTagId: 'en', availableLanguageTagIds: ['en', 'de'] });
    const layout = expectOk(
      await call(server, admin, 'POST', `/v1/websites/${site.websiteSimplyId}/saved-layouts`, {
        name: 'Notice',
        category: 'banner',
        syncMode: 'SYNCED',
        contentJson: { components: [{ tagName: 'section', attributes: { id: 'notice' }, components: [text('shared', 'Layout words')] }], styles: [] },
      }),
      201,
    );
    expectOk(await call(server, admin, 'PATCH', `/v1/website-pages/${site.home}/design`, { operations: [{ op: 'insertLayout', parentId: null, savedLayoutSimplyId: layout.savedLayoutSimplyId }] }));
    await publishPage(server, admin, site.home);
    model.reset();
    model.otherwise(prefixing);
    expect((await translate(site.websiteSimplyId, { targetLanguageTagIds: ['de'] })).status).toBe('COMPLETED');
    const german = await visit(server, `${site.base}/de/`);
    expect(german.text).toContain('DE:Page words');
    expect(german.text).toContain('DE:Layout words');
    expect((await status(site.websiteSimplyId)).find((p: { pageSimplyId: string }) => p.pageSimplyId === site.home)).toMatchObject({ staleComponentIds: [], missingComponentIds: [] });

    // the layout's text changes: on the translated page it is stale (the new source shows) until translated again
    expectOk(
      await call(server, admin, 'PATCH', `/v1/websites/${site.websiteSimplyId}/saved-layouts/${layout.savedLayoutSimplyId}`, {
        contentJson: { components: [{ tagName: 'section', attributes: { id: 'notice' }, components: [text('shared', 'New layout words')] }], styles: [] },
      }),
    );
    // the served pages learn of the change through a notification
    const changed = await until('the layout change served', async () => {
      const r = await visit(server, `${site.base}/de/`);
      return r.text.includes('New layout words') && r;
    });
    expect(changed.text).toContain('DE:Page words');
    expect((await status(site.websiteSimplyId)).find((p: { pageSimplyId: string }) => p.pageSimplyId === site.home).staleComponentIds).toHaveLength(1);
  });

  it('falls back to the same language’s last good rendering when a translated page cannot be rendered', async () => {
    const admin = adminOf(team);
    const site = await publishedSite(server, admin, [text('hi', 'Hello')], { defaultLanguageTagId: 'en', availableLanguageTagIds: ['en', 'de', 'fr'] });
    model.reset();
    model.otherwise(prefixing);
    expect((await translate(site.websiteSimplyId, { targetLanguageTagIds: ['de', 'fr'] })).status).toBe('COMPLETED');
    const german = await visit(server, `${site.base}/de/`);
    expect(german.text).toContain('DE:Hello');
    // the French rendering is the newest good one of the page
    expect((await visit(server, `${site.base}/fr/`)).status).toBe(200);
    // a design stored before today's checks, which the renderer cannot read (a class that is no class)
    await server.app.services.prisma.websitePage.updateMany({
      where: { simplyId: site.home },
      data: { publishedDesign: { components: [{ tagName: 'p', attributes: { id: 'hi' }, classes: [null] }], styles: [] }, publishedRevision: 99, publishedAt: new Date() },
    });
    const fallback = await visit(server, `${site.base}/de/`);
    expect(fallback.status).toBe(200);
    expect(fallback.text).toBe(german.text);
  });

  it('records a failed model step as an error entry of the task', async () => {
    const admin = adminOf(team);
    const site = await createSite(server, admin);
    const page = (await createPage(server, admin, site.websiteSimplyId, { title: 'Home' })).pageSimplyId;
    expectOk(await call(server, admin, 'PATCH', `/v1/website-pages/${page}/design`, { operations: [{ op: 'insert', parentId: null, component: text('t', 'Some text') }] }));
    model.reset();
    model.otherwise({ error: { status: 500, message: 'boom' } });
    const task = await translate(site.websiteSimplyId, { targetLanguageTagIds: ['de'] });
    expect(task.status).toBe('FAILED');
    expect(task.errors[0]).toMatchObject({ errorType: 'MODEL_FAILED', errorContext: { pageSimplyId: page, languageTagId: 'de' } });
    expect(JSON.stringify(task)).not.toContain('boom');
  });

  it('refuses bad requests before queueing anything', async () => {
    const admin = adminOf(team);
    const site = await createSite(server, admin, {});
    expectOk(await call(server, admin, 'PUT', `/v1/websites/${site.websiteSimplyId}`, { defaultLanguageTagId: 'en' }));
    await createPage(server, admin, site.websiteSimplyId, { title: 'Home' });
    const path = `/v1/websites/${site.websiteSimplyId}/translate/start`;
    expectError(await call(server, admin, 'POST', path, { targetLanguageTagIds: ['en'] }), 400, 'VALIDATION_ERROR');
    expectError(await call(server, admin, 'POST', path, { targetLanguageTagIds: ['not a tag'] }), 400, 'VALIDATION_ERROR');
    expectError(await call(server, admin, 'POST', path, { targetLanguageTagIds: [] }), 400, 'VALIDATION_ERROR');
    const foreign = expectError(await call(server, admin, 'POST', path, { targetLanguageTagIds: ['de'], pageSimplyIds: ['wpg-AAAA-BBBB-CCCC'] }), 400, 'VALIDATION_ERROR');
    expect(JSON.stringify(foreign.details)).toContain('pageSimplyIds.0');
    expectError(await call(server, admin, 'POST', '/v1/websites/web-AAAA-BBBB-CCCC/translate/start', { targetLanguageTagIds: ['de'] }), 404, 'NOT_FOUND');
  });
});
