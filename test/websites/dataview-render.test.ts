// Data views on a site (docs/api/websites.md "Data views on a site"): the render payload of a team's
// view (its display fields only, its saved filter and sort, bounded), refused for a view that could
// not be shared by an embed token (not published), not found for another team's; and the same
// table where a published page holds a data-view component.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectOk } from '../support/expect-envelope.ts';
import { createEvent, publish, publishedView, startSharingBed, type SharingBed } from '../views/view-sharing-fixtures.ts';
import { publishedSite, text, visit } from './served-fixtures.ts';
import { adminOf, call, type Caller, createSite } from './websites-fixtures.ts';

let bed: SharingBed;
let admin: Caller;
let view: string;

beforeAll(async () => {
  bed = await startSharingBed();
  admin = adminOf(bed.team);
  const f = bed.events.fields;
  view = await publishedView(bed, { name: 'Open sessions', columns: ['title', 'seats'], filters: [{ field: f.seats, operator: 'gte', value: 1 }], sortOrder: [{ field: f.seats, direction: 'desc' }] });
  for (let seats = 0; seats <= 4; seats++) await createEvent(bed, { title: seats === 2 ? '<script>alert(1)</script>' : `Session ${seats}`, seats, secret: `secret ${seats}` });
});
afterAll(() => bed?.server.close());

describe('the render payload of a data view', () => {
  it('gives the display fields and the first records, filtered and sorted', async () => {
    const site = await createSite(bed.server, admin);
    const render = expectOk(await call(bed.server, admin, 'GET', `/v1/websites/${site.websiteSimplyId}/dataview-render/${view}?limit=3`));
    expect(render.title).toBe('Open sessions');
    expect(render.columns.map((c: { label: string }) => c.label)).toEqual(['title', 'seats']);
    expect(render.rows).toEqual([['Session 4', '4'], ['Session 3', '3'], ['<script>alert(1)</script>', '2']]);
    expect(render).toMatchObject({ total: 4, limit: 3, sortShortened: false });
    expect(JSON.stringify(render)).not.toContain('secret');
  });

  it('refuses a view that is not published, a bad limit, and does not know other teams’ views', async () => {
    const site = await createSite(bed.server, admin);
    const hidden = await publishedView(bed, { columns: ['title'] });
    await publish(bed, hidden, false);
    const refused = expectError(await call(bed.server, admin, 'GET', `/v1/websites/${site.websiteSimplyId}/dataview-render/${hidden}`), 409, 'WEBSITE_DATA_VIEW_NOT_SHAREABLE');
    expect(refused.details?.[0]).toMatchObject({ field: 'isPublished' });
    expectError(await call(bed.server, admin, 'GET', `/v1/websites/${site.websiteSimplyId}/dataview-render/${bed.otherView}`), 404, 'NOT_FOUND');
    expectError(await call(bed.server, admin, 'GET', `/v1/websites/${site.websiteSimplyId}/dataview-render/${view}?limit=101`), 400, 'VALIDATION_ERROR');
    expectError(await call(bed.server, admin, 'GET', `/v1/websites/${site.websiteSimplyId}/dataview-render/not-a-view`), 400, 'VALIDATION_ERROR');
  });
});

describe('a data-view component on a published page', () => {
  it('is the view’s table, values escaped; a view that cannot be shown is an empty block', async () => {
    const hidden = await publishedView(bed, { columns: ['title', 'secret'] });
    await publish(bed, hidden, false);
    const site = await publishedSite(bed.server, admin, [
      text('intro', 'Our sessions'),
      { type: 'data-view', attributes: { id: 'sessions', 'data-view-id': view } },
      { type: 'data-view', attributes: { id: 'secrets', 'data-view-id': hidden } },
      { type: 'data-view', attributes: { id: 'theirs', 'data-view-id': bed.otherView } },
    ]);
    const page = await visit(bed.server, `${site.base}/`);
    expect(page.status).toBe(200);
    expect(page.text).toContain(
      '<div id="sessions" class="svc-data-view"><table><caption>Open sessions</caption><thead><tr><th scope="col">title</th><th scope="col">seats</th></tr></thead><tbody><tr><td>Session 4</td><td>4</td></tr><tr><td>Session 3</td><td>3</td></tr><tr><td>&lt;script&gt;alert(1)&lt;/script&gt;</td><td>2</td></tr><tr><td>Session 1</td><td>1</td></tr></tbody></table></div>',
    );
    expect(page.text).toContain('<div id="secrets" class="svc-data-view"></div>');
    expect(page.text).toContain('<div id="theirs" class="svc-data-view"></div>');
    expect(page.text).not.toContain('secret ');
  });
});
