// Page designs: the draft as stored (ids given, hostile content refused), each design operation,
// all-or-nothing patches naming the failing operation, concurrent patches that lose nothing, the
// base revision check, the blocks outline and the activity.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATCH_EXAMPLE } from '../../src/modules/websites/design-operations.input.ts';
import { expectError, expectOk } from '../support/expect-envelope.ts';
import { startServerWithTeam, type TeamFixture } from '../support/fixtures.ts';
import type { TestServer } from '../support/server.ts';
import { adminOf, call, type Caller, createPage, createSite, memberWith } from './websites-fixtures.ts';

let server: TestServer;
let team: TeamFixture;
let admin: Caller;

beforeAll(async () => {
  ({ server, team } = await startServerWithTeam());
  admin = adminOf(team);
});
afterAll(() => server?.close());

async function freshPage(): Promise<string> {
  const site = await createSite(server, admin);
  return (await createPage(server, admin, site.websiteSimplyId)).pageSimplyId;
}

const patch = (page: string, body: unknown, who: Caller = admin) => call(server, who, 'PATCH', `/v1/website-pages/${page}/design`, body);
const design = async (page: string) => expectOk(await call(server, admin, 'GET', `/v1/website-pages/${page}/design`));

const section = (id: string, text: string) => ({ tagName: 'section', attributes: { id }, components: [{ tagName: 'h2', attributes: { id: `${id}-title` }, components: [{ type: 'textnode', content: text }] }] });

describe('design operations', () => {
  it('starts empty and applies every kind of operation in order', async () => {
    const page = await freshPage();
    const empty = await design(page);
    expect(empty).toMatchObject({ draftRevision: 1, publishedRevision: null, design: { components: [], styles: [] } });

    const one = expectOk(await patch(page, { operations: [{ op: 'insert', parentId: null, component: section('a', 'First') }, { op: 'insert', parentId: null, index: 0, component: section('b', 'Second') }], summary: 'two sections' }));
    expect(one.draftRevision).toBe(2);
    expect(one.design.components.map((c: any) => c.attributes.id)).toEqual(['b', 'a']);

    const two = expectOk(
      await patch(page, {
        operations: [
          { op: 'move', id: 'a', parentId: null, index: 0 },
          { op: 'setText', id: 'a-title', text: 'Renamed <b>not bold</b>' },
          { op: 'setAttributes', id: 'a', attributes: { 'aria-label': 'Intro', 'data-x': 1 } },
          { op: 'setStyle', id: 'a', style: { padding: '8px' } },
          { op: 'setClasses', id: 'a', classes: ['hero'] },
          { op: 'setRule', selectors: ['.hero'], style: { color: 'green' } },
          { op: 'setRule', selectors: ['.hero'], mediaText: '(max-width: 600px)', style: { color: 'red' } },
          { op: 'move', id: 'b-title', parentId: 'a' },
          { op: 'replace', id: 'b', component: { tagName: 'footer', components: [] } },
        ],
      }),
    );
    const [a, b] = two.design.components;
    expect(a).toMatchObject({ attributes: { id: 'a', 'aria-label': 'Intro', 'data-x': 1 }, style: { padding: '8px' }, classes: ['hero'] });
    expect(a.components[0].components).toEqual([{ type: 'textnode', content: 'Renamed <b>not bold</b>' }]);
    expect(a.components[1].attributes.id).toBe('b-title');
    // a replaced component keeps its id when the new one brings none
    expect(b).toMatchObject({ tagName: 'footer', attributes: { id: 'b' } });
    expect(two.design.styles).toEqual([{ selectors: ['.hero'], style: { color: 'green' } }, { selectors: ['.hero'], style: { color: 'red' }, mediaText: '(max-width: 600px)', atRuleType: 'media' }]);

    const three = expectOk(await patch(page, { operations: [{ op: 'removeRule', selectors: ['.hero'] }, { op: 'remove', id: 'b' }, { op: 'setStyle', id: 'a', style: { padding: null } }, { op: 'setAttributes', id: 'a', attributes: { 'data-x': null } }] }));
    expect(three.design.components).toHaveLength(1);
    expect(three.design.components[0].style).toEqual({});
    expect(three.design.components[0].attributes).toEqual({ id: 'a', 'aria-label': 'Intro' });
    expect(three.design.styles).toHaveLength(1);
  });

  it('gives components without an id one, and refuses an id already used', async () => {
    const page = await freshPage();
    const saved = expectOk(await patch(page, { operations: [{ op: 'insert', parentId: null, component: { tagName: 'div', components: [{ tagName: 'p' }, { type: 'textnode', content: 'x' }] } }] }));
    const [div] = saved.design.components;
    expect(div.attributes.id).toMatch(/^c[0-9a-f]{10}$/);
    expect(div.components[0].attributes.id).toMatch(/^c[0-9a-f]{10}$/);
    expect(div.components[1]).toEqual({ type: 'textnode', content: 'x' });
    const clash = expectError(await patch(page, { operations: [{ op: 'insert', parentId: null, component: { tagName: 'p', attributes: { id: div.attributes.id } } }] }), 400, 'VALIDATION_ERROR');
    expect(clash.details?.[0]?.field).toBe('operations.0.component.attributes.id');
  });

  it('rejects the whole patch when one operation does not fit, naming it, and changes nothing', async () => {
    const page = await freshPage();
    expectOk(await patch(page, { operations: [{ op: 'insert', parentId: null, component: section('a', 'A') }] }));
    const before = await design(page);
    const cases: [unknown[], string][] = [
      [[{ op: 'setText', id: 'a-title', text: 'fine' }, { op: 'remove', id: 'nope' }], 'operations.1.id'],
      [[{ op: 'move', id: 'a', parentId: 'a-title' }], 'operations.0.parentId'],
      [[{ op: 'insert', parentId: 'a', index: 5, component: { tagName: 'p' } }], 'operations.0.index'],
      [[{ op: 'insert', parentId: null, component: { tagName: 'script', components: [] } }], 'operations.0.component.tagName'],
      [[{ op: 'insert', parentId: null, component: { tagName: 'img', attributes: { src: 'x', onerror: 'alert(1)' } } }], 'operations.0.component.attributes.onerror'],
      [[{ op: 'setAttributes', id: 'a', attributes: { href: 'javascript:alert(1)' } }], 'operations.0.attributes.href'],
      [[{ op: 'setAttributes', id: 'a', attributes: { id: 'b' } }], 'operations.0.attributes.id'],
      [[{ op: 'setStyle', id: 'a', style: { background: 'url(javascript:alert(1))' } }], 'operations.0.style.background'],
      [[{ op: 'setRule', selectors: ['.x'], style: { width: 'expression(alert(1))' } }], 'operations.0.style'],
      [[{ op: 'removeRule', selectors: ['.missing'] }], 'operations.0.selectors'],
      [[{ op: 'explode', id: 'a' }], 'operations.0.op'],
    ];
    for (const [operations, field] of cases) {
      const error = expectError(await patch(page, { operations }), 400, 'VALIDATION_ERROR', JSON.stringify(operations));
      expect(error.details?.[0]?.field, JSON.stringify(operations)).toBe(field);
    }
    expect(await design(page)).toEqual(before);
    expectError(await patch(page, { operations: [] }), 400, 'VALIDATION_ERROR');
    expectError(await patch(page, { operations: Array.from({ length: 201 }, () => ({ op: 'remove', id: 'a' })) }), 400, 'VALIDATION_ERROR');
  });

  it('applies concurrent patches one after the other, losing none; a stale baseRevision is a 409', async () => {
    const page = await freshPage();
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => patch(page, { operations: [{ op: 'insert', parentId: null, component: section(`s${i}`, `Section ${i}`) }] })));
    for (const r of results) expectOk(r);
    const after = await design(page);
    expect(after.draftRevision).toBe(9);
    expect(after.design.components.map((c: any) => c.attributes.id).sort()).toEqual(Array.from({ length: 8 }, (_, i) => `s${i}`).sort());
    const stale = expectError(await patch(page, { baseRevision: 3, operations: [{ op: 'remove', id: 's0' }] }), 409, 'WEBSITE_DESIGN_CONFLICT');
    expect(stale.details?.[0]).toMatchObject({ field: 'baseRevision', currentRevision: 9 });
    expect(expectOk(await patch(page, { baseRevision: 9, operations: [{ op: 'remove', id: 's0' }] })).draftRevision).toBe(10);
  });

  it('takes the reference page’s example of every operation kind', async () => {
    const page = await freshPage();
    // the example's last two operations remove things an existing draft would have
    expectOk(await patch(page, { operations: [{ op: 'insert', parentId: null, component: { tagName: 'div', attributes: { id: 'old-banner' } } }, { op: 'setRule', selectors: ['.old-banner'], style: { display: 'none' } }] }));
    const { baseRevision: _ignored, ...example } = PATCH_EXAMPLE;
    // insertLayout names a saved layout of the page's site
    const { websiteSimplyId } = expectOk(await call(server, admin, 'GET', `/v1/website-pages/${page}`));
    const layout = expectOk(await call(server, admin, 'POST', `/v1/websites/${websiteSimplyId}/saved-layouts`, { name: 'Footer note', category: 'footer', contentJson: { components: [{ tagName: 'p', components: [{ type: 'textnode', content: 'Thanks' }] }] } }), 201);
    const operations = example.operations.map((o) => (o.op === 'insertLayout' ? { ...o, savedLayoutSimplyId: layout.savedLayoutSimplyId } : o));
    const saved = expectOk(await patch(page, { ...example, operations }));
    expect(saved.design.components[0].attributes.id).toBe('hero');
    expect(saved.design.components.at(-1).components[0].content).toBe('Thanks');
    expect(new Set(PATCH_EXAMPLE.operations.map((o) => o.op)).size).toBe(11);
  });

  it('needs EDITOR to patch; a viewer reads', async () => {
    const page = await freshPage();
    const viewer = await memberWith(server, team, ['TEAM_WEBSITES:VIEW']);
    expectOk(await call(server, viewer, 'GET', `/v1/website-pages/${page}/design`));
    expectError(await patch(page, { operations: [{ op: 'insert', parentId: null, component: { tagName: 'p' } }] }, viewer), 403, 'PERMISSION_DENIED');
  });
});

describe('blocks outline and activity', () => {
  it('outlines the draft and records what happened', async () => {
    const page = await freshPage();
    expectOk(await patch(page, { summary: 'hero', operations: [{ op: 'insert', parentId: null, component: section('hero', 'Welcome to the park, where the trees are old and the paths are long and winding') }] }));
    const outline = expectOk(await call(server, admin, 'GET', `/v1/website-pages/${page}/blocks`));
    expect(outline).toMatchObject({ totalComponents: 2, truncated: false });
    expect(outline.blocks[0]).toMatchObject({ id: 'hero', tagName: 'section', depth: 1, childCount: 1 });
    expect(outline.blocks[1]).toMatchObject({ id: 'hero-title', depth: 2 });
    expect(outline.blocks[1].label.length).toBeLessThanOrEqual(80);
    const activity = await call(server, admin, 'GET', `/v1/website-pages/${page}/activity?limit=10`);
    const entries = expectOk(activity);
    expect(entries.map((e: { kind: string }) => e.kind)).toEqual(['EDITED', 'CREATED']);
    expect(entries[0]).toMatchObject({ summary: 'hero', revision: 2, userSimplyId: team.userSimplyId, details: { operations: 1 } });
    expect(activity.body.meta.pagination).toMatchObject({ total: 2, limit: 10, offset: 0, hasMore: false });
  });
});
