// Document templates and collections: the collection listing with inheritance from parent
// collections, link (reassign) and the refused unlink, copy, usage and readiness.
import { beforeAll, describe, expect, it } from 'vitest';
import { createCollection, createSmartCollection, type CollectionFixture } from '../support/data-fixtures.ts';
import { expectError, expectGqlError, expectOk, gqlData } from '../support/expect-envelope.ts';
import { createRecord } from '../support/record-fixtures.ts';
import { restCaller } from '../support/rest-caller.ts';
import { useServer } from '../support/use-server.ts';
import { createTemplate, documentBody, GQL, inCollection, messageBody, one } from './template-fixtures.ts';

describe('document templates and collections', () => {
  const { server, teams: [team] } = useServer({ teams: 1 });
  const call = restCaller(() => server, () => team.apiKey);
  const gql = (query: string, variables: Record<string, unknown>) => server.graphql(query, variables, { token: team.apiKey });
  let parent: CollectionFixture;
  let child: CollectionFixture;
  let grandchild: CollectionFixture;
  let sibling: CollectionFixture;

  beforeAll(async () => {
    parent = await createCollection(server, team, { name: 'Members', fields: { first_name: 'PLAIN_TEXT', city: 'PLAIN_TEXT' } });
    child = await createCollection(server, team, { name: 'Volunteers', parentId: parent.internalId, fields: { shift: 'PLAIN_TEXT' } });
    grandchild = await createCollection(server, team, { name: 'Team leads', parentId: child.internalId, fields: { area: 'PLAIN_TEXT' } });
    sibling = await createCollection(server, team, { name: 'Donors', fields: { first_name: 'PLAIN_TEXT' } });
  });

  describe('listing a collection', () => {
    it("offers its own templates, then its parent's and grandparent's (inherited); archived and others' left out", async () => {
      const top = await createTemplate(call, documentBody(parent.id, { name: 'Zeta membership card' }));
      const top2 = await createTemplate(call, documentBody(parent.id, { name: 'Alpha welcome letter' }));
      const mid = await createTemplate(call, documentBody(child.id, { name: 'Shift plan' }));
      const low = await createTemplate(call, documentBody(grandchild.id, { name: 'Lead badge' }));
      await createTemplate(call, documentBody(sibling.id, { name: 'Receipt' }));
      await createTemplate(call, messageBody({ name: 'Newsletter' }));
      const gone = await createTemplate(call, documentBody(parent.id, { name: 'Old card' }));
      expectOk(await call('DELETE', one(gone.id)));

      const entries = async (id: string) => (expectOk(await call('GET', inCollection(id))) as { id: string; inherited: boolean; name: string }[]).map((t) => [t.name, t.inherited]);
      expect(await entries(grandchild.id)).toEqual([['Lead badge', false], ['Shift plan', true], ['Alpha welcome letter', true], ['Zeta membership card', true]]);
      expect(await entries(child.id)).toEqual([['Shift plan', false], ['Alpha welcome letter', true], ['Zeta membership card', true]]);
      expect(await entries(parent.id)).toEqual([['Alpha welcome letter', false], ['Zeta membership card', false]]);
      expect(await entries(sibling.id)).toEqual([['Receipt', false]]);
      const viaGql = gqlData(await gql(GQL.collection, { id: grandchild.id })).collectionContentTemplates;
      expect(viaGql.map((t: { id: string }) => t.id)).toEqual([low.id, mid.id, top2.id, top.id]);
      expect(viaGql[0]).toMatchObject({ dataCollectionSimplyId: grandchild.id, inherited: false, templateFormat: 'DOCUMENT' });
      expect(viaGql[3]).toMatchObject({ dataCollectionSimplyId: parent.id, inherited: true });
      // a SMART collection over Members offers Members' templates too
      const smart = await createSmartCollection(server, team, 'Berliners', parent, [{ field: parent.fields.city, operator: 'eq', value: 'Berlin' }]);
      expect((await entries(smart.id)).map(([name]) => name)).toEqual(['Alpha welcome letter', 'Zeta membership card']);
    });

    it('a collection the team lacks is 404', async () => {
      expectError(await call('GET', inCollection('2222-2222-2222')), 404, 'NOT_FOUND');
      expectGqlError(await gql(GQL.collection, { id: '2222-2222-2222' }), 'NOT_FOUND', 404);
    });
  });

  describe('link and unlink', () => {
    it('link reassigns a document template (also down to a child collection), answers the collection, and the listing follows', async () => {
      const t = await createTemplate(call, documentBody(sibling.id, { name: 'Moving' }));
      expect(expectOk(await call('POST', `${inCollection(child.id)}/link`, { contentTemplateSimplyId: t.id }))).toEqual({ dataCollectionSimplyId: child.id, contentTemplateSimplyId: t.id });
      expect(expectOk(await call('GET', one(t.id))).dataCollectionSimplyId).toBe(child.id);
      const names = async (id: string) => (expectOk(await call('GET', inCollection(id))) as { name: string }[]).map((x) => x.name);
      expect(await names(sibling.id)).not.toContain('Moving');
      expect(await names(grandchild.id)).toContain('Moving');
      expect(await names(parent.id)).not.toContain('Moving');
      // linking again to the same collection is a no-op success
      expectOk(await call('POST', `${inCollection(child.id)}/link`, { contentTemplateSimplyId: t.id }));
      const viaGql = gqlData(await gql(GQL.link, { c: parent.id, t: t.id })).linkContentTemplate;
      expect(viaGql).toEqual({ dataCollectionSimplyId: parent.id, contentTemplateSimplyId: t.id });
      expect(await names(sibling.id)).not.toContain('Moving');
    });

    it('link refuses message templates (400), archived ones (409), bad bodies (400)', async () => {
      const message = await createTemplate(call, messageBody());
      const error = expectError(await call('POST', `${inCollection(parent.id)}/link`, { contentTemplateSimplyId: message.id }), 400, 'VALIDATION_ERROR');
      expect(error.details?.[0]?.field).toBe('contentTemplateSimplyId');
      const archived = await createTemplate(call, documentBody(parent.id));
      expectOk(await call('DELETE', one(archived.id)));
      expectError(await call('POST', `${inCollection(child.id)}/link`, { contentTemplateSimplyId: archived.id }), 409, 'CONFLICT');
      for (const body of [{}, { contentTemplateSimplyId: 'x' }, { contentTemplateSimplyId: message.id, extra: 1 }]) {
        expectError(await call('POST', `${inCollection(parent.id)}/link`, body), 400, 'VALIDATION_ERROR', JSON.stringify(body));
      }
      expectError(await call('POST', `${inCollection('2222-2222-2222')}/link`, { contentTemplateSimplyId: archived.id }), 404, 'NOT_FOUND');
    });

    it('unlink is always 400 for a document template (its collection or another) and for a message template; nothing changes', async () => {
      const t = await createTemplate(call, documentBody(parent.id));
      const message = await createTemplate(call, messageBody());
      for (const [collection, template] of [[parent.id, t.id], [child.id, t.id], [parent.id, message.id]]) {
        const error = expectError(await call('DELETE', `${inCollection(collection!)}/link/${template}`), 400, 'VALIDATION_ERROR', `${collection} ${template}`);
        expect(error.details?.[0]?.field).toBe('contentTemplateSimplyId');
      }
      expectGqlError(await gql(GQL.unlink, { c: parent.id, t: t.id }), 'VALIDATION_ERROR', 400);
      expect(expectOk(await call('GET', one(t.id))).dataCollectionSimplyId).toBe(parent.id);
      expectError(await call('DELETE', `${inCollection(parent.id)}/link/ctpl-2222-2222-2222`), 404, 'NOT_FOUND');
      expectError(await call('DELETE', `${inCollection('2222-2222-2222')}/link/${t.id}`), 404, 'NOT_FOUND');
    });
  });

  describe('copy', () => {
    it('a document template into another collection and scope: everything but the id, collection and scope is copied; 201', async () => {
      const source = await createTemplate(call, documentBody(parent.id, { name: { en: 'Card', de: 'Karte' }, description: 'd', documentSettings: { pageSize: 'LETTER', headerHtml: '<b>H</b>' } }));
      const designed = expectOk(await call('PATCH', one(source.id), { designHtml: '<p>{{first_name}}</p>', designJson: { blocks: [1] } }));
      const copy = expectOk(await call('POST', `${one(source.id)}/copy`, { dataCollectionSimplyId: sibling.id, templateScope: 'TEAM' }), 201);
      expect(copy.id).not.toBe(source.id);
      const same = (x: Record<string, unknown>) => ({ ...x, id: undefined, contentTemplateSimplyId: undefined, createdAt: undefined, updatedAt: undefined, dataCollectionSimplyId: undefined });
      expect(same(copy)).toEqual(same(designed));
      expect(copy.dataCollectionSimplyId).toBe(sibling.id);
      // without a body: same collection, same scope
      const again = expectOk(await call('POST', `${one(source.id)}/copy`), 201);
      expect(again).toMatchObject({ dataCollectionSimplyId: parent.id, templateScope: 'TEAM', designHTML: '<p>{{first_name}}</p>' });
      const viaGql = gqlData(await gql(GQL.copy, { id: source.id, input: { dataCollectionSimplyId: child.id } })).copyContentTemplate;
      expect(viaGql).toMatchObject({ dataCollectionSimplyId: child.id, name: { en: 'Card', de: 'Karte' } });
    });

    it('a message template copies as a message template, or into a collection as a document template (default page settings for its design)', async () => {
      const source = await createTemplate(call, messageBody({ usageTypes: ['CANNED_RESPONSE'], deliveryMethod: 'SMS' }));
      const plain = expectOk(await call('POST', `${one(source.id)}/copy`, {}), 201);
      expect(plain).toMatchObject({ templateFormat: 'MESSAGE', usageTypes: ['CANNED_RESPONSE'], deliveryMethod: 'SMS', textContent: source.textContent });
      expectOk(await call('PATCH', one(source.id), { documentSettings: {}, designHtml: '<p>x</p>' }));
      expectOk(await call('PATCH', one(source.id), { documentSettings: null, designHtml: null }));
      expectOk(await call('PATCH', one(source.id), { designJson: { a: 1 }, documentSettings: {} }));
      const doc = expectOk(await call('POST', `${one(source.id)}/copy`, { dataCollectionSimplyId: parent.id }), 201);
      expect(doc).toMatchObject({ templateFormat: 'DOCUMENT', usageTypes: ['STANDALONE'], deliveryMethod: null, dataCollectionSimplyId: parent.id, templateScope: 'TEAM', hasDocumentSettings: true });
      const error = expectError(await call('POST', `${one(source.id)}/copy`, { templateScope: 'TEAM' }), 400, 'VALIDATION_ERROR');
      expect(error.details?.[0]?.field).toBe('templateScope');
    });

    it('copies of archived templates work; bad bodies are 400; a missing target collection 404; an API key cannot make a PERSONAL copy', async () => {
      const source = await createTemplate(call, documentBody(parent.id));
      expectOk(await call('DELETE', one(source.id)));
      expect(expectOk(await call('POST', `${one(source.id)}/copy`, {}), 201).archivedAt).toBeNull();
      for (const [body, field] of [[{ dataCollectionSimplyId: 'x' }, 'dataCollectionSimplyId'], [{ templateScope: 'ALL' }, 'templateScope'], [{ name: 'x' }, 'name']] as const) {
        const e = expectError(await call('POST', `${one(source.id)}/copy`, body), 400, 'VALIDATION_ERROR', JSON.stringify(body));
        expect(e.details?.map((d) => d.field)).toContain(field);
      }
      expectError(await call('POST', `${one(source.id)}/copy`, { dataCollectionSimplyId: '2222-2222-2222' }), 404, 'NOT_FOUND');
      const personal = expectError(await call('POST', `${one(source.id)}/copy`, { templateScope: 'PERSONAL' }), 400, 'VALIDATION_ERROR');
      expect(personal.details?.[0]?.field).toBe('templateScope');
      // a signed-in admin can: the copy is theirs
      const mine = expectOk(await call('POST', `${one(source.id)}/copy`, { templateScope: 'PERSONAL' }, team.userToken, team.teamSimplyId), 201);
      const membership = await server.app.services.prisma.teamMembership.findFirstOrThrow({ where: { teamId: team.teamId, userId: team.userId } });
      expect(mine).toMatchObject({ templateScope: 'PERSONAL', ownerTeamUserLinkSimplyId: membership.simplyId });
    });
  });

  describe('usage', () => {
    it('the assigned collection and the inheriting ones with their record counts; wrappers; empty signing profiles and events', async () => {
      const t = await createTemplate(call, documentBody(child.id));
      for (const name of ['a', 'b']) await createRecord(server, team.apiKey, child.id, { [child.fields.shift!]: name });
      await createRecord(server, team.apiKey, grandchild.id, { [grandchild.fields.area!]: 'north' });
      const usage = expectOk(await call('GET', `${one(t.id)}/usage`));
      expect(usage).toEqual({
        contentTemplateSimplyId: t.id,
        assignedCollection: { dataCollectionSimplyId: child.id, name: 'Volunteers', inherited: false, activeMembershipCount: 2 },
        inheritingCollections: [{ dataCollectionSimplyId: grandchild.id, name: 'Team leads', inherited: true, activeMembershipCount: 1 }],
        membershipCount: 3,
        wrappers: [],
        signingProfiles: [],
        recentGenerationEvents: [],
      });
      const message = await createTemplate(call, messageBody({ usageTypes: ['OUTGOING_MESSAGE', 'CANNED_RESPONSE'] }));
      const messageUsage = gqlData(await gql(GQL.usage, { id: message.id })).contentTemplateUsage;
      expect(messageUsage).toMatchObject({ assignedCollection: null, inheritingCollections: [], membershipCount: 0, wrappers: [{ usageType: 'OUTGOING_MESSAGE' }, { usageType: 'CANNED_RESPONSE' }] });
    });
  });

  describe('readiness', () => {
    const codes = (r: { issues: { severity: string; code: string }[] }) => r.issues.map((i) => `${i.severity} ${i.code}`);

    it('a complete document template is ready; what is missing or wrong is graded', async () => {
      const ok = await createTemplate(call, documentBody(parent.id, { textContent: 'Hi {{first_name}} from {{city}} ({{record.name}})' }));
      expect(expectOk(await call('GET', `${one(ok.id)}/readiness`))).toEqual({ contentTemplateSimplyId: ok.id, ready: true, issues: [] });

      const bare = await createTemplate(call, { name: 'bare', dataCollectionSimplyId: parent.id });
      const r1 = expectOk(await call('GET', `${one(bare.id)}/readiness`));
      expect(r1.ready).toBe(false);
      expect(codes(r1)).toEqual(['BLOCKING NO_CONTENT', 'BLOCKING MISSING_DOCUMENT_SETTINGS']);

      const tags = await createTemplate(call, documentBody(parent.id, { textContent: 'Hi {{first_name}} {{shoe_size}}', documentSettings: { headerHtml: '<b>{{nickname}}</b>', marginsMm: { top: 5 } } }));
      const r2 = expectOk(await call('GET', `${one(tags.id)}/readiness`));
      expect(r2.ready).toBe(true);
      expect(r2.issues).toEqual([
        { severity: 'WARNING', code: 'HEADER_WITHOUT_ROOM', message: expect.any(String), field: 'documentSettings.marginsMm.top' },
        { severity: 'WARNING', code: 'UNKNOWN_MERGE_TAGS', message: expect.stringContaining('{{shoe_size}}'), field: 'textContent' },
        { severity: 'WARNING', code: 'UNKNOWN_MERGE_TAGS', message: expect.stringContaining('{{nickname}}'), field: 'documentSettings.headerHtml' },
      ]);

      const cramped = await createTemplate(call, documentBody(parent.id, { documentSettings: { orientation: 'LANDSCAPE', marginsMm: { top: 100, bottom: 100 } } }));
      expect(codes(expectOk(await call('GET', `${one(cramped.id)}/readiness`)))).toEqual(['BLOCKING PAGE_MARGINS_TOO_LARGE']);

      // settings stored by an older version in a shape this one does not accept
      const legacy = await createTemplate(call, documentBody(parent.id));
      await server.app.services.prisma.contentTemplate.updateMany({ where: { simplyId: legacy.id }, data: { documentSettings: { pageSize: 'A3', marginsMm: 'wide' } } });
      const r3 = gqlData(await gql(GQL.readiness, { id: legacy.id })).contentTemplateReadiness;
      expect(r3.ready).toBe(false);
      expect(codes(r3)).toEqual(['BLOCKING INVALID_DOCUMENT_SETTINGS']);
      expect(r3.issues[0].field).toMatch(/^documentSettings\./);
    });

    it('message templates: tags are listed as INFO; an SMS design is INFO; archived is BLOCKING', async () => {
      const sms = await createTemplate(call, messageBody({ deliveryMethod: 'SMS' }));
      expectOk(await call('PATCH', one(sms.id), { designJson: { a: 1 }, documentSettings: {} }));
      expect(codes(expectOk(await call('GET', `${one(sms.id)}/readiness`)))).toEqual(['WARNING DESIGN_WITHOUT_HTML', 'INFO MERGE_TAGS_UNCHECKED', 'INFO SMS_SENDS_TEXT_ONLY']);
      expectOk(await call('DELETE', one(sms.id)));
      const archived = expectOk(await call('GET', `${one(sms.id)}/readiness`));
      expect(archived.ready).toBe(false);
      expect(codes(archived)[0]).toBe('BLOCKING ARCHIVED');
    });
  });
});
