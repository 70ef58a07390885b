// Data views in the route-table suites (test/support/area-kit.ts): the races of their write routes
// (views, the admin detail, the three kinds of field links, public access tokens), the bodies of
// the id routes, and a published list view of the world's collection plus a calendar view with one
// date link; the world's {tokenType} is EMBED.
//
// Races on data views and their administration: one view per internal name, one link per field
// and kind, every link once after concurrent reorders, the last writer's whole value.
import { randomBytes } from 'node:crypto';
import { freshCollection, readAll, unique } from '../concurrency/fresh-resources.ts';
import { expectOneDeletion, expectOneOf, expectSame, expectSuccesses } from '../concurrency/race-checks.ts';
import { N, succeeded, type RaceKit, type RaceTable } from '../concurrency/race-kit.ts';
import { fresh, ok, type AreaTestKit } from '../support/area-kit.ts';

const ONE = '/v1/data-views/{dataViewSimplyId}';

/** a collection of N + 1 DATE fields and a CALENDAR view on it */
async function calendarView(kit: RaceKit): Promise<{ view: string; fieldIds: string[] }> {
  const c = await kit.admin('POST', '/v1/data-collections', {
    name: unique('dated'),
    fields: Array.from({ length: N + 1 }, (_, i) => ({ title: `date ${i}`, dataType: 'DATE', columnName: `date_${i}` })),
  });
  const view = await kit.admin('POST', '/v1/data-views', { dataCollectionSimplyId: c.id, name: unique('calendar'), enumDataViewTypeId: 'CALENDAR' });
  return { view: view.id, fieldIds: c.fields.map((f: { id: string }) => f.id) };
}

/** a LIST view on a collection of N + 1 PLAIN_TEXT fields, without links */
async function listView(kit: RaceKit): Promise<{ view: string; fieldIds: string[] }> {
  const c = await freshCollection(kit, { fields: N + 1 });
  const view = await kit.admin('POST', '/v1/data-views', { dataCollectionSimplyId: c.id, name: unique('view'), enumDataViewTypeId: 'LIST' });
  return { view: view.id, fieldIds: c.fieldIds };
}

/** permutations of `ids`: rotations, then reversed rotations */
const orders = (ids: string[]) =>
  Array.from({ length: N }, (_, i) => {
    const rotated = [...ids.slice(i % ids.length), ...ids.slice(0, i % ids.length)];
    return i < ids.length ? rotated : rotated.reverse();
  });

/** the races of one kind of field link */
function linkRaces(segment: string, setUp: (kit: RaceKit) => Promise<{ view: string; fieldIds: string[] }>, change: (i: number) => Record<string, unknown>, read: (link: any) => unknown): RaceTable {
  const list = `${ONE}/${segment}`;
  const links = (view: string) => `/v1/data-views/${view}/${segment}`;
  async function withLinks(kit: RaceKit, count: number): Promise<{ view: string; fieldIds: string[]; linkIds: string[] }> {
    const v = await setUp(kit);
    const linkIds: string[] = [];
    for (const field of v.fieldIds.slice(0, count)) linkIds.push((await kit.admin('POST', links(v.view), { dataFieldSimplyId: field })).id);
    return { ...v, linkIds };
  }
  return {
    [`POST ${list}`]: [
      {
        what: 'N links of one field: one is made, the others are refused',
        async run(kit) {
          const v = await setUp(kit);
          const xs = await kit.race({ method: 'POST', path: links(v.view), body: { dataFieldSimplyId: v.fieldIds[0] } });
          kit.expectAnswers(xs, ['201', '409 CONFLICT']);
          expectSuccesses(kit, xs, 1, 'a field is linked once per kind');
          expectSame(kit, 'linked fields', (await kit.admin('GET', links(v.view))).map((l: any) => l.dataFieldSimplyId), [v.fieldIds[0]], xs);
        },
      },
      {
        what: 'N links of N different fields at once',
        async run(kit) {
          const v = await setUp(kit);
          const xs = await kit.race(v.fieldIds.slice(0, N).map((dataFieldSimplyId) => ({ method: 'POST', path: links(v.view), body: { dataFieldSimplyId } })));
          kit.expectAnswers(xs, ['201']);
          const linked = (await kit.admin('GET', links(v.view))).map((l: any) => l.dataFieldSimplyId);
          expectSame(kit, 'linked fields', [...linked].sort(), succeeded(xs).map((x) => x.response.body.data.dataFieldSimplyId).sort(), xs);
        },
      },
    ],
    [`PATCH ${list}/{linkSimplyId}`]: [
      {
        what: 'N different changes of one link',
        async run(kit) {
          const v = await withLinks(kit, 1);
          const bodies = Array.from({ length: N }, (_, i) => change(i));
          const xs = await kit.race(bodies.map((body) => ({ method: 'PATCH', path: `${links(v.view)}/${v.linkIds[0]}`, body })));
          kit.expectAnswers(xs, ['200']);
          const [link] = await kit.admin('GET', links(v.view));
          expectOneOf(kit, 'the link', read(link), bodies.map((b) => read(b)), xs);
        },
      },
    ],
    [`DELETE ${list}/{linkSimplyId}`]: [
      {
        what: 'N deletes of one link',
        async run(kit) {
          const v = await withLinks(kit, 2);
          const path = `${links(v.view)}/${v.linkIds[0]}`;
          const xs = await kit.race({ method: 'DELETE', path });
          kit.expectAnswers(xs, ['200', '404 NOT_FOUND']);
          await expectOneDeletion(kit, xs, { method: 'DELETE', path });
          expectSame(kit, 'links left', (await kit.admin('GET', links(v.view))).map((l: any) => l.id), [v.linkIds[1]], xs);
        },
      },
    ],
    [`PUT ${list}/reorder`]: [
      {
        what: 'N different orders of the same links',
        async run(kit) {
          const v = await withLinks(kit, 4);
          const submitted = orders(v.linkIds);
          const xs = await kit.race(submitted.map((orderedLinkSimplyIds) => ({ method: 'PUT', path: `${links(v.view)}/reorder`, body: { orderedLinkSimplyIds } })));
          kit.expectAnswers(xs, ['200']);
          expectOneOf(kit, 'the link order', (await kit.admin('GET', links(v.view))).map((l: any) => l.id), submitted, xs);
        },
      },
      {
        what: 'N reorders racing N additions',
        async run(kit) {
          const v = await withLinks(kit, 3);
          const reorders = orders(v.linkIds).map((orderedLinkSimplyIds) => ({ method: 'PUT', path: `${links(v.view)}/reorder`, body: { orderedLinkSimplyIds } }));
          const adds = v.fieldIds.slice(3, 3 + N).map((dataFieldSimplyId) => ({ method: 'POST', path: links(v.view), body: { dataFieldSimplyId } }));
          const xs = await kit.race([...reorders, ...adds]);
          // a reorder that comes after an addition no longer names every link: refused, nothing changed
          kit.expectAnswers(xs, ['200', '201', '400 VALIDATION_ERROR']);
          const final = (await kit.admin('GET', links(v.view))).map((l: any) => l.id);
          const added = succeeded(xs.slice(reorders.length)).map((x) => x.response.body.data.id);
          expectSame(kit, 'links after the race', [...final].sort(), [...v.linkIds, ...added].sort(), xs);
        },
      },
    ],
  };
}

const viewRaces: RaceTable = {
  'POST /v1/data-views': [
    {
      what: 'N identical views (names need not be unique)',
      async run(kit) {
        const c = await freshCollection(kit, { fields: 1 });
        const name = unique('view');
        const xs = await kit.race({ method: 'POST', path: '/v1/data-views', body: { dataCollectionSimplyId: c.id, name, enumDataViewTypeId: 'TABLE', config: { columns: c.fieldIds } } });
        kit.expectAnswers(xs, ['201', '409 CONFLICT']);
        expectSame(kit, 'views with the name', (await readAll(kit, '/v1/data-views')).filter((v) => v.name === name).length, succeeded(xs).length, xs);
      },
    },
    {
      what: 'N views with one internal name',
      async run(kit) {
        const c = await freshCollection(kit, { fields: 1 });
        const internalName = `v-${unique('x').split(' ')[1]}`;
        const xs = await kit.race({ method: 'POST', path: '/v1/data-views', body: { dataCollectionSimplyId: c.id, name: 'named', internalName, enumDataViewTypeId: 'LIST' } });
        kit.expectAnswers(xs, ['201', '409 CONFLICT']);
        expectSuccesses(kit, xs, 1, 'an internal name is unique in the team');
      },
    },
  ],
  'DELETE /v1/data-views/{dataViewSimplyId}': [
    {
      what: 'N deletes of one view',
      async run(kit) {
        const c = await freshCollection(kit, { fields: 1 });
        const view = await kit.admin('POST', '/v1/data-views', { dataCollectionSimplyId: c.id, name: unique('view'), enumDataViewTypeId: 'LIST' });
        const xs = await kit.race({ method: 'DELETE', path: `/v1/data-views/${view.id}` });
        kit.expectAnswers(xs, ['200', '404 NOT_FOUND']);
        await expectOneDeletion(kit, xs, { method: 'DELETE', path: `/v1/data-views/${view.id}` }, `/v1/data-views/${view.id}`);
      },
    },
  ],
  [`PUT ${ONE}/admin-detail`]: [
    {
      what: 'N different settings for one view',
      async run(kit) {
        const v = await listView(kit);
        const bodies = Array.from({ length: N }, (_, i) => ({
          name: `name ${i}`,
          description: `description ${i}`,
          internalName: `view-${i}-${unique('x').split(' ')[1]}`,
          enumDataViewTypeId: i % 2 ? 'TABLE' : 'LIST',
          isPublished: false,
          config: { columns: v.fieldIds.slice(0, i + 1), sortOrder: [{ field: v.fieldIds[i], direction: 'asc' }] },
        }));
        const xs = await kit.race(bodies.map((body) => ({ method: 'PUT', path: `/v1/data-views/${v.view}/admin-detail`, body })));
        kit.expectAnswers(xs, ['200']);
        const detail = await kit.admin('GET', `/v1/data-views/${v.view}/admin-detail`);
        const shape = (d: any) => ({ name: d.name, description: d.description, internalName: d.internalName, enumDataViewTypeId: d.enumDataViewTypeId, columns: d.config.columns, sortOrder: d.config.sortOrder });
        expectOneOf(kit, 'the view', shape(detail), bodies.map(shape), xs);
        expectSame(kit, 'display links', detail.displayFieldLinks.map((l: any) => l.dataFieldSimplyId), detail.config.columns, xs);
      },
    },
    {
      what: 'N views taking one internal name',
      async run(kit) {
        const c = await freshCollection(kit, { fields: 1 });
        const views: string[] = [];
        for (let i = 0; i < N; i++) views.push((await kit.admin('POST', '/v1/data-views', { dataCollectionSimplyId: c.id, name: `view ${i}`, enumDataViewTypeId: 'LIST' })).id);
        const internalName = `shared-${unique('x').split(' ')[1]}`;
        const xs = await kit.race(views.map((id) => ({ method: 'PUT', path: `/v1/data-views/${id}/admin-detail`, body: { name: 'x', internalName, enumDataViewTypeId: 'LIST', isPublished: false, config: {} } })));
        kit.expectAnswers(xs, ['200', '409 CONFLICT']);
        expectSuccesses(kit, xs, 1, 'an internal name is unique in the team');
        const holders = (await kit.admin('GET', '/v1/data-views/admin-list?pageSize=100')).filter((v: any) => v.internalName === internalName);
        expectSame(kit, 'views with the internal name', holders.length, 1, xs);
      },
    },
  ],
  ...linkRaces('display-field-links', listView, (i) => ({ label: `label ${i}` }), (l) => l.label),
  ...linkRaces('filter-field-links', listView, (i) => ({ label: `label ${i}`, defaultOperator: i % 2 ? 'eq' : 'contains' }), (l) => ({ label: l.label, defaultOperator: l.defaultOperator })),
  ...linkRaces('calendar-date-info-field-links', calendarView, (i) => ({ label: `label ${i}`, color: `#00000${i}` }), (l) => ({ label: l.label, color: l.color })),
};

const TOKEN = `${ONE}/public-access-tokens/{tokenType}`;

/** a published TABLE view with one column: it can be shared as an embed */
async function shareableView(kit: RaceKit): Promise<string> {
  const c = await freshCollection(kit, { fields: 1 });
  return (await kit.admin('POST', '/v1/data-views', { dataCollectionSimplyId: c.id, name: unique('shared'), enumDataViewTypeId: 'TABLE', isPublished: true, config: { columns: c.fieldIds } })).id;
}

/** how many of `urls` open a page (the public embed answers without a credential) */
async function working(kit: RaceKit, urls: string[]): Promise<number> {
  const statuses = await Promise.all(urls.map(async (url) => (await kit.server.request('GET', new URL(url).pathname)).status));
  return statuses.filter((s) => s === 200).length;
}

// Races on public access tokens: one token per view and type whatever the number of creators, and
// the one stored is one that was answered (the others no longer work); one revocation wins.
const tokenRaces: RaceTable = {
  [`POST ${TOKEN}`]: [
    {
      what: 'N creations of one view’s embed token: one token is left, one of those answered, and only it works',
      async run(kit) {
        const view = await shareableView(kit);
        const path = `/v1/data-views/${view}/public-access-tokens/EMBED`;
        const xs = await kit.race({ method: 'POST', path, body: { allowedOrigins: ['https://www.example.org'] } });
        kit.expectAnswers(xs, ['201']);
        const issued = succeeded(xs).map((x) => x.response.body.data);
        expectSame(kit, 'first creations (rotated: false)', issued.filter((t) => !t.rotated).length, 1, xs);
        const stored = await kit.admin('GET', path);
        expectOneOf(kit, 'the stored token hint', stored.tokenHint, xs.map((x) => x.response.body?.data?.tokenHint), xs);
        expectSame(kit, 'working URLs', await working(kit, issued.map((t) => t.url)), 1, xs);
      },
    },
    {
      what: 'N creations racing N revocations: what is left is one token that works, or none',
      async run(kit) {
        const view = await shareableView(kit);
        const path = `/v1/data-views/${view}/public-access-tokens/EMBED`;
        await kit.admin('POST', path);
        const xs = await kit.race(Array.from({ length: N }, (_, i) => ({ method: i % 2 ? 'DELETE' : 'POST', path })));
        kit.expectAnswers(xs, ['200', '201', '404 NOT_FOUND']);
        const stored = await kit.admin('GET', path);
        const issued = succeeded(xs).filter((x) => x.sent.method === 'POST').map((x) => x.response.body.data);
        expectSame(kit, 'working URLs', await working(kit, issued.map((t) => t.url)), stored.exists ? 1 : 0, xs);
      },
    },
  ],
  [`DELETE ${TOKEN}`]: [
    {
      what: 'N revocations of one token',
      async run(kit) {
        const view = await shareableView(kit);
        const path = `/v1/data-views/${view}/public-access-tokens/EMBED`;
        const token = await kit.admin('POST', path);
        const xs = await kit.race({ method: 'DELETE', path });
        kit.expectAnswers(xs, ['200', '404 NOT_FOUND']);
        await expectOneDeletion(kit, xs, { method: 'DELETE', path });
        expectSame(kit, 'working URLs', await working(kit, [token.url]), 0, xs);
      },
    },
  ],
};

export const kit: AreaTestKit = {
  races: { ...viewRaces, ...tokenRaces },
  // the token type is a word of the route, not a thing of a team
  notTeamIds: ['tokenType'],
  idRouteBodies: {
    [`PUT ${ONE}/admin-detail`]: () => ({ name: fresh('View'), enumDataViewTypeId: 'LIST', isPublished: false, config: {} }),
    [`POST ${ONE}/display-field-links`]: (own) => ({ dataFieldSimplyId: own.dataFieldSimplyId }),
    [`PATCH ${ONE}/display-field-links/{linkSimplyId}`]: () => ({ label: fresh('label') }),
    [`PUT ${ONE}/display-field-links/reorder`]: (own) => ({ orderedLinkSimplyIds: [own[`PATCH ${ONE}/display-field-links/{linkSimplyId} {linkSimplyId}`]] }),
    [`POST ${ONE}/filter-field-links`]: (own) => ({ dataFieldSimplyId: own.dataFieldSimplyId }),
    [`PATCH ${ONE}/filter-field-links/{linkSimplyId}`]: () => ({ label: fresh('label') }),
    [`PUT ${ONE}/filter-field-links/reorder`]: (own) => ({ orderedLinkSimplyIds: [own[`PATCH ${ONE}/filter-field-links/{linkSimplyId} {linkSimplyId}`]] }),
    [`POST ${ONE}/calendar-date-info-field-links`]: (own) => ({ dataFieldSimplyId: own[CALENDAR_DATE_FIELD] }),
    [`PATCH ${ONE}/calendar-date-info-field-links/{linkSimplyId}`]: () => ({ label: fresh('label') }),
    [`PUT ${ONE}/calendar-date-info-field-links/reorder`]: (own) => ({ orderedLinkSimplyIds: [own[`PATCH ${ONE}/calendar-date-info-field-links/{linkSimplyId} {linkSimplyId}`]] }),
    [`POST ${TOKEN}`]: () => ({ allowedOrigins: ['https://www.example.org'] }),
  },
  readQueries: {
    'GET /v1/data-views/internal-name-validation': () => 'internalName=world-view',
  },
  async world({ call, name, ids }) {
    const view = await ok(
      // published, so its public access token routes answer as they would for any shared view
      await call('POST', '/v1/data-views', { dataCollectionSimplyId: ids.dataCollectionSimplyId, name: name('View'), internalName: `world-${randomBytes(4).toString('hex')}`, enumDataViewTypeId: 'LIST', isPublished: true, config: { columns: [ids.dataFieldSimplyId] } }),
      'create view',
    );
    const detail = await ok(await call('GET', `/v1/data-views/${view.id}/admin-detail`), 'view admin detail');
    const filter = await ok(await call('POST', `/v1/data-views/${view.id}/filter-field-links`, { dataFieldSimplyId: ids.dataFieldSimplyId, label: name('Filter') }), 'filter link');
    // calendar links need a CALENDAR view over a date field: a collection of its own
    const dated = await ok(await call('POST', '/v1/data-collections', { name: name('Dated'), fields: [{ title: name('Date'), dataType: 'DATE', columnName: 'on_date' }] }), 'dated collection');
    const calendar = await ok(await call('POST', '/v1/data-views', { dataCollectionSimplyId: dated.id, name: name('Calendar'), enumDataViewTypeId: 'CALENDAR' }), 'calendar view');
    const dateLink = await ok(await call('POST', `/v1/data-views/${calendar.id}/calendar-date-info-field-links`, { dataFieldSimplyId: dated.fields[0].id, label: name('Date link') }), 'calendar link');
    const calendarRoutes = ['GET', 'POST'].map((m) => `${m} ${ONE}/calendar-date-info-field-links`).concat(
      ['PATCH', 'DELETE'].map((m) => `${m} ${ONE}/calendar-date-info-field-links/{linkSimplyId}`),
      [`PUT ${ONE}/calendar-date-info-field-links/reorder`],
    );
    return {
      ids: {
        dataViewSimplyId: view.id,
        // the display link; the other lists' routes name their own links (suites that read ids by parameter name only use this one)
        linkSimplyId: detail.displayFieldLinks[0].id,
        ...Object.fromEntries(['PATCH', 'DELETE'].map((m) => [`${m} ${ONE}/display-field-links/{linkSimplyId} {linkSimplyId}`, detail.displayFieldLinks[0].id])),
        ...Object.fromEntries(['PATCH', 'DELETE'].map((m) => [`${m} ${ONE}/filter-field-links/{linkSimplyId} {linkSimplyId}`, filter.id])),
        ...Object.fromEntries(['PATCH', 'DELETE'].map((m) => [`${m} ${ONE}/calendar-date-info-field-links/{linkSimplyId} {linkSimplyId}`, dateLink.id])),
        ...Object.fromEntries(calendarRoutes.map((r) => [`${r} {dataViewSimplyId}`, calendar.id])),
        [CALENDAR_DATE_FIELD]: dated.fields[0].id,
        tokenType: 'EMBED',
      },
      names: ['View', 'Filter', 'Dated', 'Date', 'Calendar', 'Date link'],
    };
  },
};

/** not a path parameter: the date field of the world's calendar view, for the calendar link body */
const CALENDAR_DATE_FIELD = `POST ${ONE}/calendar-date-info-field-links {dataFieldSimplyId}`;
