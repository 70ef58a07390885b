// View administration over REST and GraphQL (Document 1 §4.4, privileged; docs/api/data-views.md
// "Administration"): the admin detail, the admin list, picker entries, the three kinds of field
// links, eligible fields, share readiness and internal names; the privileged tier, other teams'
// ids, validation naming the field, concurrent reorders and the versions every change records.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemaVersionCount } from '../support/collection-fixtures.ts';
import { createCollection, REQUIRED_TEXT, type CollectionFixture } from '../support/data-fixtures.ts';
import { expectError, expectGqlError, expectOk, gqlData } from '../support/expect-envelope.ts';
import { addMember, createApiKey, createRole, type TeamFixture } from '../support/fixtures.ts';
import { oauthToken } from '../support/oauth-fixtures.ts';
import { startServerWithTwoTeams } from '../support/record-fixtures.ts';
import { restCaller } from '../support/rest-caller.ts';
import type { TestServer } from '../support/server.ts';

const LINK_ID = /^vfl-[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}$/;
const ADMIN_KEYS = [
  'calendarDateInfoFieldLinks',
  'config',
  'createdAt',
  'dataCollectionSimplyId',
  'description',
  'displayFieldLinks',
  'enumDataViewTypeId',
  'filterFieldLinks',
  'id',
  'internalName',
  'isPublished',
  'name',
  'updatedAt',
];
const ADMIN_SUMMARY_KEYS = [
  'calendarDateInfoFieldCount',
  'createdAt',
  'dataCollectionSimplyId',
  'description',
  'displayFieldCount',
  'enumDataViewTypeId',
  'filterFieldCount',
  'id',
  'internalName',
  'isPublished',
  'name',
  'updatedAt',
];
const LINK_KEYS = ['dataFieldSimplyId', 'fieldDataType', 'fieldExists', 'fieldTitle', 'id', 'label'];

let server: TestServer;
let team: TeamFixture;
let other: TeamFixture;
let events: CollectionFixture;
let otherCollection: CollectionFixture;
let otherView: string;

const call = restCaller(() => server, () => team.apiKey);
const versionCount = () => schemaVersionCount(server, team.teamId);
const viewPath = (id: string, rest = '') => `/v1/data-views/${id}${rest}`;

async function createView(body: Record<string, unknown>, token = team.apiKey): Promise<any> {
  return expectOk(await call('POST', '/v1/data-views', body, token), 201);
}

async function adminDetail(id: string): Promise<any> {
  return expectOk(await call('GET', viewPath(id, '/admin-detail')));
}

/** the editable part of an admin detail: what PUT takes */
function editable(detail: any): Record<string, unknown> {
  const { name, description, internalName, enumDataViewTypeId, isPublished, config } = detail;
  return { name, description, internalName, enumDataViewTypeId, isPublished, config };
}

function fieldsOf(error: { details?: { field?: string }[] }): (string | undefined)[] {
  return (error.details ?? []).map((d) => d.field);
}

beforeAll(async () => {
  ({ server, team, other, otherCollection } = await startServerWithTwoTeams());
  events = await createCollection(server, team, {
    name: 'Events',
    formula: '{title}',
    fields: {
      title: REQUIRED_TEXT,
      starts: 'DATE_TIME',
      ends: 'DATE_TIME',
      day: 'DATE',
      seats: 'NUMBER',
      price: 'DECIMAL',
      venue: 'PHYSICAL_ADDRESS',
      notes: 'FORMATTED_TEXT',
      poster: 'SINGLE_IMAGE',
      status: 'PLAIN_TEXT',
    },
  });
  otherView = (await createView({ dataCollectionSimplyId: otherCollection.id, name: 'Not yours', enumDataViewTypeId: 'CALENDAR', config: { columns: [otherCollection.fields.label] } }, other.apiKey)).id;
});
afterAll(() => server?.close());

describe('admin detail', () => {
  it('shows the whole configuration; a view created with columns has one display link per column', async () => {
    const f = events.fields;
    const created = await createView({
      dataCollectionSimplyId: events.id,
      name: 'Upcoming',
      internalName: 'upcoming-events',
      enumDataViewTypeId: 'TABLE',
      config: { columns: [f.title, f.starts], filters: [{ field: f.seats, operator: 'gt', value: 0 }], sortOrder: [{ field: f.starts, direction: 'asc' }] },
    });
    const detail = await adminDetail(created.id);
    expect(Object.keys(detail).sort()).toEqual(ADMIN_KEYS);
    expect(detail).toMatchObject({
      id: created.id,
      name: 'Upcoming',
      internalName: 'upcoming-events',
      dataCollectionSimplyId: events.id,
      enumDataViewTypeId: 'TABLE',
      isPublished: false,
      config: {
        columns: [f.title, f.starts],
        filters: [{ field: f.seats, operator: 'gt', value: 0 }],
        sortOrder: [{ field: f.starts, direction: 'asc' }],
        grouping: [],
        calendar: null,
        map: null,
      },
      filterFieldLinks: [],
      calendarDateInfoFieldLinks: [],
    });
    expect(detail.displayFieldLinks).toHaveLength(2);
    for (const link of detail.displayFieldLinks) {
      expect(Object.keys(link).sort()).toEqual([...LINK_KEYS, 'aggregation'].sort());
      expect(link.id).toMatch(LINK_ID);
    }
    expect(detail.displayFieldLinks[0]).toMatchObject({ dataFieldSimplyId: f.title, fieldExists: true, fieldTitle: 'title', fieldDataType: 'PLAIN_TEXT', label: null, aggregation: null });
    // the standard detail is unchanged in shape
    expect(Object.keys(expectOk(await call('GET', viewPath(created.id))).config).sort()).toEqual(['columns', 'filters', 'sortOrder']);
    // a repeated read gives the same link ids
    expect((await adminDetail(created.id)).displayFieldLinks.map((l: any) => l.id)).toEqual(detail.displayFieldLinks.map((l: any) => l.id));
  });

  it('a view stored before links existed reads its columns as display links with stable ids', async () => {
    const created = await createView({ dataCollectionSimplyId: events.id, name: 'Old style', enumDataViewTypeId: 'LIST' });
    await server.app.services.prisma.dataView.update({
      where: { teamId_simplyId: { teamId: team.teamId, simplyId: created.id } },
      data: { config: { columns: [events.fields.title!, events.fields.day!], filters: [], sortOrder: [] } },
    });
    const first = await adminDetail(created.id);
    expect(first.displayFieldLinks.map((l: any) => l.dataFieldSimplyId)).toEqual([events.fields.title, events.fields.day]);
    expect(first.displayFieldLinks.map((l: any) => l.id)).toEqual((await adminDetail(created.id)).displayFieldLinks.map((l: any) => l.id));
    // the ids work for the link routes: the first write stores them
    const relabeled = expectOk(await call('PATCH', viewPath(created.id, `/display-field-links/${first.displayFieldLinks[1].id}`), { label: 'Day' }));
    expect(relabeled).toMatchObject({ id: first.displayFieldLinks[1].id, label: 'Day' });
    expect((await adminDetail(created.id)).displayFieldLinks.map((l: any) => l.id)).toEqual(first.displayFieldLinks.map((l: any) => l.id));
  });

  it('PUT replaces every setting, keeps the links of listed columns, round-trips, and records a version', async () => {
    const f = events.fields;
    const view = await createView({ dataCollectionSimplyId: events.id, name: 'Replace me', enumDataViewTypeId: 'LIST', config: { columns: [f.title, f.status] } });
    const before = await adminDetail(view.id);
    const titleLink = before.displayFieldLinks[0];
    const versions = await versionCount();
    const body = {
      name: { en: 'Calendar', de: 'Kalender' },
      description: '  What happens when  ',
      internalName: 'events-calendar',
      enumDataViewTypeId: 'CALENDAR',
      isPublished: false,
      config: {
        columns: [f.status, f.title, f.venue],
        filters: [{ field: f.status, operator: 'eq', value: 'confirmed' }],
        sortOrder: [{ field: f.starts, direction: 'desc' }],
        grouping: [],
        calendar: { defaultMode: 'WEEK', timeZone: 'Europe/Berlin' },
        map: null,
      },
    };
    const updated = expectOk(await call('PUT', viewPath(view.id, '/admin-detail'), body));
    expect(updated).toMatchObject({
      name: { en: 'Calendar', de: 'Kalender' },
      description: 'What happens when',
      internalName: 'events-calendar',
      enumDataViewTypeId: 'CALENDAR',
      config: {
        columns: [f.status, f.title, f.venue],
        filters: [{ field: f.status, operator: 'eq', value: 'confirmed' }],
        sortOrder: [{ field: f.starts, direction: 'desc' }],
        grouping: [],
        calendar: { defaultMode: 'WEEK', weekStartsOn: 'MONDAY', timeZone: 'Europe/Berlin' },
        map: null,
      },
    });
    expect(updated.displayFieldLinks.map((l: any) => l.dataFieldSimplyId)).toEqual([f.status, f.title, f.venue]);
    expect(updated.displayFieldLinks[1].id).toBe(titleLink.id);
    expect(updated.displayFieldLinks[0].id).toBe(before.displayFieldLinks[1].id);
    expect(await versionCount()).toBe(versions + 1);
    const version = await server.app.services.prisma.teamSchemaVersion.findFirstOrThrow({ where: { teamId: team.teamId }, orderBy: { version: 'desc' } });
    expect(version.summary).toBe(`view updated: Calendar (${view.id})`);
    expect((version.snapshot as any).views.find((v: any) => v.dataViewSimplyId === view.id).config.displayFieldLinks).toHaveLength(3);
    // the standard detail follows
    expect(expectOk(await call('GET', viewPath(view.id))).config.columns).toEqual([f.status, f.title, f.venue]);

    // what GET answers, PUT takes back unchanged
    const again = expectOk(await call('PUT', viewPath(view.id, '/admin-detail'), editable(updated)));
    expect({ ...again, updatedAt: null }).toEqual({ ...updated, updatedAt: null });

    // without columns the display links stay; absent optional values are cleared
    const cleared = expectOk(await call('PUT', viewPath(view.id, '/admin-detail'), { name: 'Plain', enumDataViewTypeId: 'CALENDAR', isPublished: false, config: {} }));
    expect(cleared).toMatchObject({ description: null, internalName: null, config: { filters: [], sortOrder: [], calendar: { defaultMode: 'MONTH', weekStartsOn: 'MONDAY', timeZone: 'UTC' } } });
    expect(cleared.displayFieldLinks.map((l: any) => l.id)).toEqual(updated.displayFieldLinks.map((l: any) => l.id));
  });

  it('refuses each invalid setting with a 400 naming it, and writes nothing', async () => {
    const f = events.fields;
    const view = await createView({ dataCollectionSimplyId: events.id, name: 'Strict', enumDataViewTypeId: 'LIST' });
    const base = { name: 'x', enumDataViewTypeId: 'LIST', isPublished: false, config: {} };
    const cases: [Record<string, unknown>, string[]][] = [
      [{ ...base, config: { columns: ['fld-AAAA-BBBB-CCCC'] } }, ['config.columns[0]']],
      [{ ...base, config: { filters: [{ field: f.seats, operator: 'startsWith', value: '1' }] } }, ['config.filters[0].operator']],
      [{ ...base, config: { filters: [{ field: f.starts, operator: 'gt', value: 'soon' }] } }, ['config.filters[0].value']],
      [{ ...base, config: { filters: [{ field: otherCollection.fields.label, operator: 'eq', value: 'x' }] } }, ['config.filters[0].field']],
      [{ ...base, config: { sortOrder: [{ field: f.venue, direction: 'asc' }] } }, ['config.sortOrder[0].field']],
      [{ ...base, config: { grouping: [{ field: f.notes, direction: 'asc' }] } }, ['config.grouping[0].field']],
      [{ ...base, config: { grouping: [1, 2, 3, 4].map(() => ({ field: f.status, direction: 'asc' })) } }, ['config.grouping']],
      [{ ...base, enumDataViewTypeId: 'CALENDAR', config: { grouping: [{ field: f.status, direction: 'asc' }] } }, ['config.grouping']],
      [{ ...base, config: { calendar: { defaultMode: 'MONTH' } } }, ['config.calendar']],
      [{ ...base, enumDataViewTypeId: 'CALENDAR', config: { calendar: { defaultMode: 'YEAR', weekStartsOn: 'FRIDAY', timeZone: 'Mars/Olympus', extra: 1 } } }, ['config.calendar.extra', 'config.calendar.defaultMode', 'config.calendar.weekStartsOn', 'config.calendar.timeZone']],
      [{ ...base, config: { map: { locationFieldSimplyId: f.venue } } }, ['config.map']],
      [{ ...base, enumDataViewTypeId: 'MAP', config: { map: { locationFieldSimplyId: f.status, defaultZoom: 21 } } }, ['config.map.locationFieldSimplyId', 'config.map.defaultZoom']],
      [{ ...base, config: { layout: 'grid' } }, ['config.layout']],
      [{ ...base, internalName: 'has spaces' }, ['internalName']],
      [{ ...base, internalName: 'x'.repeat(65) }, ['internalName']],
      [{ ...base, enumDataViewTypeId: 'KANBAN' }, ['enumDataViewTypeId']],
      [{ ...base, dataCollectionSimplyId: events.id }, ['dataCollectionSimplyId']],
      [{ name: 'x', enumDataViewTypeId: 'LIST', config: {} }, ['isPublished']],
      [{ ...base, config: [] }, ['config']],
    ];
    const versions = await versionCount();
    for (const [body, fields] of cases) {
      const error = expectError(await call('PUT', viewPath(view.id, '/admin-detail'), body), 400, 'VALIDATION_ERROR', JSON.stringify(body).slice(0, 120));
      expect(fieldsOf(error), JSON.stringify(error)).toEqual(fields);
    }
    expect(await versionCount()).toBe(versions);
    expectError(await call('PUT', viewPath(view.id, '/admin-detail')), 400, 'VALIDATION_ERROR');
  });

  it('an internal name is unique in the team: a name another view holds is a 409', async () => {
    const a = await createView({ dataCollectionSimplyId: events.id, name: 'A', internalName: 'taken-name', enumDataViewTypeId: 'LIST' });
    const b = await createView({ dataCollectionSimplyId: events.id, name: 'B', enumDataViewTypeId: 'LIST' });
    expectError(await call('POST', '/v1/data-views', { dataCollectionSimplyId: events.id, name: 'C', internalName: 'taken-name', enumDataViewTypeId: 'LIST' }), 409, 'CONFLICT');
    expectError(await call('PUT', viewPath(b.id, '/admin-detail'), { name: 'B', internalName: 'taken-name', enumDataViewTypeId: 'LIST', isPublished: false, config: {} }), 409, 'CONFLICT');
    // keeping one's own name is fine; another team may use it
    expectOk(await call('PUT', viewPath(a.id, '/admin-detail'), { name: 'A2', internalName: 'taken-name', enumDataViewTypeId: 'LIST', isPublished: false, config: {} }));
    await createView({ dataCollectionSimplyId: otherCollection.id, name: 'Theirs', internalName: 'taken-name', enumDataViewTypeId: 'LIST' }, other.apiKey);
  });

  it('changing the type must leave every link valid: calendar links and aggregations are named', async () => {
    const f = events.fields;
    const view = await createView({ dataCollectionSimplyId: events.id, name: 'Typed', enumDataViewTypeId: 'CALENDAR', config: { columns: [f.title] } });
    expectOk(await call('POST', viewPath(view.id, '/calendar-date-info-field-links'), { dataFieldSimplyId: f.starts }), 201);
    const toList = expectError(await call('PUT', viewPath(view.id, '/admin-detail'), { name: 'Typed', enumDataViewTypeId: 'LIST', isPublished: false, config: {} }), 400, 'VALIDATION_ERROR');
    expect(fieldsOf(toList)).toEqual(['enumDataViewTypeId']);
    expect(toList.details![0]!.message).toContain('calendar date');

    const chart = await createView({ dataCollectionSimplyId: events.id, name: 'Chart', enumDataViewTypeId: 'CHART' });
    const link = expectOk(await call('POST', viewPath(chart.id, '/display-field-links'), { dataFieldSimplyId: f.price, aggregation: 'SUM' }), 201);
    const toTable = expectError(await call('PUT', viewPath(chart.id, '/admin-detail'), { name: 'Chart', enumDataViewTypeId: 'TABLE', isPublished: false, config: {} }), 400, 'VALIDATION_ERROR');
    expect(toTable.details![0]).toMatchObject({ field: 'enumDataViewTypeId', message: expect.stringContaining(link.id) });
    expectOk(await call('PATCH', viewPath(chart.id, `/display-field-links/${link.id}`), { aggregation: null }));
    expectOk(await call('PUT', viewPath(chart.id, '/admin-detail'), { name: 'Chart', enumDataViewTypeId: 'TABLE', isPublished: false, config: {} }));
  });

  it('publishing a view with blockers is a 409 VIEW_NOT_READY listing them; once ready it publishes', async () => {
    const f = events.fields;
    const view = await createView({ dataCollectionSimplyId: events.id, name: 'To publish', enumDataViewTypeId: 'CALENDAR' });
    const body = { name: 'To publish', enumDataViewTypeId: 'CALENDAR', isPublished: true, config: {} };
    const versions = await versionCount();
    const refused = expectError(await call('PUT', viewPath(view.id, '/admin-detail'), body), 409, 'VIEW_NOT_READY');
    expect((refused.details as any[]).map((d) => d.code)).toEqual(['NO_DISPLAY_FIELDS', 'NO_CALENDAR_DATE_FIELD']);
    expect(await versionCount()).toBe(versions);
    expect((await adminDetail(view.id)).isPublished).toBe(false);
    expectOk(await call('POST', viewPath(view.id, '/calendar-date-info-field-links'), { dataFieldSimplyId: f.day }), 201);
    const published = expectOk(await call('PUT', viewPath(view.id, '/admin-detail'), { ...body, config: { columns: [f.title] } }));
    expect(published.isPublished).toBe(true);
    const version = await server.app.services.prisma.teamSchemaVersion.findFirstOrThrow({ where: { teamId: team.teamId }, orderBy: { version: 'desc' } });
    expect(version.summary).toBe(`view updated: To publish (${view.id}), published`);
  });
});

describe('admin list and picker entries', () => {
  let listed: CollectionFixture;
  const ids: string[] = [];

  beforeAll(async () => {
    listed = await createCollection(server, team, { name: 'Listed', fields: { label: 'PLAIN_TEXT', on: 'DATE' } });
    for (const [i, type] of (['LIST', 'TABLE', 'CALENDAR', 'MAP', 'STATS'] as const).entries()) {
      ids.push((await createView({ dataCollectionSimplyId: listed.id, name: `Listed ${i}`, enumDataViewTypeId: type, config: { columns: [listed.fields.label] } })).id);
    }
    expectOk(await call('POST', viewPath(ids[2]!, '/calendar-date-info-field-links'), { dataFieldSimplyId: listed.fields.on }), 201);
    expectOk(await call('POST', viewPath(ids[0]!, '/filter-field-links'), { dataFieldSimplyId: listed.fields.label }), 201);
  });

  it('pages by page and pageSize with a real total, newest first, summaries with link counts', async () => {
    const first = await call('GET', `/v1/data-views/admin-list?dataCollectionSimplyId=${listed.id}&pageSize=2`);
    expect(expectOk(first).map((v: any) => v.id)).toEqual([ids[4], ids[3]]);
    expect(first.body.meta.pagination).toEqual({ total: 5, page: 1, pageSize: 2, totalPages: 3, hasMore: true });
    const last = await call('GET', `/v1/data-views/admin-list?dataCollectionSimplyId=${listed.id}&pageSize=2&page=3`);
    expect(expectOk(last).map((v: any) => v.id)).toEqual([ids[0]]);
    expect(last.body.meta.pagination).toEqual({ total: 5, page: 3, pageSize: 2, totalPages: 3, hasMore: false });
    const beyond = await call('GET', `/v1/data-views/admin-list?dataCollectionSimplyId=${listed.id}&pageSize=2&page=4`);
    expect(expectOk(beyond)).toEqual([]);
    expect(beyond.body.meta.pagination.total).toBe(5);
    const all = expectOk(await call('GET', `/v1/data-views/admin-list?dataCollectionSimplyId=${listed.id}`));
    expect(Object.keys(all[0]).sort()).toEqual(ADMIN_SUMMARY_KEYS);
    expect(all.find((v: any) => v.id === ids[2])).toMatchObject({ enumDataViewTypeId: 'CALENDAR', displayFieldCount: 1, filterFieldCount: 0, calendarDateInfoFieldCount: 1 });
    expect(all.find((v: any) => v.id === ids[0])).toMatchObject({ filterFieldCount: 1 });
    // the whole team: every collection, a total of all the team's views
    const team = await call('GET', '/v1/data-views/admin-list?pageSize=100');
    const total = await server.app.services.prisma.dataView.count({ where: { teamId: (await server.app.services.prisma.dataView.findFirstOrThrow({ where: { simplyId: ids[0] } })).teamId } });
    expect(team.body.meta.pagination.total).toBe(total);
    expect(expectOk(team).map((v: any) => v.id)).not.toContain(otherView);
  });

  it('refuses bad paging and parameters; another team’s collection is 404', async () => {
    for (const q of ['page=0', 'page=10001', 'pageSize=0', 'pageSize=101', 'page=x', 'limit=5', 'dataCollectionSimplyId=12']) {
      expectError(await call('GET', `/v1/data-views/admin-list?${q}`), 400, 'VALIDATION_ERROR', q);
    }
    expectError(await call('GET', `/v1/data-views/admin-list?dataCollectionSimplyId=${otherCollection.id}`), 404, 'NOT_FOUND');
    expectGqlError(await server.graphql('{ dataViewAdminList(pageSize: 500) { nodes { id } } }', {}, { token: team.apiKey }), 'VALIDATION_ERROR', 400);
  });

  it('by-collection: picker entries of one collection only, newest first', async () => {
    const entries = expectOk(await call('GET', `/v1/data-views/by-collection/${listed.id}`));
    expect(entries.map((e: any) => e.id)).toEqual([...ids].reverse());
    expect(Object.keys(entries[0]).sort()).toEqual(['enumDataViewTypeId', 'id', 'internalName', 'isPublished', 'name']);
    expect(entries[4]).toEqual({ id: ids[0], name: 'Listed 0', internalName: null, enumDataViewTypeId: 'LIST', isPublished: false });
    expectError(await call('GET', `/v1/data-views/by-collection/${otherCollection.id}`), 404, 'NOT_FOUND');
    expectError(await call('GET', '/v1/data-views/by-collection/view-AAAA-BBBB-CCCC'), 400, 'VALIDATION_ERROR');
    expectError(await call('GET', '/v1/data-views/by-collection/123'), 400, 'VALIDATION_ERROR');
  });
});

describe('field links', () => {
  it('display fields: add, list, update, delete and reorder, each a version; columns follow', async () => {
    const f = events.fields;
    const view = await createView({ dataCollectionSimplyId: events.id, name: 'Linked', enumDataViewTypeId: 'TABLE' });
    const path = viewPath(view.id, '/display-field-links');
    const versions = await versionCount();
    const a = expectOk(await call('POST', path, { dataFieldSimplyId: f.title, label: { en: 'Event' } }), 201);
    const b = expectOk(await call('POST', path, { dataFieldSimplyId: f.starts }), 201);
    const c = expectOk(await call('POST', path, { dataFieldSimplyId: f.price }), 201);
    expect(a).toEqual({ id: expect.stringMatching(LINK_ID), dataFieldSimplyId: f.title, fieldExists: true, fieldTitle: 'title', fieldDataType: 'PLAIN_TEXT', label: { en: 'Event' }, aggregation: null });
    expect(expectOk(await call('GET', path)).map((l: any) => l.id)).toEqual([a.id, b.id, c.id]);
    expect(await versionCount()).toBe(versions + 3);

    const changed = expectOk(await call('PATCH', `${path}/${b.id}`, { dataFieldSimplyId: f.ends, label: 'Ends' }));
    expect(changed).toMatchObject({ id: b.id, dataFieldSimplyId: f.ends, label: 'Ends', fieldDataType: 'DATE_TIME' });
    expect(expectOk(await call('PATCH', `${path}/${b.id}`, { label: null }))).toMatchObject({ dataFieldSimplyId: f.ends, label: null });

    const reordered = expectOk(await call('PUT', `${path}/reorder`, { orderedLinkSimplyIds: [c.id, a.id, b.id] }));
    expect(reordered.map((l: any) => l.id)).toEqual([c.id, a.id, b.id]);
    expect(expectOk(await call('GET', viewPath(view.id))).config.columns).toEqual([f.price, f.title, f.ends]);

    expect(expectOk(await call('DELETE', `${path}/${a.id}`))).toEqual({ id: a.id, deleted: true });
    expectError(await call('DELETE', `${path}/${a.id}`), 404, 'NOT_FOUND');
    expectError(await call('PATCH', `${path}/${a.id}`, { label: 'x' }), 404, 'NOT_FOUND');
    expect(expectOk(await call('GET', path)).map((l: any) => l.id)).toEqual([c.id, b.id]);
    const version = await server.app.services.prisma.teamSchemaVersion.findFirstOrThrow({ where: { teamId: team.teamId }, orderBy: { version: 'desc' } });
    expect(version.summary).toBe(`view display field link deleted: ${a.id} on view ${view.id}`);
  });

  it('refuses links that do not fit the collection or the view type, naming the property', async () => {
    const f = events.fields;
    const table = await createView({ dataCollectionSimplyId: events.id, name: 'Table', enumDataViewTypeId: 'TABLE', config: { columns: [f.title] } });
    const detail = await createView({ dataCollectionSimplyId: events.id, name: 'Detail', enumDataViewTypeId: 'DETAIL' });
    const chart = await createView({ dataCollectionSimplyId: events.id, name: 'Chart', enumDataViewTypeId: 'STATS' });
    const calendar = await createView({ dataCollectionSimplyId: events.id, name: 'Calendar', enumDataViewTypeId: 'CALENDAR' });
    const bad = async (path: string, body: unknown, fields: string[]) => {
      const error = expectError(await call('POST', path, body), 400, 'VALIDATION_ERROR', `${path} ${JSON.stringify(body)}`);
      expect(fieldsOf(error), JSON.stringify(error)).toEqual(fields);
    };
    const versions = await versionCount();
    // display
    await bad(viewPath(table.id, '/display-field-links'), { dataFieldSimplyId: 'fld-AAAA-BBBB-CCCC' }, ['dataFieldSimplyId']);
    await bad(viewPath(table.id, '/display-field-links'), { dataFieldSimplyId: otherCollection.fields.label }, ['dataFieldSimplyId']);
    await bad(viewPath(table.id, '/display-field-links'), { dataFieldSimplyId: f.seats, aggregation: 'SUM' }, ['aggregation']);
    await bad(viewPath(chart.id, '/display-field-links'), { dataFieldSimplyId: f.status, aggregation: 'SUM' }, ['aggregation']);
    await bad(viewPath(chart.id, '/display-field-links'), { dataFieldSimplyId: f.venue, aggregation: 'MAX' }, ['aggregation']);
    await bad(viewPath(chart.id, '/display-field-links'), { dataFieldSimplyId: f.seats, aggregation: 'MEDIAN' }, ['aggregation']);
    await bad(viewPath(table.id, '/display-field-links'), { dataFieldSimplyId: f.status, width: 100 }, ['width']);
    await bad(viewPath(table.id, '/display-field-links'), { label: 'no field' }, ['dataFieldSimplyId']);
    await bad(viewPath(table.id, '/display-field-links'), { dataFieldSimplyId: f.status, label: 'x'.repeat(501) }, ['label']);
    // filter
    await bad(viewPath(table.id, '/filter-field-links'), { dataFieldSimplyId: f.poster }, ['dataFieldSimplyId']);
    await bad(viewPath(table.id, '/filter-field-links'), { dataFieldSimplyId: f.seats, defaultOperator: 'startsWith' }, ['defaultOperator']);
    await bad(viewPath(table.id, '/filter-field-links'), { dataFieldSimplyId: f.status, defaultOperator: 'like' }, ['defaultOperator']);
    await bad(viewPath(detail.id, '/filter-field-links'), { dataFieldSimplyId: f.status }, ['dataViewSimplyId']);
    // calendar dates: CALENDAR views, DATE or DATE_TIME fields, an end of the same type
    await bad(viewPath(table.id, '/calendar-date-info-field-links'), { dataFieldSimplyId: f.starts }, ['dataViewSimplyId']);
    await bad(viewPath(calendar.id, '/calendar-date-info-field-links'), { dataFieldSimplyId: f.status }, ['dataFieldSimplyId']);
    await bad(viewPath(calendar.id, '/calendar-date-info-field-links'), { dataFieldSimplyId: f.starts, endDataFieldSimplyId: f.day }, ['endDataFieldSimplyId']);
    await bad(viewPath(calendar.id, '/calendar-date-info-field-links'), { dataFieldSimplyId: f.starts, endDataFieldSimplyId: f.starts }, ['endDataFieldSimplyId']);
    await bad(viewPath(calendar.id, '/calendar-date-info-field-links'), { dataFieldSimplyId: f.starts, endDataFieldSimplyId: 'fld-AAAA-BBBB-CCCC' }, ['endDataFieldSimplyId']);
    await bad(viewPath(calendar.id, '/calendar-date-info-field-links'), { dataFieldSimplyId: f.starts, color: 'red' }, ['color']);
    expect(await versionCount()).toBe(versions);

    // what fits is accepted
    expectOk(await call('POST', viewPath(chart.id, '/display-field-links'), { dataFieldSimplyId: f.price, aggregation: 'AVERAGE' }), 201);
    expectOk(await call('POST', viewPath(chart.id, '/display-field-links'), { dataFieldSimplyId: f.starts, aggregation: 'MAX' }), 201);
    expectOk(await call('POST', viewPath(chart.id, '/display-field-links'), { dataFieldSimplyId: f.status, aggregation: 'COUNT' }), 201);
    const filter = expectOk(await call('POST', viewPath(table.id, '/filter-field-links'), { dataFieldSimplyId: f.status, defaultOperator: 'startsWith', label: 'Status' }), 201);
    expect(filter).toMatchObject({ dataFieldSimplyId: f.status, defaultOperator: 'startsWith', label: 'Status' });
    const dates = expectOk(await call('POST', viewPath(calendar.id, '/calendar-date-info-field-links'), { dataFieldSimplyId: f.starts, endDataFieldSimplyId: f.ends, color: '#2F80ED' }), 201);
    expect(dates).toMatchObject({ dataFieldSimplyId: f.starts, endDataFieldSimplyId: f.ends, color: '#2F80ED', fieldDataType: 'DATE_TIME' });
    // once per field and kind: 409
    expectError(await call('POST', viewPath(table.id, '/filter-field-links'), { dataFieldSimplyId: f.status }), 409, 'CONFLICT');
    expectError(await call('POST', viewPath(table.id, '/display-field-links'), { dataFieldSimplyId: f.title }), 409, 'CONFLICT');
    const second = expectOk(await call('POST', viewPath(calendar.id, '/calendar-date-info-field-links'), { dataFieldSimplyId: f.day }), 201);
    expectError(await call('PATCH', viewPath(calendar.id, `/calendar-date-info-field-links/${second.id}`), { dataFieldSimplyId: f.starts }), 409, 'CONFLICT');
    // an update is checked like an add; the field cannot be cleared
    const patchError = expectError(await call('PATCH', viewPath(calendar.id, `/calendar-date-info-field-links/${second.id}`), { dataFieldSimplyId: f.seats }), 400, 'VALIDATION_ERROR');
    expect(fieldsOf(patchError)).toEqual(['dataFieldSimplyId']);
    expect(fieldsOf(expectError(await call('PATCH', viewPath(calendar.id, `/calendar-date-info-field-links/${second.id}`), { dataFieldSimplyId: null }), 400, 'VALIDATION_ERROR'))).toEqual(['dataFieldSimplyId']);
    // a link of another kind (or view) is not found here
    expectError(await call('PATCH', viewPath(table.id, `/display-field-links/${filter.id}`), { label: 'x' }), 404, 'NOT_FOUND');
    expectError(await call('DELETE', viewPath(table.id, `/calendar-date-info-field-links/${dates.id}`)), 404, 'NOT_FOUND');
  });

  it('limits: at most 25 filter fields and 10 calendar dates', async () => {
    const many = await createCollection(server, team, {
      name: 'Many',
      fields: Object.fromEntries([...Array.from({ length: 26 }, (_, i) => [`t${i}`, 'PLAIN_TEXT']), ...Array.from({ length: 11 }, (_, i) => [`d${i}`, 'DATE'])]),
    });
    const table = await createView({ dataCollectionSimplyId: many.id, name: 'Many filters', enumDataViewTypeId: 'TABLE' });
    for (let i = 0; i < 25; i++) expectOk(await call('POST', viewPath(table.id, '/filter-field-links'), { dataFieldSimplyId: many.fields[`t${i}`] }), 201);
    const full = expectError(await call('POST', viewPath(table.id, '/filter-field-links'), { dataFieldSimplyId: many.fields.t25 }), 400, 'VALIDATION_ERROR');
    expect(fieldsOf(full)).toEqual(['filterFieldLinks']);
    const calendar = await createView({ dataCollectionSimplyId: many.id, name: 'Many dates', enumDataViewTypeId: 'CALENDAR' });
    for (let i = 0; i < 10; i++) expectOk(await call('POST', viewPath(calendar.id, '/calendar-date-info-field-links'), { dataFieldSimplyId: many.fields[`d${i}`] }), 201);
    expect(fieldsOf(expectError(await call('POST', viewPath(calendar.id, '/calendar-date-info-field-links'), { dataFieldSimplyId: many.fields.d10 }), 400, 'VALIDATION_ERROR'))).toEqual(['calendarDateInfoFieldLinks']);
    const eligible = expectOk(await call('GET', viewPath(calendar.id, '/eligible-fields')));
    expect(eligible.calendarDateInfoFieldLinks).toMatchObject({ isAvailable: false, unavailableReason: { code: 'LIMIT_REACHED' } });
    expect(eligible.calendarDateInfoFieldLinks.fields.find((e: any) => e.dataFieldSimplyId === many.fields.d10).reason.code).toBe('LIMIT_REACHED');
  });

  it('reorder: every link once; concurrent reorders leave one of the orders sent', async () => {
    const f = events.fields;
    const view = await createView({ dataCollectionSimplyId: events.id, name: 'Reordered', enumDataViewTypeId: 'TABLE', config: { columns: [f.title, f.starts, f.ends, f.day, f.seats, f.price] } });
    const path = viewPath(view.id, '/display-field-links');
    const links: string[] = expectOk(await call('GET', path)).map((l: any) => l.id);
    const refused = async (orderedLinkSimplyIds: unknown, fields: string[]) => {
      const error = expectError(await call('PUT', `${path}/reorder`, { orderedLinkSimplyIds }), 400, 'VALIDATION_ERROR', JSON.stringify(orderedLinkSimplyIds));
      expect(fieldsOf(error)).toEqual(fields);
    };
    await refused(links.slice(1), ['orderedLinkSimplyIds']);
    await refused([...links, links[0]], ['orderedLinkSimplyIds[6]']);
    await refused([...links.slice(1), 'vfl-AAAA-BBBB-CCCC'], ['orderedLinkSimplyIds[5]', 'orderedLinkSimplyIds']);
    await refused('nope', ['orderedLinkSimplyIds']);
    await refused(Array.from({ length: 201 }, () => links[0]), ['orderedLinkSimplyIds']);
    expectError(await call('PUT', `${path}/reorder`, { orderedLinkSimplyIds: links, extra: true }), 400, 'VALIDATION_ERROR');

    const orders = Array.from({ length: 8 }, (_, i) => {
      const rotated = [...links.slice(i % links.length), ...links.slice(0, i % links.length)];
      return i % 2 ? rotated.reverse() : rotated;
    });
    const answers = await Promise.all(orders.map((orderedLinkSimplyIds) => call('PUT', `${path}/reorder`, { orderedLinkSimplyIds })));
    for (const answer of answers) expectOk(answer);
    const final = expectOk(await call('GET', path)).map((l: any) => l.id);
    expect(orders).toContainEqual(final);
    // each answer is a whole order too
    for (const answer of answers) expect(orders).toContainEqual(answer.body.data.map((l: any) => l.id));
  });
});

describe('eligible fields', () => {
  it('says for each kind which fields can be linked and why the others cannot', async () => {
    const f = events.fields;
    const table = await createView({ dataCollectionSimplyId: events.id, name: 'Eligible', enumDataViewTypeId: 'TABLE', config: { columns: [f.title] } });
    const eligible = expectOk(await call('GET', viewPath(table.id, '/eligible-fields')));
    expect(Object.keys(eligible).sort()).toEqual(['calendarDateInfoFieldLinks', 'dataViewSimplyId', 'displayFieldLinks', 'enumDataViewTypeId', 'filterFieldLinks']);
    expect(eligible).toMatchObject({ dataViewSimplyId: table.id, enumDataViewTypeId: 'TABLE' });
    const reasons = (kind: string) => Object.fromEntries(eligible[kind].fields.map((e: any) => [e.dataFieldSimplyId, e.isEligible ? null : e.reason.code]));
    expect(eligible.displayFieldLinks.fields.map((e: any) => e.dataFieldSimplyId)).toEqual(Object.values(f));
    expect(eligible.displayFieldLinks.fields[0]).toEqual({ dataFieldSimplyId: f.title, title: 'title', dataType: 'PLAIN_TEXT', isEligible: false, reason: { code: 'ALREADY_LINKED', message: expect.any(String) } });
    expect(reasons('displayFieldLinks')).toMatchObject({ [f.title!]: 'ALREADY_LINKED', [f.starts!]: null, [f.poster!]: null, [f.venue!]: null });
    expect(reasons('filterFieldLinks')).toMatchObject({ [f.poster!]: 'DATA_TYPE_NOT_SUPPORTED', [f.status!]: null, [f.title!]: null });
    expect(eligible.calendarDateInfoFieldLinks).toMatchObject({ isAvailable: false, unavailableReason: { code: 'VIEW_TYPE_NOT_SUPPORTED' } });
    expect(new Set(Object.values(reasons('calendarDateInfoFieldLinks')))).toEqual(new Set(['VIEW_TYPE_NOT_SUPPORTED']));
    expect(eligible.displayFieldLinks).toMatchObject({ isAvailable: true, unavailableReason: null });

    const calendar = await createView({ dataCollectionSimplyId: events.id, name: 'Eligible calendar', enumDataViewTypeId: 'CALENDAR' });
    const dates = expectOk(await call('GET', viewPath(calendar.id, '/eligible-fields'))).calendarDateInfoFieldLinks;
    expect(dates.isAvailable).toBe(true);
    const eligibleDates = dates.fields.filter((e: any) => e.isEligible).map((e: any) => e.dataFieldSimplyId);
    expect(eligibleDates).toEqual([f.starts, f.ends, f.day]);
    expect(dates.fields.find((e: any) => e.dataFieldSimplyId === f.status).reason).toEqual({ code: 'DATA_TYPE_NOT_SUPPORTED', message: expect.stringContaining('DATE or DATE_TIME') });
    const detail = await createView({ dataCollectionSimplyId: events.id, name: 'Eligible detail', enumDataViewTypeId: 'DETAIL' });
    expect(expectOk(await call('GET', viewPath(detail.id, '/eligible-fields'))).filterFieldLinks.unavailableReason.code).toBe('VIEW_TYPE_NOT_SUPPORTED');
  });
});

describe('share readiness', () => {
  const codes = (list: any[]) => list.map((i) => i.code);

  it('names what blocks publishing for each view type, and what blocks each kind of sharing', async () => {
    const f = events.fields;
    const list = await createView({ dataCollectionSimplyId: events.id, name: 'Empty list', enumDataViewTypeId: 'LIST' });
    const empty = expectOk(await call('GET', viewPath(list.id, '/share-readiness')));
    expect(empty).toMatchObject({ dataViewSimplyId: list.id, enumDataViewTypeId: 'LIST', isPublished: false, canPublish: false, canShare: false });
    expect(codes(empty.blockers)).toEqual(['NO_DISPLAY_FIELDS']);
    expect(empty.blockers[0]).toEqual({ code: 'NO_DISPLAY_FIELDS', message: expect.any(String), field: 'displayFieldLinks' });
    expect(codes(empty.warnings)).toEqual(['NO_SAVED_FILTERS']);
    expect(empty.shareTargets).toEqual([
      {
        tokenType: 'EMBED',
        isAvailable: false,
        blockers: [expect.objectContaining({ code: 'VIEW_NOT_READY' }), expect.objectContaining({ code: 'NOT_PUBLISHED', field: 'isPublished' })],
        hasToken: false,
        isServing: false,
      },
      {
        tokenType: 'ICS_FEED',
        isAvailable: false,
        blockers: [expect.objectContaining({ code: 'VIEW_NOT_READY' }), expect.objectContaining({ code: 'NOT_PUBLISHED' }), expect.objectContaining({ code: 'NOT_A_CALENDAR' })],
        hasToken: false,
        isServing: false,
      },
    ]);

    const calendar = await createView({ dataCollectionSimplyId: events.id, name: 'Calendar', enumDataViewTypeId: 'CALENDAR', config: { columns: [f.title] } });
    expect(codes(expectOk(await call('GET', viewPath(calendar.id, '/share-readiness'))).blockers)).toEqual(['NO_CALENDAR_DATE_FIELD']);
    const map = await createView({ dataCollectionSimplyId: events.id, name: 'Map', enumDataViewTypeId: 'MAP', config: { columns: [f.title] } });
    expect(codes(expectOk(await call('GET', viewPath(map.id, '/share-readiness'))).blockers)).toEqual(['NO_MAP_LOCATION_FIELD']);
    const pivot = await createView({ dataCollectionSimplyId: events.id, name: 'Pivot', enumDataViewTypeId: 'PIVOT', config: { columns: [f.seats] } });
    expect(codes(expectOk(await call('GET', viewPath(pivot.id, '/share-readiness'))).blockers)).toEqual(['NO_GROUPING']);

    // ready and published: both kinds of sharing for a calendar
    expectOk(await call('POST', viewPath(calendar.id, '/calendar-date-info-field-links'), { dataFieldSimplyId: f.starts }), 201);
    expectOk(await call('PUT', viewPath(calendar.id, '/admin-detail'), { name: 'Calendar', enumDataViewTypeId: 'CALENDAR', isPublished: true, config: { filters: [{ field: f.seats, operator: 'gt', value: 0 }] } }));
    const ready = expectOk(await call('GET', viewPath(calendar.id, '/share-readiness')));
    expect(ready).toMatchObject({ isPublished: true, canPublish: true, canShare: true, blockers: [], warnings: [] });
    expect(ready.shareTargets).toEqual([
      { tokenType: 'EMBED', isAvailable: true, blockers: [], hasToken: false, isServing: false },
      { tokenType: 'ICS_FEED', isAvailable: true, blockers: [], hasToken: false, isServing: false },
    ]);
  });

  it('finds what changed under a view: a deleted field, filters the search language no longer accepts', async () => {
    const changing = await createCollection(server, team, { name: 'Changing', fields: { name: 'PLAIN_TEXT', on: 'DATE', size: 'NUMBER', place: 'PHYSICAL_ADDRESS' } });
    const f = changing.fields;
    const view = await createView({ dataCollectionSimplyId: changing.id, name: 'Changing calendar', enumDataViewTypeId: 'CALENDAR', config: { columns: [f.name, f.size] } });
    const dateLink = expectOk(await call('POST', viewPath(view.id, '/calendar-date-info-field-links'), { dataFieldSimplyId: f.on }), 201);
    expect(expectOk(await call('GET', viewPath(view.id, '/share-readiness'))).canPublish).toBe(true);

    // the date field and a shown field are removed from the collection
    for (const field of [f.on, f.size]) expectOk(await call('DELETE', `/v1/data-collections/${changing.id}/fields/${field}`));
    const detail = await adminDetail(view.id);
    expect(detail.config.columns).toEqual([f.name]);
    expect(detail.displayFieldLinks.map((l: any) => [l.dataFieldSimplyId, l.fieldExists, l.fieldDataType])).toEqual([[f.name, true, 'PLAIN_TEXT'], [f.size, false, null]]);
    const afterDelete = expectOk(await call('GET', viewPath(view.id, '/share-readiness')));
    expect(afterDelete.canPublish).toBe(false);
    const sizeLink = detail.displayFieldLinks[1].id;
    expect(afterDelete.blockers.map((b: any) => [b.code, b.field])).toEqual([
      ['FIELD_MISSING', `displayFieldLinks.${sizeLink}.dataFieldSimplyId`],
      ['FIELD_MISSING', `calendarDateInfoFieldLinks.${dateLink.id}.dataFieldSimplyId`],
    ]);
    // a dangling link cannot be changed, only deleted
    expectError(await call('PATCH', viewPath(view.id, `/display-field-links/${sizeLink}`), { label: 'x' }), 400, 'VALIDATION_ERROR');
    expectOk(await call('DELETE', viewPath(view.id, `/display-field-links/${sizeLink}`)));

    // filters saved earlier that the collection no longer fits (written as an older platform stored them)
    const row = await server.app.services.prisma.dataView.findFirstOrThrow({ where: { simplyId: view.id } });
    await server.app.services.prisma.dataView.update({
      where: { id: row.id },
      data: {
        config: {
          ...(row.config as object),
          filters: [
            { field: f.size, operator: 'gt', value: 3 },
            { field: f.name, operator: 'gt', value: 'a' },
            { field: 'createdAt', operator: 'gte', value: '2026-01-01' },
          ],
          sortOrder: [{ field: f.size, direction: 'asc' }],
        },
      },
    });
    const stale = expectOk(await call('GET', viewPath(view.id, '/share-readiness')));
    expect(stale.blockers.map((b: any) => [b.code, b.field])).toEqual([
      ['FIELD_MISSING', `calendarDateInfoFieldLinks.${dateLink.id}.dataFieldSimplyId`],
      ['FIELD_MISSING', 'config.sortOrder[0].field'],
      ['FIELD_MISSING', 'config.filters[0].field'],
      ['FILTER_INVALID', 'config.filters[1].operator'],
    ]);
    // publishing is refused with the same list
    const refused = expectError(
      await call('PUT', viewPath(view.id, '/admin-detail'), { name: 'x', enumDataViewTypeId: 'CALENDAR', isPublished: true, config: { filters: [{ field: f.name, operator: 'eq', value: 'a' }] } }),
      409,
      'VIEW_NOT_READY',
    );
    expect((refused.details as any[]).map((d) => d.code)).toEqual(['FIELD_MISSING']);
  });

  it('a map needs a PHYSICAL_ADDRESS location; an archived collection blocks everything', async () => {
    const f = events.fields;
    const map = await createView({ dataCollectionSimplyId: events.id, name: 'Venues', enumDataViewTypeId: 'MAP', config: { columns: [f.title] } });
    const placed = expectOk(await call('PUT', viewPath(map.id, '/admin-detail'), { name: 'Venues', enumDataViewTypeId: 'MAP', isPublished: true, config: { map: { locationFieldSimplyId: f.venue, defaultZoom: 12 } } }));
    expect(placed.config.map).toEqual({ locationFieldSimplyId: f.venue, defaultZoom: 12 });
    const readiness = expectOk(await call('GET', viewPath(map.id, '/share-readiness')));
    expect(readiness).toMatchObject({ canPublish: true, canShare: true });
    expect(readiness.shareTargets.map((t: any) => [t.tokenType, t.isAvailable])).toEqual([['EMBED', true], ['ICS_FEED', false]]);

    const archived = await createCollection(server, team, { name: 'Archived', fields: { label: 'PLAIN_TEXT' } });
    const view = await createView({ dataCollectionSimplyId: archived.id, name: 'On archived', enumDataViewTypeId: 'LIST', config: { columns: [archived.fields.label] } });
    await server.app.services.prisma.dataCollection.update({ where: { id: archived.internalId }, data: { isArchived: true } });
    server.app.services.schemas.invalidate(team.teamId);
    expect(codes(expectOk(await call('GET', viewPath(view.id, '/share-readiness'))).blockers)).toEqual(['COLLECTION_ARCHIVED']);
  });
});

describe('internal name validation', () => {
  const check = async (query: string, token = team.apiKey) => expectOk(await call('GET', `/v1/data-views/internal-name-validation?${query}`, undefined, token));

  it('tells whether a name is well-formed and free, with problems and a suggestion', async () => {
    const holder = await createView({ dataCollectionSimplyId: events.id, name: 'Holder', internalName: 'members-list', enumDataViewTypeId: 'LIST' });
    await createView({ dataCollectionSimplyId: events.id, name: 'Holder 2', internalName: 'members-list-2', enumDataViewTypeId: 'LIST' });
    expect(await check('internalName=fresh-name')).toEqual({ internalName: 'fresh-name', isValid: true, isAvailable: true, problems: [], suggestion: null });
    expect(await check('internalName=members-list')).toEqual({
      internalName: 'members-list',
      isValid: true,
      isAvailable: false,
      problems: [{ code: 'TAKEN', message: expect.any(String) }],
      suggestion: 'members-list-3',
    });
    // the view being edited may keep its own name
    expect((await check(`internalName=members-list&dataViewSimplyId=${holder.id}`)).isAvailable).toBe(true);
    const typed = await check(`internalName=${encodeURIComponent('Mitglieder Übersicht!')}`);
    expect(typed).toMatchObject({ isValid: false, isAvailable: false, suggestion: 'mitglieder-ubersicht' });
    expect(typed.problems.map((p: any) => p.code)).toEqual(['INVALID_CHARACTERS', 'MUST_START_WITH_LETTER', 'MUST_END_WITH_LETTER_OR_DIGIT']);
    expect((await check('internalName=')).problems.map((p: any) => p.code)).toEqual(['TOO_SHORT']);
    expect((await check(`internalName=${'a'.repeat(65)}`)).problems.map((p: any) => p.code)).toEqual(['TOO_LONG']);
    expect((await check('internalName=9lives')).problems.map((p: any) => p.code)).toEqual(['MUST_START_WITH_LETTER']);
    // another team's names do not count
    expect((await check('internalName=members-list', other.apiKey)).isAvailable).toBe(true);
  });

  it('refuses a missing or oversized name and malformed ids; another team’s view is 404', async () => {
    expectError(await call('GET', '/v1/data-views/internal-name-validation'), 400, 'VALIDATION_ERROR');
    expectError(await call('GET', `/v1/data-views/internal-name-validation?internalName=${'a'.repeat(201)}`), 400, 'VALIDATION_ERROR');
    expectError(await call('GET', '/v1/data-views/internal-name-validation?internalName=ok&dataViewSimplyId=12'), 400, 'VALIDATION_ERROR');
    expectError(await call('GET', `/v1/data-views/internal-name-validation?internalName=ok&dataViewSimplyId=${otherView}`), 404, 'NOT_FOUND');
    expectError(await call('GET', '/v1/data-views/internal-name-validation?internalName=ok&surprise=1'), 400, 'VALIDATION_ERROR');
  });
});

describe('privileged tier, other teams and malformed ids', () => {
  let view: string;
  let link: string;

  /** every administration route, with a body that is valid for `view` */
  const routes = () =>
    [
      ['GET', viewPath(view, '/admin-detail')],
      ['PUT', viewPath(view, '/admin-detail'), { name: 'x', enumDataViewTypeId: 'LIST', isPublished: false, config: {} }],
      ['GET', '/v1/data-views/admin-list'],
      ['GET', `/v1/data-views/by-collection/${events.id}`],
      ['GET', viewPath(view, '/eligible-fields')],
      ['GET', viewPath(view, '/share-readiness')],
      ['GET', '/v1/data-views/internal-name-validation?internalName=abc'],
      ...['display-field-links', 'filter-field-links', 'calendar-date-info-field-links'].flatMap((segment) => [
        ['GET', viewPath(view, `/${segment}`)],
        ['POST', viewPath(view, `/${segment}`), { dataFieldSimplyId: events.fields.day }],
        ['PATCH', viewPath(view, `/${segment}/${link}`), { label: 'x' }],
        ['DELETE', viewPath(view, `/${segment}/${link}`)],
        ['PUT', viewPath(view, `/${segment}/reorder`), { orderedLinkSimplyIds: [link] }],
      ]),
    ] as [string, string, unknown?][];

  beforeAll(async () => {
    view = (await createView({ dataCollectionSimplyId: events.id, name: 'Guarded', enumDataViewTypeId: 'CALENDAR', config: { columns: [events.fields.title] } })).id;
    link = (await adminDetail(view)).displayFieldLinks[0].id;
  });

  it('scoped session tokens, OAuth tokens, keys without TEAM_SETTINGS and plain members are refused', async () => {
    const session = expectOk(await call('POST', '/v1/session-tokens', { oauthScopes: ['schema:read', 'records:read', 'admin:read'], featurePermissions: ['TEAM_SETTINGS'] }), 201).token;
    const oauth = await oauthToken(server, team, 'schema:read admin:read');
    const noFeature = (await createApiKey(server, team, { name: 'no settings', featurePermissions: [] })).key;
    const role = await createRole(server, team, { name: 'Everything but settings', dataFullAccess: 'EDIT' });
    const member = await addMember(server, team, { teamRoleSimplyId: role });
    const versions = await versionCount();
    for (const [method, path, body] of routes()) {
      for (const [who, token, teamId] of [['session', session], ['oauth', oauth], ['key', noFeature], ['member', member.token, team.teamSimplyId]] as const) {
        const res = await call(method, path, body, token, teamId);
        expect(res.status, `${who} ${method} ${path} ${res.text}`).toBe(403);
        expect(['PERMISSION_DENIED', 'OAUTH_SCOPE_REQUIRED', 'OAUTH_CLIENT_FORBIDDEN']).toContain(res.body.error.code);
      }
    }
    expect(await versionCount()).toBe(versions);
  });

  it('TEAM_SETTINGS view level reads but does not change; a team admin does both', async () => {
    const viewer = (await createApiKey(server, team, { name: 'settings viewer', featurePermissions: ['TEAM_SETTINGS:VIEW'] })).key;
    for (const [method, path, body] of routes()) {
      const res = await call(method, path, body, viewer);
      if (method === 'GET') expect(res.status, `${method} ${path} ${res.text}`).toBe(200);
      else expectError(res, 403, 'PERMISSION_DENIED', `${method} ${path}`);
    }
    const admin = await addMember(server, team, { isTeamAdmin: true });
    expectOk(await call('GET', viewPath(view, '/admin-detail'), undefined, admin.token, team.teamSimplyId));
    expectOk(await call('PATCH', viewPath(view, `/display-field-links/${link}`), { label: 'By an admin' }, admin.token, team.teamSimplyId));
    const version = await server.app.services.prisma.teamSchemaVersion.findFirstOrThrow({ where: { teamId: team.teamId }, orderBy: { version: 'desc' } });
    expect(version).toMatchObject({ actorKind: 'USER', actorId: admin.userSimplyId });
  });

  it('another team’s view, collection and links are 404; malformed and numeric ids are 400', async () => {
    const otherLink: string = expectOk(await call('GET', viewPath(otherView, '/admin-detail'), undefined, other.apiKey)).displayFieldLinks[0].id;
    const swap = (path: string) => path.replace(view, otherView);
    const versions = await versionCount();
    for (const [method, path, body] of routes()) {
      if (!path.includes(view)) continue;
      expectError(await call(method, swap(path), body), 404, 'NOT_FOUND', `${method} ${swap(path)}`);
      for (const bad of ['123', 'view-1234', 'AAAA-BBBB-CCCC', 'role-AAAA-BBBB-CCCC']) {
        expectError(await call(method, path.replace(view, bad), body), 400, 'VALIDATION_ERROR', `${method} ${path.replace(view, bad)}`);
      }
      if (path.includes(link)) {
        expectError(await call(method, path.replace(link, 'vfl-AAAA-BBBB-CCCC'), body), 404, 'NOT_FOUND', `${method} ${path}`);
        expectError(await call(method, path.replace(link, otherLink), body), 404, 'NOT_FOUND', `${method} ${path}`);
        expectError(await call(method, path.replace(link, '42'), body), 400, 'VALIDATION_ERROR', `${method} ${path}`);
      }
    }
    // a field of another team's collection is not a field of this view
    expect(fieldsOf(expectError(await call('POST', viewPath(view, '/display-field-links'), { dataFieldSimplyId: otherCollection.fields.label }), 400, 'VALIDATION_ERROR'))).toEqual(['dataFieldSimplyId']);
    expect(await versionCount()).toBe(versions);
  });
});

describe('GraphQL', () => {
  it('serves the same operations', async () => {
    const token = team.apiKey;
    const f = events.fields;
    const view = await createView({ dataCollectionSimplyId: events.id, name: 'Graph', enumDataViewTypeId: 'CALENDAR' });
    const added = gqlData(
      await server.graphql(
        `mutation($id: String!, $input: DataViewCalendarDateInfoFieldLinkInput!) { addDataViewCalendarDateInfoFieldLink(dataViewSimplyId: $id, input: $input) { id dataFieldSimplyId endDataFieldSimplyId color fieldDataType } }`,
        { id: view.id, input: { dataFieldSimplyId: f.starts, endDataFieldSimplyId: f.ends } },
        { token },
      ),
    ).addDataViewCalendarDateInfoFieldLink;
    expect(added).toMatchObject({ dataFieldSimplyId: f.starts, endDataFieldSimplyId: f.ends, color: null, fieldDataType: 'DATE_TIME' });
    const updated = gqlData(
      await server.graphql(
        `mutation($id: String!, $input: DataViewAdminInput!) { updateDataViewAdminDetail(dataViewSimplyId: $id, input: $input) { internalName config { columns calendar { timeZone } } displayFieldLinks { id } calendarDateInfoFieldLinks { id } } }`,
        { id: view.id, input: { name: 'Graph', internalName: 'graph-view', enumDataViewTypeId: 'CALENDAR', isPublished: true, config: { columns: [f.title], calendar: { timeZone: 'America/New_York' } } } },
        { token },
      ),
    ).updateDataViewAdminDetail;
    expect(updated).toMatchObject({ internalName: 'graph-view', config: { columns: [f.title], calendar: { timeZone: 'America/New_York' } }, calendarDateInfoFieldLinks: [{ id: added.id }] });
    const read = gqlData(
      await server.graphql(
        `query($id: String!, $c: String!) {
          dataViewShareReadiness(dataViewSimplyId: $id) { canPublish canShare shareTargets { tokenType isAvailable } }
          dataViewEligibleFields(dataViewSimplyId: $id) { calendarDateInfoFieldLinks { fields { dataFieldSimplyId isEligible reason { code } } } }
          dataViewsByCollection(dataCollectionSimplyId: $c) { id }
          dataViewAdminList(dataCollectionSimplyId: $c, pageSize: 1) { nodes { id } pagination { page pageSize hasMore } }
          dataViewInternalNameValidation(internalName: "graph-view") { isAvailable suggestion }
          dataViewCalendarDateInfoFieldLinks(dataViewSimplyId: $id) { id }
        }`,
        { id: view.id, c: events.id },
        { token },
      ),
    );
    expect(read.dataViewShareReadiness).toEqual({ canPublish: true, canShare: true, shareTargets: [{ tokenType: 'EMBED', isAvailable: true }, { tokenType: 'ICS_FEED', isAvailable: true }] });
    expect(read.dataViewEligibleFields.calendarDateInfoFieldLinks.fields.find((e: any) => e.dataFieldSimplyId === f.starts).reason.code).toBe('ALREADY_LINKED');
    expect(read.dataViewsByCollection[0].id).toBe(view.id);
    expect(read.dataViewAdminList).toEqual({ nodes: [{ id: view.id }], pagination: { page: 1, pageSize: 1, hasMore: true } });
    expect(read.dataViewInternalNameValidation).toEqual({ isAvailable: false, suggestion: 'graph-view-2' });
    expect(read.dataViewCalendarDateInfoFieldLinks).toEqual([{ id: added.id }]);
    expect(
      gqlData(await server.graphql(`mutation($id: String!, $l: String!) { deleteDataViewCalendarDateInfoFieldLink(dataViewSimplyId: $id, linkSimplyId: $l) }`, { id: view.id, l: added.id }, { token }))
        .deleteDataViewCalendarDateInfoFieldLink,
    ).toBe(true);
    expectGqlError(await server.graphql(`query($id: String!) { dataViewAdminDetail(dataViewSimplyId: $id) { id } }`, { id: otherView }, { token }), 'NOT_FOUND', 404);
    const session = expectOk(await call('POST', '/v1/session-tokens', { oauthScopes: ['schema:read'] }), 201).token;
    expectGqlError(await server.graphql(`query($id: String!) { dataViewAdminDetail(dataViewSimplyId: $id) { id } }`, { id: view.id }, { token: session }), 'PERMISSION_DENIED', 403);
  });
});
