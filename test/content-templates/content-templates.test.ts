// Content templates over REST (/v1/content-templates) and GraphQL: create (both kinds), read, the
// library list (search, usage type, sorts, archived, paging), PATCH with the design rules, archive,
// validation 400s, and other teams' ids.
import { beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectGqlError, expectOk, gqlData } from '../support/expect-envelope.ts';
import { createCollection } from '../support/data-fixtures.ts';
import { createTeam, type TeamFixture } from '../support/fixtures.ts';
import { restCaller } from '../support/rest-caller.ts';
import { useServer } from '../support/use-server.ts';
import { createTemplate, DETAIL_FIELDS, documentBody, GQL, ID, LIST_FIELDS, messageBody, MISSING, one, PATH } from './template-fixtures.ts';

describe('content templates', () => {
  const { server, teams: [team, other] } = useServer({ teams: 2 });
  const call = restCaller(() => server, () => team.apiKey);
  const gql = (query: string, variables: Record<string, unknown> = {}, token = team.apiKey, teamId?: string) => server.graphql(query, variables, { token, teamId });
  let collection: string;
  beforeAll(async () => {
    collection = (await createCollection(server, team, { name: 'People', fields: { first_name: 'PLAIN_TEXT' } })).id;
  });

  describe('create and read', () => {
    it('an outgoing-message template: defaults, detail shape, read back by id', async () => {
      const created = await createTemplate(call, messageBody({ name: '  Welcome  ' }));
      expect(Object.keys(created).sort()).toEqual(DETAIL_FIELDS);
      expect(created).toMatchObject({
        name: 'Welcome',
        description: null,
        textContent: 'Hello {{first_name}}',
        templateFormat: 'MESSAGE',
        usageTypes: ['OUTGOING_MESSAGE'],
        deliveryMethod: 'EMAIL',
        hasDesign: false,
        hasDocumentSettings: false,
        dataCollectionSimplyId: null,
        templateScope: null,
        ownerTeamUserLinkSimplyId: null,
        archivedAt: null,
        designJson: null,
        designHTML: null,
        documentSettings: null,
      });
      expect(created.id).toMatch(ID);
      expect(created.contentTemplateSimplyId).toBe(created.id);
      expect(expectOk(await call('GET', one(created.id)))).toEqual(created);
      const row = await server.app.services.prisma.contentTemplate.findFirstOrThrow({ where: { simplyId: created.id } });
      expect(row).toMatchObject({ teamId: team.teamId, kind: 'MESSAGE', nameKey: 'welcome', createdByKind: 'API_KEY', createdById: team.apiKeySimplyId });
    });

    it('canned responses, both usages, SMS, and localized name and description', async () => {
      const both = await createTemplate(call, messageBody({ usageTypes: ['CANNED_RESPONSE', 'OUTGOING_MESSAGE', 'CANNED_RESPONSE'], deliveryMethod: 'SMS' }));
      expect(both).toMatchObject({ usageTypes: ['CANNED_RESPONSE', 'OUTGOING_MESSAGE'], deliveryMethod: 'SMS' });
      const localized = await createTemplate(call, messageBody({ name: { en: 'Thanks', fr: 'Merci' }, description: { en: 'after a gift' }, usageTypes: ['CANNED_RESPONSE'] }));
      expect(localized).toMatchObject({ name: { en: 'Thanks', fr: 'Merci' }, description: { en: 'after a gift' }, usageTypes: ['CANNED_RESPONSE'] });
      expect(await createTemplate(call, messageBody({ description: '   ' }))).toMatchObject({ description: null });
    });

    it('a document template: STANDALONE, TEAM scope, settings with their defaults filled in', async () => {
      const created = await createTemplate(call, documentBody(collection, { documentSettings: { orientation: 'LANDSCAPE', marginsMm: { top: 30 } } }));
      expect(created).toMatchObject({
        templateFormat: 'DOCUMENT',
        usageTypes: ['STANDALONE'],
        deliveryMethod: null,
        dataCollectionSimplyId: collection,
        templateScope: 'TEAM',
        ownerTeamUserLinkSimplyId: null,
        hasDocumentSettings: true,
        documentSettings: { pageSize: 'A4', orientation: 'LANDSCAPE', marginsMm: { top: 30, right: 20, bottom: 20, left: 20 }, headerHtml: null, footerHtml: null },
      });
      const bare = await createTemplate(call, { name: 'Bare', dataCollectionSimplyId: collection, usageTypes: ['STANDALONE'] });
      expect(bare).toMatchObject({ textContent: null, hasDocumentSettings: false, documentSettings: null, usageTypes: ['STANDALONE'] });
    });

    it('refuses each bad body with 400 naming the field, on both faces', async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{}, 'name'],
        [{ ...messageBody(), name: '' }, 'name'],
        [{ ...messageBody(), name: 'x'.repeat(201) }, 'name'],
        [{ ...messageBody(), name: { english: 'x' } }, 'name'],
        [{ ...messageBody(), name: {} }, 'name'],
        [{ ...messageBody(), description: 'x'.repeat(2001) }, 'description'],
        [{ ...messageBody(), usageTypes: [] }, 'usageTypes'],
        [{ ...messageBody(), usageTypes: undefined }, 'usageTypes'],
        [{ ...messageBody(), usageTypes: ['STANDALONE'] }, 'usageTypes'],
        [{ ...messageBody(), usageTypes: ['NEWSLETTER'] }, 'usageTypes.0'],
        [{ ...messageBody(), textContent: undefined }, 'textContent'],
        [{ ...messageBody(), textContent: '  ' }, 'textContent'],
        [{ ...messageBody(), textContent: 'x'.repeat(100_001) }, 'textContent'],
        [{ ...messageBody(), deliveryMethod: 'WHATSAPP' }, 'deliveryMethod'],
        [{ ...messageBody(), templateScope: 'TEAM' }, 'templateScope'],
        [{ ...messageBody(), documentSettings: { pageSize: 'A4' } }, 'documentSettings'],
        [{ ...messageBody(), designHtml: '<p>x</p>' }, 'designHtml'],
        [documentBody('not-an-id'), 'dataCollectionSimplyId'],
        [documentBody(collection, { usageTypes: ['OUTGOING_MESSAGE'] }), 'usageTypes'],
        [documentBody(collection, { deliveryMethod: 'EMAIL' }), 'deliveryMethod'],
        [documentBody(collection, { templateScope: 'PRIVATE' }), 'templateScope'],
        [documentBody(collection, { ownerTeamUserLinkSimplyId: 'tul-2222-2222-2222' }), 'ownerTeamUserLinkSimplyId'],
        [documentBody(collection, { templateScope: 'PERSONAL', ownerTeamUserLinkSimplyId: 'usr-2222-2222-2222' }), 'ownerTeamUserLinkSimplyId'],
        [documentBody(collection, { documentSettings: { pageSize: 'A3' } }), 'documentSettings.pageSize'],
        [documentBody(collection, { documentSettings: { orientation: 'SIDEWAYS' } }), 'documentSettings.orientation'],
        [documentBody(collection, { documentSettings: { marginsMm: { top: -1 } } }), 'documentSettings.marginsMm.top'],
        [documentBody(collection, { documentSettings: { marginsMm: { left: 101 } } }), 'documentSettings.marginsMm.left'],
        [documentBody(collection, { documentSettings: { marginsMm: { inner: 5 } } }), 'documentSettings.marginsMm.inner'],
        [documentBody(collection, { documentSettings: { watermark: 'x' } }), 'documentSettings.watermark'],
        [documentBody(collection, { documentSettings: { headerHtml: 'x'.repeat(50_001) } }), 'documentSettings.headerHtml'],
      ];
      for (const [body, field] of cases) {
        const label = JSON.stringify(body).slice(0, 100);
        const error = expectError(await call('POST', PATH, body), 400, 'VALIDATION_ERROR', label);
        expect(error.details?.map((d) => d.field), label).toContain(field);
      }
      for (const input of [{ name: 'x', textContent: 'y' }, { name: 'x', textContent: 'y', usageTypes: ['NEWSLETTER'] }, { name: 42, textContent: 'y', usageTypes: ['OUTGOING_MESSAGE'] }]) {
        expectGqlError(await gql(GQL.create, { input }), 'VALIDATION_ERROR', 400);
      }
      expect(await server.app.services.prisma.contentTemplate.count({ where: { teamId: team.teamId, nameKey: 'x' } })).toBe(0);
    });

    it('a document template for a collection the team lacks is 404; another team\'s collection too', async () => {
      const theirs = (await createCollection(server, other, { name: 'Theirs', fields: { label: 'PLAIN_TEXT' } })).id;
      for (const id of [theirs, '2222-2222-2222']) {
        expectError(await call('POST', PATH, documentBody(id)), 404, 'NOT_FOUND', id);
      }
    });

    it('GraphQL: creates both kinds and reads them with the named id', async () => {
      const message = gqlData(await gql(GQL.create, { input: messageBody({ usageTypes: ['CANNED_RESPONSE'], description: { de: 'Antwort' } }) })).createContentTemplate;
      expect(message).toMatchObject({ templateFormat: 'MESSAGE', usageTypes: ['CANNED_RESPONSE'], description: { de: 'Antwort' } });
      const document = gqlData(await gql(GQL.create, { input: documentBody(collection) })).createContentTemplate;
      expect(document).toMatchObject({ templateFormat: 'DOCUMENT', dataCollectionSimplyId: collection, documentSettings: { pageSize: 'A4', orientation: 'PORTRAIT' } });
      expect(gqlData(await gql(GQL.get, { id: document.id })).contentTemplate).toEqual(document);
      expect(expectOk(await call('GET', one(message.id)))).toEqual(message);
    });
  });

  describe('the library list', () => {
    let own: TeamFixture;
    const ids: Record<string, string> = {};
    beforeAll(async () => {
      own = await createTeam(server);
      const people = (await createCollection(server, own, { name: 'People', fields: { first_name: 'PLAIN_TEXT' } })).id;
      for (const [key, body] of Object.entries({
        banana: messageBody({ name: 'Banana news', usageTypes: ['OUTGOING_MESSAGE'] }),
        apple: messageBody({ name: { en: 'Apple reply', fr: 'Réponse pomme' }, usageTypes: ['CANNED_RESPONSE'] }),
        cherry: documentBody(people, { name: 'cherry certificate' }),
        both: messageBody({ name: 'Both ways', usageTypes: ['OUTGOING_MESSAGE', 'CANNED_RESPONSE'] }),
        archived: messageBody({ name: 'Archived banana' }),
      })) {
        ids[key] = (await createTemplate(call, body, own.apiKey)).id;
      }
      expectOk(await call('DELETE', one(ids.archived!), undefined, own.apiKey));
    });
    const list = async (query = '') => expectOk(await call('GET', `${PATH}${query}`, undefined, own.apiKey)) as { id: string; name: unknown }[];
    const keys = (rows: { id: string }[]) => rows.map((r) => Object.entries(ids).find(([, id]) => id === r.id)?.[0]);

    it('newest first with list-entry fields only; archived left out; paging', async () => {
      const all = await call('GET', PATH, undefined, own.apiKey);
      expect(keys(all.body.data)).toEqual(['both', 'cherry', 'apple', 'banana']);
      expect(Object.keys(all.body.data[0]).sort()).toEqual(LIST_FIELDS);
      expect(all.body.meta.pagination).toEqual({ total: 4, limit: 25, offset: 0, hasMore: false });
      const page = await call('GET', `${PATH}?limit=2&offset=1`, undefined, own.apiKey);
      expect(keys(page.body.data)).toEqual(['cherry', 'apple']);
      expect(page.body.meta.pagination).toEqual({ total: 4, limit: 2, offset: 1, hasMore: true });
    });

    it('sorts: createdAt_ASC, name_ASC (any language of a localized name)', async () => {
      expect(keys(await list('?sort=createdAt_ASC'))).toEqual(['banana', 'apple', 'cherry', 'both']);
      expect(keys(await list('?sort=name_ASC'))).toEqual(['apple', 'banana', 'both', 'cherry']);
      expect(keys(await list('?sort=createdAt_DESC&includeArchived=true'))).toEqual(['archived', 'both', 'cherry', 'apple', 'banana']);
    });

    it('search by name (case-insensitive, any language), usageType filters incl. STANDALONE', async () => {
      expect(keys(await list('?search=BANANA'))).toEqual(['banana']);
      expect(keys(await list('?search=banana&includeArchived=true'))).toEqual(['archived', 'banana']);
      expect(keys(await list(`?search=${encodeURIComponent('pomme')}`))).toEqual(['apple']);
      expect(keys(await list('?search=%25'))).toEqual([]);
      expect(keys(await list('?usageType=OUTGOING_MESSAGE'))).toEqual(['both', 'banana']);
      expect(keys(await list('?usageType=CANNED_RESPONSE'))).toEqual(['both', 'apple']);
      expect(keys(await list('?usageType=STANDALONE'))).toEqual(['cherry']);
      const page = gqlData(await gql(GQL.list, { usageType: 'CANNED_RESPONSE', sort: 'name_ASC' }, own.apiKey)).contentTemplates;
      expect(keys(page.nodes)).toEqual(['apple', 'both']);
      expect(page.pagination).toEqual({ total: 2, limit: 25, offset: 0, hasMore: false });
      expect(page.nodes[1].usageTypes).toEqual(['OUTGOING_MESSAGE', 'CANNED_RESPONSE']);
    });

    it('refuses bad paging, sort, usage type and flags with 400 naming the parameter', async () => {
      for (const [query, field] of [
        ['limit=0', 'limit'],
        ['limit=101', 'limit'],
        ['offset=-1', 'offset'],
        ['sort=name_DESC', 'sort'],
        ['usageType=DOCUMENT', 'usageType'],
        ['includeArchived=yes', 'includeArchived'],
        [`search=${'x'.repeat(201)}`, 'search'],
      ]) {
        const error = expectError(await call('GET', `${PATH}?${query}`, undefined, own.apiKey), 400, 'VALIDATION_ERROR', query);
        expect(error.details?.map((d) => d.field), query).toContain(field);
      }
      expectGqlError(await gql(GQL.list, { sort: 'random' }, own.apiKey), 'VALIDATION_ERROR', 400);
      expect((await list('?limit=100')).length).toBe(4);
    });
  });

  describe('update', () => {
    it('changes only the keys sent; null clears; a design needs documentSettings first or alongside', async () => {
      const t = await createTemplate(call, messageBody({ description: 'desc' }));
      await new Promise((resolve) => setTimeout(resolve, 5));
      const renamed = expectOk(await call('PATCH', one(t.id), { name: { en: 'Hi', es: 'Hola' } }));
      expect(renamed).toMatchObject({ name: { en: 'Hi', es: 'Hola' }, description: 'desc', textContent: 'Hello {{first_name}}', createdAt: t.createdAt });
      expect(Date.parse(renamed.updatedAt)).toBeGreaterThan(Date.parse(t.updatedAt));

      const refused = expectError(await call('PATCH', one(t.id), { designHtml: '<p>Hi {{first_name}}</p>' }), 400, 'VALIDATION_ERROR');
      expect(refused.details).toEqual([{ field: 'documentSettings', message: expect.stringContaining('before (or in the same request as)') }]);
      expectError(await call('PATCH', one(t.id), { designJson: { rows: [] } }), 400, 'VALIDATION_ERROR');
      expectGqlError(await gql(GQL.update, { id: t.id, input: { designHtml: '<p>x</p>' } }), 'VALIDATION_ERROR', 400);

      const designed = expectOk(await call('PATCH', one(t.id), { designHtml: '<p>Hi {{first_name}}</p>', designJson: { rows: [{ text: 'Hi' }] }, documentSettings: { pageSize: 'LETTER' } }));
      expect(designed).toMatchObject({ hasDesign: true, hasDocumentSettings: true, designHTML: '<p>Hi {{first_name}}</p>', designJson: { rows: [{ text: 'Hi' }] }, documentSettings: { pageSize: 'LETTER' } });
      // settings in place: a design alone is accepted now
      expect(expectOk(await call('PATCH', one(t.id), { designHtml: '<h1>Again</h1>' }))).toMatchObject({ designHTML: '<h1>Again</h1>' });
      // settings cannot go while a design stays
      const keep = expectError(await call('PATCH', one(t.id), { documentSettings: null }), 400, 'VALIDATION_ERROR');
      expect(keep.details?.[0]?.field).toBe('documentSettings');
      const cleared = expectOk(await call('PATCH', one(t.id), { documentSettings: null, designHtml: null, designJson: null, description: null, textContent: '' }));
      expect(cleared).toMatchObject({ hasDesign: false, hasDocumentSettings: false, designHTML: null, designJson: null, documentSettings: null, description: null, textContent: null });
      expect(expectOk(await call('GET', one(t.id)))).toEqual(cleared);
      // an empty patch changes nothing
      expect(expectOk(await call('PATCH', one(t.id), {}))).toEqual(cleared);
    });

    it('GraphQL update: absent keys stay, null clears', async () => {
      const t = await createTemplate(call, documentBody(collection, { description: 'd' }));
      const updated = gqlData(await gql(GQL.update, { id: t.id, input: { designHtml: '<p>{{first_name}}</p>', textContent: 'text' } })).updateContentTemplate;
      expect(updated).toMatchObject({ description: 'd', textContent: 'text', designHTML: '<p>{{first_name}}</p>', hasDesign: true });
      expect(gqlData(await gql(GQL.update, { id: t.id, input: { description: null } })).updateContentTemplate).toMatchObject({ description: null, textContent: 'text' });
    });

    it('refuses bad values and fields that cannot change with 400', async () => {
      const t = await createTemplate(call, documentBody(collection));
      for (const [body, field] of [
        [{ name: null }, 'name'],
        [{ name: '' }, 'name'],
        [{ designJson: [1, 2] }, 'designJson'],
        [{ designJson: 'text' }, 'designJson'],
        [{ designJson: { blob: 'x'.repeat(500_001) } }, 'designJson'],
        [{ designHtml: 42 }, 'designHtml'],
        [{ documentSettings: { pageSize: 'A5' } }, 'documentSettings.pageSize'],
        [{ usageTypes: ['CANNED_RESPONSE'] }, 'usageTypes'],
        [{ dataCollectionSimplyId: collection }, 'dataCollectionSimplyId'],
        [{ templateScope: 'PERSONAL' }, 'templateScope'],
        [{ deliveryMethod: 'SMS' }, 'deliveryMethod'],
      ] as [Record<string, unknown>, string][]) {
        const label = JSON.stringify(body).slice(0, 80);
        const error = expectError(await call('PATCH', one(t.id), body), 400, 'VALIDATION_ERROR', label);
        expect(error.details?.map((d) => d.field), label).toContain(field);
      }
      expectGqlError(await gql(GQL.update, { id: t.id, input: { designJson: [1] } }), 'VALIDATION_ERROR', 400);
      expect(expectOk(await call('GET', one(t.id)))).toEqual(t);
    });
  });

  describe('delete (archive)', () => {
    it('archives: readable by id and with includeArchived, out of the default list; again is 404; changes are 409', async () => {
      const t = await createTemplate(call, messageBody({ name: 'old news' }));
      expect(expectOk(await call('DELETE', one(t.id)))).toEqual({ id: t.id, deleted: true });
      const archived = expectOk(await call('GET', one(t.id)));
      expect(archived).toMatchObject({ ...t, archivedAt: expect.any(String), updatedAt: expect.any(String) });
      expect(expectOk(await call('GET', `${PATH}?limit=100`)).map((x: { id: string }) => x.id)).not.toContain(t.id);
      expect(expectOk(await call('GET', `${PATH}?limit=100&includeArchived=true`)).map((x: { id: string }) => x.id)).toContain(t.id);
      expectError(await call('DELETE', one(t.id)), 404, 'NOT_FOUND');
      expectGqlError(await gql(GQL.delete, { id: t.id }), 'NOT_FOUND', 404);
      expectError(await call('PATCH', one(t.id), { name: 'revived' }), 409, 'CONFLICT');
      expectGqlError(await gql(GQL.update, { id: t.id, input: { name: 'revived' } }), 'CONFLICT', 409);
      // still usable: readiness says so, preview and copy still work (see their suites)
      expect(expectOk(await call('GET', `${one(t.id)}/readiness`)).issues[0]).toMatchObject({ severity: 'BLOCKING', code: 'ARCHIVED' });
      expect(expectOk(await call('GET', one(t.id)))).toEqual(archived);
    });

    it('GraphQL deleteContentTemplate archives and answers true', async () => {
      const t = await createTemplate(call, documentBody(collection));
      expect(gqlData(await gql(GQL.delete, { id: t.id }))).toEqual({ deleteContentTemplate: true });
      expect(gqlData(await gql(GQL.get, { id: t.id })).contentTemplate.archivedAt).toEqual(expect.any(String));
    });
  });

  describe('ids and teams', () => {
    it("another team's template is 404 on every route, indistinguishable from a missing one; nothing changes", async () => {
      const theirCollection = (await createCollection(server, other, { name: 'Theirs', fields: { label: 'PLAIN_TEXT' } })).id;
      const theirs = [await createTemplate(call, messageBody({ name: 'theirs' }), other.apiKey), await createTemplate(call, documentBody(theirCollection), other.apiKey)];
      const record = expectOk(await call('POST', '/v1/data-records', { dataCollectionSimplyId: collection, fields: {} }), 201);
      for (const id of [...theirs.map((t) => t.id), MISSING]) {
        const routes: [string, string, unknown][] = [
          ['GET', one(id), undefined],
          ['PATCH', one(id), { name: 'mine now' }],
          ['DELETE', one(id), undefined],
          ['GET', `${one(id)}/readiness`, undefined],
          ['GET', `${one(id)}/usage`, undefined],
          ['POST', `${one(id)}/preview-render`, { dataRecordSimplyId: record.id }],
          ['POST', `${one(id)}/copy`, { dataCollectionSimplyId: collection }],
          ['POST', `${PATH}/collection/${collection}/link`, { contentTemplateSimplyId: id }],
          ['DELETE', `${PATH}/collection/${collection}/link/${id}`, undefined],
        ];
        for (const [method, path, body] of routes) expectError(await call(method, path, body), 404, 'NOT_FOUND', `${method} ${path}`);
        expectGqlError(await gql(GQL.get, { id }), 'NOT_FOUND', 404);
        expectGqlError(await gql(GQL.update, { id, input: { name: 'mine now' } }), 'NOT_FOUND', 404);
        expectGqlError(await gql(GQL.delete, { id }), 'NOT_FOUND', 404);
      }
      for (const path of [`${PATH}/collection/${theirCollection}`, `${PATH}/collection/${theirCollection}/link`]) {
        const method = path.endsWith('/link') ? 'POST' : 'GET';
        expectError(await call(method, path, method === 'POST' ? { contentTemplateSimplyId: theirs[1].id } : undefined), 404, 'NOT_FOUND', path);
      }
      expect(expectOk(await call('GET', `${PATH}?limit=100&includeArchived=true`)).map((t: { id: string }) => t.id)).not.toEqual(expect.arrayContaining([theirs[0].id]));
      for (const t of theirs) expect(expectOk(await call('GET', one(t.id), undefined, other.apiKey))).toEqual(t);
    });

    it('malformed and numeric ids are 400 naming the parameter', async () => {
      for (const id of ['123', 'mtp-2222-2222-2222', 'ctpl-2222-2222', 'ctpl-0000-0000-0000']) {
        const error = expectError(await call('GET', one(id)), 400, 'VALIDATION_ERROR', id);
        expect(error.details?.[0]?.field).toBe('contentTemplateSimplyId');
        expectError(await call('PATCH', one(id), { name: 'x' }), 400, 'VALIDATION_ERROR', id);
        expectError(await call('DELETE', one(id)), 400, 'VALIDATION_ERROR', id);
        expectError(await call('GET', `${one(id)}/readiness`), 400, 'VALIDATION_ERROR', id);
        expectGqlError(await gql(GQL.get, { id }), 'VALIDATION_ERROR', 400);
      }
      const error = expectError(await call('GET', `${PATH}/collection/123`), 400, 'VALIDATION_ERROR');
      expect(error.details?.[0]?.field).toBe('dataCollectionSimplyId');
    });
  });
});
