// Template authoring over REST (/v1/outgoing-message-templates) and GraphQL: the whole template
// (subject, preheader, sanitized HTML, design JSON, plain text, SMS body and its segments), merge
// tags checked when saved (look-alikes; unknown names against the template's collection), the
// issues, the list and its filters, partial edits, archive and duplicate, the preview with sample
// values and a record, the same templates as /v1/message-templates, composing a message from an
// authored template (bodies copied, the preheader hidden first in the HTML, a test copy rendered
// from it), the privileged tier (session tokens refused) and other teams' ids.
import { beforeAll, describe, expect, it } from 'vitest';
import { operation } from '../../src/app/graphql/fragments.ts';
import { OUTGOING_MESSAGE_TEMPLATE, OUTGOING_MESSAGE_TEMPLATE_PREVIEW, OUTGOING_MESSAGE_TEMPLATE_SUMMARY } from '../../src/modules/messages/messages.fragments.ts';
import { mintSessionToken } from '../support/credentials-fixtures.ts';
import { expectError, expectGqlError, expectOk, gqlData } from '../support/expect-envelope.ts';
import { addMember, createApiKey, createRole, createTeam, type TeamFixture } from '../support/fixtures.ts';
import { restCaller } from '../support/rest-caller.ts';
import { useServer } from '../support/use-server.ts';
import type { CollectionFixture } from '../support/data-fixtures.ts';
import { addPeople, addSender, createPeople } from '../outgoing-messages/message-fixtures.ts';

const PATH = '/v1/outgoing-message-templates';
const SIMPLE = '/v1/message-templates';
const ID = /^mtp-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}$/;
const DETAIL_KEYS = [
  'archivedAt', 'createdAt', 'dataCollectionSimplyId', 'deliveryMethod', 'description', 'designFormat', 'designJson', 'htmlContent', 'id', 'issues',
  'mergeTags', 'name', 'preheader', 'sms', 'subjectLine', 'textContent', 'updatedAt',
];
const SUMMARY_KEYS = ['archivedAt', 'createdAt', 'dataCollectionSimplyId', 'deliveryMethod', 'description', 'designFormat', 'id', 'name', 'preheader', 'subjectLine', 'updatedAt'];

const GQL = {
  list: operation(
    ['query($limit: Int, $search: String, $sort: String, $deliveryMethod: String, $includeArchived: Boolean) { outgoingMessageTemplates(limit: $limit, search: $search, sort: $sort, deliveryMethod: $deliveryMethod, includeArchived: $includeArchived) { nodes { ', ' htmlContent } pagination { total limit offset hasMore } } }'],
    OUTGOING_MESSAGE_TEMPLATE_SUMMARY,
  ),
  get: operation(['query($id: String!) { outgoingMessageTemplate(outgoingMessageTemplateSimplyId: $id) { outgoingMessageTemplateSimplyId ', ' } }'], OUTGOING_MESSAGE_TEMPLATE),
  create: operation(['mutation($input: CreateOutgoingMessageTemplateInput!) { createOutgoingMessageTemplate(input: $input) { ', ' } }'], OUTGOING_MESSAGE_TEMPLATE),
  update: operation(['mutation($id: String!, $input: UpdateOutgoingMessageTemplateInput!) { updateOutgoingMessageTemplate(outgoingMessageTemplateSimplyId: $id, input: $input) { ', ' } }'], OUTGOING_MESSAGE_TEMPLATE),
  duplicate: operation(['mutation($id: String!, $input: DuplicateOutgoingMessageTemplateInput) { duplicateOutgoingMessageTemplate(outgoingMessageTemplateSimplyId: $id, input: $input) { ', ' } }'], OUTGOING_MESSAGE_TEMPLATE),
  preview: operation(['query($id: String!, $input: OutgoingMessageTemplatePreviewInput) { outgoingMessageTemplatePreview(outgoingMessageTemplateSimplyId: $id, input: $input) { ', ' } }'], OUTGOING_MESSAGE_TEMPLATE_PREVIEW),
  delete: 'mutation($id: String!) { deleteOutgoingMessageTemplate(outgoingMessageTemplateSimplyId: $id) }',
};

const issueCodes = (t: { issues: { code: string }[] }) => t.issues.map((i) => i.code);

describe('message template authoring', () => {
  const { server, teams: [team, other] } = useServer({ teams: 2 });
  const call = restCaller(() => server, () => team.apiKey);
  const gql = (query: string, variables: Record<string, unknown> = {}, token = team.apiKey, teamId?: string) => server.graphql(query, variables, { token, teamId });
  const create = async (body: Record<string, unknown>, token?: string, teamId?: string) => expectOk(await call('POST', PATH, body, token, teamId), 201);
  let people: CollectionFixture;
  beforeAll(async () => {
    people = await createPeople(server, team, 'Template people');
  });

  describe('create and read', () => {
    it('stores an email template whole: subject, preheader, sanitized HTML, design JSON, text; answers its tags and issues', async () => {
      const designJson = { body: { rows: [{ cells: [1], values: { text: 'Hello {{first_name}}', nested: [true, null, 1.5] } }] }, schemaVersion: 12 };
      const created = await create({
        name: '  Spring newsletter ',
        description: 'the March issue',
        subjectLine: 'Spring news for {{first_name}}',
        preheader: 'What is new in {{city}}',
        htmlContent: '<h1 onclick="steal()">Hello {{first_name}}</h1><script>alert(1)</script><p><a href="javascript:alert(1)">x</a> <a href="{{unsubscribe_url}}">Unsubscribe</a></p><img src="https://cdn.example.org/a.png" onerror="x()">',
        textContent: 'Hello {{first_name}}\nUnsubscribe: {{unsubscribe_url}}',
        designJson,
        dataCollectionSimplyId: people.id,
      });
      expect(Object.keys(created).sort()).toEqual(DETAIL_KEYS);
      expect(created.id).toMatch(ID);
      expect(created).toMatchObject({
        name: 'Spring newsletter',
        description: 'the March issue',
        deliveryMethod: 'EMAIL',
        designFormat: 'HTML',
        subjectLine: 'Spring news for {{first_name}}',
        preheader: 'What is new in {{city}}',
        textContent: 'Hello {{first_name}}\nUnsubscribe: {{unsubscribe_url}}',
        designJson,
        dataCollectionSimplyId: people.id,
        mergeTags: ['first_name', 'city', 'unsubscribe_url'],
        sms: null,
        archivedAt: null,
      });
      // sanitized before it was stored: scripts, handlers and javascript: links are gone, the rest stays
      expect(created.htmlContent).not.toMatch(/script|onclick|onerror|javascript:/i);
      expect(created.htmlContent).toContain('<h1>Hello {{first_name}}</h1>');
      expect(created.htmlContent).toContain('<a href="{{unsubscribe_url}}">Unsubscribe</a>');
      expect(created.htmlContent).toContain('<img src="https://cdn.example.org/a.png">');
      expect(created.issues).toEqual([]);
      const row = await server.app.services.prisma.outgoingMessageTemplate.findFirstOrThrow({ where: { simplyId: created.id } });
      expect(row.htmlContent).toBe(created.htmlContent);
      expect(row).toMatchObject({ teamId: team.teamId, createdByKind: 'API_KEY', createdById: team.apiKeySimplyId });
      expect(expectOk(await call('GET', `${PATH}/${created.id}`))).toEqual(created);
    });

    it('defaults: EMAIL and HTML; other channels PLAIN_TEXT, with the EMAIL and HTML fields refused', async () => {
      const bare = await create({ name: 'bare' });
      expect(bare).toMatchObject({ deliveryMethod: 'EMAIL', designFormat: 'HTML', subjectLine: null, preheader: null, htmlContent: null, textContent: null, designJson: null, dataCollectionSimplyId: null, mergeTags: [] });
      expect(issueCodes(bare)).toEqual(['BODY_EMPTY', 'SUBJECT_MISSING']);
      for (const deliveryMethod of ['SMS', 'WHATSAPP', 'FACEBOOK']) {
        expect(await create({ name: deliveryMethod, deliveryMethod, textContent: 'Hi {{first_name}}' })).toMatchObject({ deliveryMethod, designFormat: 'PLAIN_TEXT', textContent: 'Hi {{first_name}}' });
        for (const [body, field] of [
          [{ designFormat: 'HTML' }, 'designFormat'],
          [{ subjectLine: 'Hi' }, 'subjectLine'],
          [{ preheader: 'Hi' }, 'preheader'],
          [{ htmlContent: '<p>Hi</p>' }, 'htmlContent'],
          [{ designJson: { a: 1 } }, 'designJson'],
        ] as [Record<string, unknown>, string][]) {
          const error = expectError(await call('POST', PATH, { name: 'x', deliveryMethod, ...body }), 400, 'VALIDATION_ERROR', `${deliveryMethod} ${field}`);
          expect(error.details?.map((d) => d.field)).toContain(field);
        }
        // null is fine everywhere: it sets nothing
        await create({ name: 'nulls', deliveryMethod, subjectLine: null, preheader: null, htmlContent: null, designJson: null });
      }
      // a PLAIN_TEXT email has no HTML design
      const error = expectError(await call('POST', PATH, { name: 'x', designFormat: 'PLAIN_TEXT', htmlContent: '<p>x</p>' }), 400, 'VALIDATION_ERROR');
      expect(error.details).toEqual([{ field: 'htmlContent', message: expect.stringContaining('HTML templates only') }]);
    });

    it('counts SMS segments: GSM-7 (extension characters count two) and UCS-2', async () => {
      const cases: [string, { encoding: string; characters: number; segments: number; perSegment: number }][] = [
        ['a'.repeat(160), { encoding: 'GSM_7', characters: 160, segments: 1, perSegment: 160 }],
        ['a'.repeat(161), { encoding: 'GSM_7', characters: 161, segments: 2, perSegment: 153 }],
        ['€'.repeat(80), { encoding: 'GSM_7', characters: 160, segments: 1, perSegment: 160 }],
        ['a'.repeat(152) + '€', { encoding: 'GSM_7', characters: 154, segments: 1, perSegment: 160 }],
        ['a'.repeat(160) + '€', { encoding: 'GSM_7', characters: 162, segments: 2, perSegment: 153 }],
        ['ü'.repeat(70), { encoding: 'GSM_7', characters: 70, segments: 1, perSegment: 160 }],
        ['ł'.repeat(70), { encoding: 'UCS_2', characters: 70, segments: 1, perSegment: 70 }],
        ['ł'.repeat(71), { encoding: 'UCS_2', characters: 71, segments: 2, perSegment: 67 }],
        ['😀'.repeat(35), { encoding: 'UCS_2', characters: 70, segments: 1, perSegment: 70 }],
        ['a'.repeat(66) + '😀' + 'a'.repeat(10), { encoding: 'UCS_2', characters: 78, segments: 2, perSegment: 67 }],
      ];
      for (const [textContent, sms] of cases) {
        const t = await create({ name: 'sms', deliveryMethod: 'SMS', textContent });
        expect(t.sms, textContent.slice(0, 20)).toEqual(sms);
        expect(issueCodes(t).includes('SMS_MULTIPART'), textContent.slice(0, 20)).toBe(sms.segments > 1);
      }
      expect((await create({ name: 'empty sms', deliveryMethod: 'SMS' })).sms).toEqual({ encoding: 'GSM_7', characters: 0, segments: 0, perSegment: 160 });
    });

    it('refuses each out-of-bounds or unknown input with 400 naming the field; the limits themselves are accepted', async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{}, 'name'],
        [{ name: '  ' }, 'name'],
        [{ name: 'x'.repeat(201) }, 'name'],
        [{ name: 'a\nb' }, 'name'],
        [{ name: 'ok', description: 'x'.repeat(2001) }, 'description'],
        [{ name: 'ok', subjectLine: 'x'.repeat(256) }, 'subjectLine'],
        [{ name: 'ok', subjectLine: 'a\r\nBcc: x@example.test' }, 'subjectLine'],
        [{ name: 'ok', preheader: 'x'.repeat(256) }, 'preheader'],
        [{ name: 'ok', preheader: 'a\nb' }, 'preheader'],
        [{ name: 'ok', htmlContent: 'x'.repeat(490_001) }, 'htmlContent'],
        [{ name: 'ok', htmlContent: 42 }, 'htmlContent'],
        [{ name: 'ok', textContent: 'x'.repeat(200_001) }, 'textContent'],
        [{ name: 'ok', textContent: 'bell\u0007' }, 'textContent'],
        [{ name: 'ok', deliveryMethod: 'SMS', textContent: 'x'.repeat(1601) }, 'textContent'],
        [{ name: 'ok', deliveryMethod: 'WHATSAPP', textContent: 'x'.repeat(4097) }, 'textContent'],
        [{ name: 'ok', deliveryMethod: 'FACEBOOK', textContent: 'x'.repeat(2001) }, 'textContent'],
        [{ name: 'ok', designJson: [1, 2] }, 'designJson'],
        [{ name: 'ok', designJson: 'text' }, 'designJson'],
        [{ name: 'ok', designJson: { big: 'x'.repeat(500_000) } }, 'designJson'],
        [{ name: 'ok', dataCollectionSimplyId: '42' }, 'dataCollectionSimplyId'],
        [{ name: 'ok', deliveryMethod: 'PIGEON' }, 'deliveryMethod'],
        [{ name: 'ok', designFormat: 'MJML' }, 'designFormat'],
        [{ name: 'ok', archivedAt: null }, 'archivedAt'],
        [{ name: 'ok', body: 'hi' }, 'body'],
      ];
      for (const [body, field] of cases) {
        const label = JSON.stringify(body).slice(0, 80);
        const error = expectError(await call('POST', PATH, body), 400, 'VALIDATION_ERROR', label);
        expect(error.details?.map((d) => d.field), label).toContain(field);
      }
      const longest = await create({
        name: 'n'.repeat(200),
        description: 'd'.repeat(2000),
        subjectLine: 's'.repeat(255),
        preheader: 'p'.repeat(255),
        textContent: 't'.repeat(200_000),
        htmlContent: `<p>${'h'.repeat(489_993)}</p>`,
      });
      expect([longest.name.length, longest.subjectLine.length, longest.preheader.length, longest.textContent.length, longest.htmlContent.length]).toEqual([200, 255, 255, 200_000, 490_000]);
      expect((await create({ name: 'sms', deliveryMethod: 'SMS', textContent: 'x'.repeat(1600) })).textContent).toHaveLength(1600);
      // HTML that grows past the limit once sanitized is refused too (each & becomes &amp;)
      const error = expectError(await call('POST', PATH, { name: 'grows', htmlContent: `<p>${'&'.repeat(489_990)}</p>` }), 400, 'VALIDATION_ERROR');
      expect(error.details).toEqual([{ field: 'htmlContent', message: expect.stringContaining('once sanitized') }]);
      for (const input of [{ name: 'x'.repeat(201) }, { name: 'ok', deliveryMethod: 'SMS', subjectLine: 'x' }, { name: 'ok', designJson: [1] }]) {
        expectGqlError(await gql(GQL.create, { input }), 'VALIDATION_ERROR', 400);
      }
    });
  });

  describe('merge tags', () => {
    it('refuses text that looks like a tag but is none, in every text, naming the field', async () => {
      for (const field of ['subjectLine', 'preheader', 'htmlContent', 'textContent']) {
        for (const lookalike of ['{{ first name }}', '{{}}', '{{#if vip}}']) {
          const error = expectError(await call('POST', PATH, { name: 'x', [field]: `Hi ${lookalike}` }), 400, 'VALIDATION_ERROR', `${field} ${lookalike}`);
          expect(error.details).toEqual([{ field, message: expect.stringContaining(`"${lookalike}" is not a merge tag`) }]);
        }
      }
      // a brace next to a tag stays text, the tag is a tag
      expect((await create({ name: 'braces', textContent: '{{{first_name}}}' })).mergeTags).toEqual(['first_name']);
    });

    it('with a collection: every tag must name a field you can read or a built-in; {{unsubscribe_url}} only in the bodies', async () => {
      const base = { name: 'tagged', dataCollectionSimplyId: people.id };
      const ok = await create({ ...base, subjectLine: `{{record.name}} {{first_name}} {{${people.fields.city}}} {{record.id}}`, textContent: '{{unsubscribe_url}}' });
      expect(ok.issues).toEqual([expect.objectContaining({ code: 'BODY_EMPTY' })]);
      for (const [field, text] of [['subjectLine', 'Hi {{nickname}}'], ['preheader', '{{unsubscribe_url}}'], ['htmlContent', '<p>{{nickname}} {{city}}</p>'], ['textContent', '{{nick}} {{nickname}}']]) {
        const error = expectError(await call('POST', PATH, { ...base, [field!]: text }), 400, 'VALIDATION_ERROR', field);
        expect(error.details).toEqual([{ field, message: expect.stringContaining(`name no field of collection ${people.id}`) }]);
      }
      const both = expectError(await call('POST', PATH, { ...base, subjectLine: '{{a}}', textContent: '{{b}}' }), 400, 'VALIDATION_ERROR');
      expect(both.details?.map((d) => d.field)).toEqual(['subjectLine', 'textContent']);
      expect(both.details?.[1]?.message).toContain('{{b}}');
      // without a collection, tags are not checked (an INFO issue says so)
      const free = await create({ name: 'free', subjectLine: 'Hi {{nickname}}' });
      expect(free.issues).toContainEqual(expect.objectContaining({ severity: 'INFO', code: 'MERGE_TAGS_UNCHECKED', field: 'dataCollectionSimplyId' }));
    });

    it("another team's or a missing collection is 404; a collection you cannot read is 403", async () => {
      const theirs = await createPeople(server, other, 'Their people');
      for (const id of [theirs.id, 'ZZZZ-ZZZZ-ZZZZ']) expectError(await call('POST', PATH, { name: 'x', dataCollectionSimplyId: id }), 404, 'NOT_FOUND', id);
      const role = await createRole(server, team, { name: `templates without data ${Date.now()}`, featurePermissions: [{ name: 'OUTGOING_MESSAGES_TEMPLATES', level: 'EDIT' }] });
      const key = (await createApiKey(server, team, { name: 'no data', teamRoleSimplyId: role, featurePermissions: ['OUTGOING_MESSAGES_TEMPLATES'] })).key;
      expectError(await call('POST', PATH, { name: 'x', dataCollectionSimplyId: people.id }, key), 403, 'PERMISSION_DENIED');
      expect((await create({ name: 'no collection' }, key)).name).toBe('no collection');
    });
  });

  describe('list', () => {
    let own: TeamFixture;
    let ownPeople: CollectionFixture;
    beforeAll(async () => {
      own = await createTeam(server);
      ownPeople = await createPeople(server, own, 'Listed people');
      for (const body of [
        { name: 'Bravo letter', htmlContent: '<p>big</p>', dataCollectionSimplyId: ownPeople.id },
        { name: 'Alpha reminder', deliveryMethod: 'SMS', textContent: 'hi' },
        { name: 'Charlie 100% off', designFormat: 'PLAIN_TEXT', textContent: 'x' },
        { name: 'Delta archived', deliveryMethod: 'SMS' },
      ]) {
        await create(body, own.apiKey);
      }
      const archived = expectOk(await call('GET', `${PATH}?search=delta`, undefined, own.apiKey))[0];
      expectOk(await call('DELETE', `${PATH}/${archived.id}`, undefined, own.apiKey));
    });
    const names = (res: { body: { data: { name: string }[] } }) => res.body.data.map((t) => t.name);
    const list = (query = '') => call('GET', `${PATH}${query ? `?${query}` : ''}`, undefined, own.apiKey);

    it('entries without content, newest first, archived ones left out, paged', async () => {
      const all = await list();
      expect(names(all)).toEqual(['Charlie 100% off', 'Alpha reminder', 'Bravo letter']);
      for (const entry of all.body.data) expect(Object.keys(entry).sort()).toEqual(SUMMARY_KEYS);
      expect(all.body.meta.pagination).toEqual({ total: 3, limit: 25, offset: 0, hasMore: false });
      const page = await list('limit=1&offset=1');
      expect(names(page)).toEqual(['Alpha reminder']);
      expect(page.body.meta.pagination).toEqual({ total: 3, limit: 1, offset: 1, hasMore: true });
    });

    it('filters by channel, design format, collection, name; sorts; adds archived ones on request', async () => {
      expect(names(await list('deliveryMethod=SMS'))).toEqual(['Alpha reminder']);
      expect(names(await list('deliveryMethod=SMS&includeArchived=true'))).toEqual(['Delta archived', 'Alpha reminder']);
      expect(names(await list('designFormat=PLAIN_TEXT'))).toEqual(['Charlie 100% off', 'Alpha reminder']);
      expect(names(await list(`dataCollectionSimplyId=${ownPeople.id}`))).toEqual(['Bravo letter']);
      expect(names(await list('dataCollectionSimplyId=ZZZZ-ZZZZ-ZZZZ'))).toEqual([]);
      expect(names(await list('search=LETTER'))).toEqual(['Bravo letter']);
      expect(names(await list('search=100%25'))).toEqual(['Charlie 100% off']);
      expect(names(await list('search=_'))).toEqual([]);
      expect(names(await list('search=%5C'))).toEqual([]);
      expect(names(await list('sort=name_ASC'))).toEqual(['Alpha reminder', 'Bravo letter', 'Charlie 100% off']);
      expect(names(await list('sort=createdAt_ASC'))).toEqual(['Bravo letter', 'Alpha reminder', 'Charlie 100% off']);
      expect(names(await list('sort=updatedAt_DESC&includeArchived=true'))[0]).toBe('Delta archived');
      const page = gqlData(await gql(GQL.list, { deliveryMethod: 'EMAIL', sort: 'name_ASC' }, own.apiKey)).outgoingMessageTemplates;
      expect(page.nodes.map((t: { name: string }) => t.name)).toEqual(['Bravo letter', 'Charlie 100% off']);
      // content selected in a GraphQL list is loaded for its entries
      expect(page.nodes[0].htmlContent).toBe('<p>big</p>');
    });

    it('refuses bad paging and filters with 400 naming the parameter', async () => {
      for (const [query, field] of [
        ['limit=0', 'limit'],
        ['limit=101', 'limit'],
        ['offset=-1', 'offset'],
        ['deliveryMethod=PIGEON', 'deliveryMethod'],
        ['designFormat=MJML', 'designFormat'],
        ['sort=name', 'sort'],
        ['includeArchived=yes', 'includeArchived'],
        [`search=${'x'.repeat(201)}`, 'search'],
        ['dataCollectionSimplyId=42', 'dataCollectionSimplyId'],
      ]) {
        const error = expectError(await list(query!), 400, 'VALIDATION_ERROR', query);
        expect(error.details?.map((d) => d.field), query).toContain(field);
      }
      expectGqlError(await gql(GQL.list, { sort: 'x' }, own.apiKey), 'VALIDATION_ERROR', 400);
    });
  });

  describe('edit (PATCH)', () => {
    it('changes only the keys sent, sanitizes HTML again, null clears; GraphQL does the same', async () => {
      const t = await create({ name: 'editable', subjectLine: 'Hello', preheader: 'pre', htmlContent: '<p>one</p>', textContent: 'one', designJson: { v: 1 } });
      await new Promise((resolve) => setTimeout(resolve, 5));
      const changed = expectOk(await call('PATCH', `${PATH}/${t.id}`, { htmlContent: '<p>two<iframe src="https://evil.example"></iframe></p>', designJson: { v: 2 } }));
      expect(changed).toMatchObject({ name: 'editable', subjectLine: 'Hello', preheader: 'pre', htmlContent: '<p>two</p>', textContent: 'one', designJson: { v: 2 }, createdAt: t.createdAt });
      expect(Date.parse(changed.updatedAt)).toBeGreaterThan(Date.parse(t.updatedAt));
      const cleared = expectOk(await call('PATCH', `${PATH}/${t.id}`, { preheader: null, textContent: '  ', designJson: null, description: '' }));
      expect(cleared).toMatchObject({ preheader: null, textContent: null, designJson: null, description: null, htmlContent: '<p>two</p>' });
      expect(issueCodes(cleared)).toEqual(['NO_TEXT_VERSION', 'UNSUBSCRIBE_FOOTER_ADDED']);
      expect(expectOk(await call('GET', `${PATH}/${t.id}`))).toEqual(cleared);
      const viaGql = gqlData(await gql(GQL.update, { id: t.id, input: { textContent: 'three', htmlContent: null } })).updateOutgoingMessageTemplate;
      expect(viaGql).toMatchObject({ textContent: 'three', htmlContent: null, subjectLine: 'Hello' });
      expect(issueCodes(viaGql)).toEqual(['BODY_EMPTY', 'UNSUBSCRIBE_FOOTER_ADDED']);
    });

    it('refuses what cannot change and what the channel does not have with 400; leaves the template as it was', async () => {
      const sms = await create({ name: 'sms edits', deliveryMethod: 'SMS', textContent: 'hi' });
      for (const [body, field] of [
        [{ name: null }, 'name'],
        [{ deliveryMethod: 'EMAIL' }, 'deliveryMethod'],
        [{ designFormat: 'HTML' }, 'designFormat'],
        [{ subjectLine: 'Hi' }, 'subjectLine'],
        [{ preheader: 'Hi' }, 'preheader'],
        [{ htmlContent: '<p>x</p>' }, 'htmlContent'],
        [{ textContent: 'x'.repeat(1601) }, 'textContent'],
        [{ textContent: '{{ bad tag }}' }, 'textContent'],
        [{ unknown: 1 }, 'unknown'],
      ] as [Record<string, unknown>, string][]) {
        const error = expectError(await call('PATCH', `${PATH}/${sms.id}`, body), 400, 'VALIDATION_ERROR', JSON.stringify(body).slice(0, 60));
        expect(error.details?.map((d) => d.field)).toContain(field);
      }
      expectGqlError(await gql(GQL.update, { id: sms.id, input: { subjectLine: 'Hi' } }), 'VALIDATION_ERROR', 400);
      expect(expectOk(await call('GET', `${PATH}/${sms.id}`))).toEqual(sms);
    });

    it('naming a collection checks every text of the template; texts sent later are checked against it; null unties it', async () => {
      const t = await create({ name: 'untied', subjectLine: 'Hi {{nickname}}', textContent: 'Dear {{first_name}}' });
      const error = expectError(await call('PATCH', `${PATH}/${t.id}`, { dataCollectionSimplyId: people.id }), 400, 'VALIDATION_ERROR');
      expect(error.details).toEqual([{ field: 'subjectLine', message: expect.stringContaining('{{nickname}}') }]);
      const tied = expectOk(await call('PATCH', `${PATH}/${t.id}`, { dataCollectionSimplyId: people.id, subjectLine: 'Hi {{first_name}}' }));
      expect(tied).toMatchObject({ dataCollectionSimplyId: people.id, subjectLine: 'Hi {{first_name}}' });
      expectError(await call('PATCH', `${PATH}/${t.id}`, { textContent: '{{nickname}}' }), 400, 'VALIDATION_ERROR');
      // a name change checks nothing
      expectOk(await call('PATCH', `${PATH}/${t.id}`, { name: 'tied' }));
      const untied = expectOk(await call('PATCH', `${PATH}/${t.id}`, { dataCollectionSimplyId: null, textContent: '{{nickname}}' }));
      expect(untied).toMatchObject({ dataCollectionSimplyId: null, textContent: '{{nickname}}' });
    });

    it('a field deleted after saving shows as an UNKNOWN_MERGE_TAGS warning; a deleted collection as COLLECTION_MISSING', async () => {
      const extra = await createPeople(server, team, 'Short-lived people');
      const t = await create({ name: 'aging', subjectLine: 'Hi {{city}}', textContent: '{{first_name}}', dataCollectionSimplyId: extra.id });
      expectOk(await server.request('DELETE', `/v1/data-collections/${extra.id}/fields/${extra.fields.city}`, { token: team.apiKey }));
      const aged = expectOk(await call('GET', `${PATH}/${t.id}`));
      expect(aged.issues).toContainEqual({ severity: 'WARNING', code: 'UNKNOWN_MERGE_TAGS', field: 'subjectLine', message: expect.stringContaining('{{city}}') });
      // a collection that is gone (no route deletes one; as after a schema import without it)
      await server.app.services.prisma.outgoingMessageTemplate.updateMany({ where: { teamId: team.teamId, simplyId: t.id }, data: { dataCollectionId: 999_999_999n } });
      const orphan = expectOk(await call('GET', `${PATH}/${t.id}`));
      expect(orphan.dataCollectionSimplyId).toBeNull();
      expect(orphan.issues).toContainEqual(expect.objectContaining({ severity: 'WARNING', code: 'COLLECTION_MISSING' }));
    });
  });

  describe('archive and duplicate', () => {
    it('DELETE archives on both surfaces alike: readable by id, out of the lists, again 404, edits 409', async () => {
      const t = await create({ name: 'retiring', textContent: 'bye' });
      expect(expectOk(await call('DELETE', `${PATH}/${t.id}`))).toEqual({ id: t.id, deleted: true });
      const archived = expectOk(await call('GET', `${PATH}/${t.id}`));
      expect(archived.archivedAt).toEqual(expect.any(String));
      expect(issueCodes(archived)[0]).toBe('ARCHIVED');
      expect(expectOk(await call('GET', `${SIMPLE}/${t.id}`)).archivedAt).toBe(archived.archivedAt);
      expect(expectOk(await call('GET', `${PATH}?limit=100`)).map((x: { id: string }) => x.id)).not.toContain(t.id);
      expectError(await call('DELETE', `${PATH}/${t.id}`), 404, 'NOT_FOUND');
      expectError(await call('DELETE', `${SIMPLE}/${t.id}`), 404, 'NOT_FOUND');
      expectError(await call('PATCH', `${PATH}/${t.id}`, { name: 'revived' }), 409, 'CONFLICT');
      expectGqlError(await gql(GQL.update, { id: t.id, input: { name: 'revived' } }), 'CONFLICT', 409);
      const simple = await create({ name: 'via simple' });
      expect(gqlData(await gql(GQL.delete, { id: simple.id }))).toEqual({ deleteOutgoingMessageTemplate: true });
      expectError(await call('PUT', `${SIMPLE}/${simple.id}`, { name: 'x' }), 409, 'CONFLICT');
    });

    it('duplicate: an active copy of everything but the name and the times, archived sources too; 201', async () => {
      const source = await create({ name: 'Original', subjectLine: 'S {{first_name}}', preheader: 'P', htmlContent: '<p>H</p>', textContent: 'T', designJson: { a: [1] }, dataCollectionSimplyId: people.id });
      const copy = expectOk(await call('POST', `${PATH}/${source.id}/duplicate`), 201);
      expect(copy.id).not.toBe(source.id);
      expect(copy).toEqual({ ...source, id: copy.id, name: 'Original (copy)', createdAt: copy.createdAt, updatedAt: copy.updatedAt });
      expectOk(await call('DELETE', `${PATH}/${source.id}`));
      const named = expectOk(await call('POST', `${PATH}/${source.id}/duplicate`, { name: 'Revival' }), 201);
      expect(named).toMatchObject({ name: 'Revival', archivedAt: null, htmlContent: '<p>H</p>' });
      const long = await create({ name: 'L'.repeat(200) });
      expect(expectOk(await call('POST', `${PATH}/${long.id}/duplicate`, {}), 201).name).toBe(`${'L'.repeat(193)} (copy)`);
      expect(gqlData(await gql(GQL.duplicate, { id: long.id, input: { name: 'gql copy' } })).duplicateOutgoingMessageTemplate.name).toBe('gql copy');
      for (const [body, field] of [[{ name: '' }, 'name'], [{ name: 'x'.repeat(201) }, 'name'], [{ other: 1 }, 'other']] as [Record<string, unknown>, string][]) {
        const error = expectError(await call('POST', `${PATH}/${long.id}/duplicate`, body), 400, 'VALIDATION_ERROR');
        expect(error.details?.map((d) => d.field)).toContain(field);
      }
    });
  });

  describe('preview', () => {
    let ada: string;
    let template: { id: string };
    let free: { id: string };
    beforeAll(async () => {
      ada = (await addPeople(server, team, people, [{ first_name: '<b>Ada</b> & co', email: 'ada@example.test', city: 'javascript:alert(1)' }]))[0]!;
      template = await create({
        name: 'previewed',
        subjectLine: 'Hi {{first_name}}',
        preheader: 'News from {{city}}',
        htmlContent: '<p>Dear {{first_name}}</p><a href="{{city}}">home</a> <a href="{{unsubscribe_url}}">Unsubscribe</a>',
        textContent: 'Dear {{first_name}}, {{unsubscribe_url}}',
        dataCollectionSimplyId: people.id,
      });
      free = await create({ name: 'free preview', subjectLine: 'Hi {{first_name}} {{nickname}}', htmlContent: '<p>{{city}}</p>', textContent: 'Hi {{first_name}}' });
    });

    it('fills the tags from a record: escaped in the HTML, resanitized where escaping is not enough; the preheader first and hidden; nothing stored', async () => {
      const before = await server.app.services.prisma.outgoingMessageTemplate.findFirstOrThrow({ where: { simplyId: template.id } });
      const preview = expectOk(await call('POST', `${PATH}/${template.id}/preview`, { dataRecordSimplyId: ada }));
      expect(Object.keys(preview).sort()).toEqual(['html', 'outgoingMessageTemplateSimplyId', 'preheader', 'sms', 'subjectLine', 'text', 'unfilledMergeTags']);
      expect(preview).toMatchObject({ outgoingMessageTemplateSimplyId: template.id, subjectLine: 'Hi <b>Ada</b> & co', preheader: 'News from javascript:alert(1)', sms: null, unfilledMergeTags: [] });
      expect(preview.html).toMatch(/^<div style="display:none[^"]*">News from javascript:alert\(1\)<\/div>/);
      expect(preview.html).toContain('<p>Dear &lt;b&gt;Ada&lt;/b&gt; &amp; co</p>');
      expect(preview.html).not.toContain('href="javascript:');
      expect(preview.html).toMatch(/href="https?:\/\/[^"]+\/unsubscribe\/test-copy"/);
      expect(preview.text).toMatch(/^Dear <b>Ada<\/b> & co, https?:\/\/\S+\/unsubscribe\/test-copy$/);
      expect(await server.app.services.prisma.outgoingMessageTemplate.findFirstOrThrow({ where: { simplyId: template.id } })).toEqual(before);
    });

    it('sample values fill tags (ahead of the record); without a record the rest stays unfilled and is listed', async () => {
      const withSamples = expectOk(await call('POST', `${PATH}/${free.id}/preview`, { sampleValues: { first_name: 'Grace' } }));
      expect(withSamples).toMatchObject({ subjectLine: 'Hi Grace ', html: '<p></p>', text: 'Hi Grace', unfilledMergeTags: ['nickname', 'city'] });
      const both = expectOk(await call('POST', `${PATH}/${free.id}/preview`, { dataRecordSimplyId: ada, sampleValues: { first_name: 'Grace', nickname: 'G' } }));
      expect(both).toMatchObject({ subjectLine: 'Hi Grace G', html: '<p>javascript:alert(1)</p>', unfilledMergeTags: [] });
      const withRecord = expectOk(await call('POST', `${PATH}/${free.id}/preview`, { dataRecordSimplyId: ada }));
      expect(withRecord).toMatchObject({ subjectLine: 'Hi <b>Ada</b> & co ', unfilledMergeTags: ['nickname'] });
      const none = expectOk(await call('POST', `${PATH}/${free.id}/preview`));
      expect(none.unfilledMergeTags).toEqual(['first_name', 'nickname', 'city']);
      const viaGql = gqlData(await gql(GQL.preview, { id: free.id, input: { sampleValues: { first_name: 'Lin' } } })).outgoingMessageTemplatePreview;
      expect(viaGql.subjectLine).toBe('Hi Lin ');
    });

    it('SMS: the segments of the filled-in text', async () => {
      const sms = await create({ name: 'sms preview', deliveryMethod: 'SMS', textContent: 'Hi {{first_name}}' });
      const preview = expectOk(await call('POST', `${PATH}/${sms.id}/preview`, { sampleValues: { first_name: 'Łukasz' } }));
      expect(preview).toMatchObject({ text: 'Hi Łukasz', html: null, subjectLine: null, sms: { encoding: 'UCS_2', characters: 9, segments: 1, perSegment: 70 } });
    });

    it('a record of another collection, another team, or none is 404; bad input 400 naming the field', async () => {
      const elsewhere = await createPeople(server, team, 'Other people');
      const [stranger] = await addPeople(server, team, elsewhere, [{ first_name: 'Stranger' }]);
      const theirPeople = await createPeople(server, other, 'Their previewed people');
      const [theirs] = await addPeople(server, other, theirPeople, [{ first_name: 'Theirs' }]);
      for (const id of [stranger, theirs, 'ZZZZ-ZZZZ-ZZZZ']) expectError(await call('POST', `${PATH}/${template.id}/preview`, { dataRecordSimplyId: id }), 404, 'NOT_FOUND', id);
      // a template without a collection previews with any readable record
      expect(expectOk(await call('POST', `${PATH}/${free.id}/preview`, { dataRecordSimplyId: stranger })).text).toBe('Hi Stranger');
      for (const [body, field] of [
        [{ dataRecordSimplyId: '42' }, 'dataRecordSimplyId'],
        [{ sampleValues: [] }, 'sampleValues'],
        [{ sampleValues: { 'two words': 'x' } }, 'sampleValues.two words'],
        [{ sampleValues: { a: 'x'.repeat(1001) } }, 'sampleValues.a'],
        [{ sampleValues: Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`t${i}`, 'x'])) }, 'sampleValues'],
        [{ other: 1 }, 'other'],
      ] as [Record<string, unknown>, string][]) {
        const error = expectError(await call('POST', `${PATH}/${template.id}/preview`, body), 400, 'VALIDATION_ERROR', JSON.stringify(body).slice(0, 60));
        expect(error.details?.map((d) => d.field)).toContain(field);
      }
    });
  });

  describe('one template, two surfaces', () => {
    it('a simple template reads here with its issues; an authored one reads there with the simple fields', async () => {
      const simple = expectOk(await call('POST', SIMPLE, { name: 'simple', subjectLine: 's'.repeat(300) }), 201);
      const seen = expectOk(await call('GET', `${PATH}/${simple.id}`));
      expect(seen).toMatchObject({ id: simple.id, name: 'simple', htmlContent: null, preheader: null });
      expect(seen.issues[0]).toMatchObject({ severity: 'BLOCKING', code: 'SUBJECT_TOO_LONG', field: 'subjectLine' });
      const authored = await create({ name: 'authored', subjectLine: 'Hi', htmlContent: '<p>x</p>' });
      const there = expectOk(await call('GET', `${SIMPLE}/${authored.id}`));
      expect(Object.keys(there).sort()).toEqual(['archivedAt', 'createdAt', 'deliveryMethod', 'description', 'designFormat', 'id', 'name', 'subjectLine', 'updatedAt']);
      expectOk(await call('PUT', `${SIMPLE}/${authored.id}`, { name: 'renamed there' }));
      expect(expectOk(await call('GET', `${PATH}/${authored.id}`))).toMatchObject({ name: 'renamed there', htmlContent: '<p>x</p>' });
      expect(expectOk(await call('GET', `${SIMPLE}?limit=100`)).map((t: { id: string }) => t.id)).toContain(authored.id);
    });
  });

  describe('composing a message from an authored template', () => {
    it('the message takes the channel, subject and bodies (the preheader hidden first in its HTML); body values win', async () => {
      await addSender(server, team);
      const [grace] = await addPeople(server, team, people, [{ first_name: 'Grace', email: 'grace@example.test', city: 'Arlington' }]);
      const template = await create({
        name: 'Composer source',
        subjectLine: 'Hello {{first_name}}',
        preheader: 'Spring in {{city}}',
        htmlContent: '<!DOCTYPE html><html><head><style>p{color:#333}</style></head><body><p>Dear {{first_name}}</p></body></html>',
        textContent: 'Dear {{first_name}}',
        dataCollectionSimplyId: people.id,
      });
      const message = expectOk(await call('POST', '/v1/outgoing-messages', {
        internalName: 'from an authored template',
        outgoingMessageTemplateSimplyId: template.id,
        recipients: { dataCollectionSimplyId: people.id, emailFieldSimplyId: people.fields.email },
      }), 201);
      expect(message).toMatchObject({ deliveryMethod: 'EMAIL', contentType: 'HTML', subjectLine: 'Hello {{first_name}}', textContent: 'Dear {{first_name}}', template: { id: template.id, name: 'Composer source' } });
      expect(message.htmlContent).toMatch(/<body><div style="display:none[^"]*">Spring in \{\{city\}\}<\/div><p>Dear \{\{first_name\}\}<\/p><\/body>/);
      expect(message.htmlContent).toContain('<style>p{color:#333}</style>');
      const readiness = expectOk(await call('GET', `/v1/outgoing-messages/${message.id}/send-readiness`));
      expect(readiness.blockers.filter((b: { code: string }) => b.code === 'UNKNOWN_MERGE_TAGS' || b.code === 'BODY_EMPTY' || b.code === 'SUBJECT_MISSING')).toEqual([]);

      // a test copy is the template filled in for one recipient
      const sent = expectOk(await call('POST', `/v1/outgoing-messages/${message.id}/test-send`, { to: ['qa@example.test'], dataRecordSimplyId: grace }));
      const mail = await server.app.services.prisma.mailMessage.findFirstOrThrow({ where: { teamId: team.teamId, simplyId: sent.mailSimplyIds[0] } });
      expect(mail.subject).toBe('[TEST] Hello Grace');
      expect(mail.htmlBody).toContain('>Spring in Arlington</div><p>Dear Grace</p>');
      expect(mail.textBody).toContain('Dear Grace');

      // what the body gives wins; an SMS template gives its text
      const own = expectOk(await call('POST', '/v1/outgoing-messages', { internalName: 'own body', outgoingMessageTemplateSimplyId: template.id, htmlContent: '<p>mine</p>' }), 201);
      expect(own).toMatchObject({ htmlContent: '<p>mine</p>', textContent: 'Dear {{first_name}}', subjectLine: 'Hello {{first_name}}' });
      const sms = await create({ name: 'sms source', deliveryMethod: 'SMS', textContent: 'Reminder for {{first_name}}' });
      const text = expectOk(await call('POST', '/v1/outgoing-messages', { internalName: 'sms', outgoingMessageTemplateSimplyId: sms.id }), 201);
      expect(text).toMatchObject({ deliveryMethod: 'SMS', contentType: 'PLAIN_TEXT', textContent: 'Reminder for {{first_name}}', htmlContent: null, subjectLine: null });
      // linking in a PUT still copies nothing over the draft
      const linked = expectOk(await call('PUT', `/v1/outgoing-messages/${own.id}`, { outgoingMessageTemplateSimplyId: template.id, htmlContent: null }));
      expect(linked.htmlContent).toBeNull();
    });
  });

  describe('who may call it (privileged: OUTGOING_MESSAGES_TEMPLATES)', () => {
    let template: { id: string };
    let noFeatureKey: string;
    let viewKey: string;
    let editKey: string;
    beforeAll(async () => {
      template = await create({ name: 'guarded', textContent: 'x' });
      const role = await createRole(server, team, { name: `settings only ${Date.now()}`, featurePermissions: [{ name: 'TEAM_SETTINGS', level: 'VIEW' }] });
      noFeatureKey = (await createApiKey(server, team, { name: 'no templates', teamRoleSimplyId: role, featurePermissions: ['TEAM_SETTINGS:VIEW'] })).key;
      viewKey = (await createApiKey(server, team, { name: 'templates view', featurePermissions: ['OUTGOING_MESSAGES_TEMPLATES:VIEW'] })).key;
      editKey = (await createApiKey(server, team, { name: 'templates edit', featurePermissions: ['OUTGOING_MESSAGES_TEMPLATES'] })).key;
    });
    const reads = () => [['GET', PATH, undefined], ['GET', `${PATH}/${template.id}`, undefined], ['POST', `${PATH}/${template.id}/preview`, {}]] as const;
    const writes = () =>
      [
        ['POST', PATH, { name: 'denied' }],
        ['PATCH', `${PATH}/${template.id}`, { name: 'denied' }],
        ['DELETE', `${PATH}/${template.id}`, undefined],
        ['POST', `${PATH}/${template.id}/duplicate`, {}],
      ] as const;

    it('without the feature: 403 on every route, before the input is looked at', async () => {
      for (const [method, path, body] of [...reads(), ...writes()]) expectError(await call(method, path, body, noFeatureKey), 403, 'PERMISSION_DENIED', `${method} ${path}`);
      expectError(await call('POST', PATH, { name: '' }, noFeatureKey), 403, 'PERMISSION_DENIED');
      expectGqlError(await gql(GQL.list, {}, noFeatureKey), 'PERMISSION_DENIED', 403);
      expectGqlError(await gql(GQL.create, { input: { name: 'denied' } }, noFeatureKey), 'PERMISSION_DENIED', 403);
    });

    it('view level reads and previews but cannot write; edit level writes', async () => {
      for (const [method, path, body] of reads()) expectOk(await call(method, path, body, viewKey));
      for (const [method, path, body] of writes()) expectError(await call(method, path, body, viewKey), 403, 'PERMISSION_DENIED', `${method} ${path}`);
      const made = await create({ name: 'by edit key' }, editKey);
      expectOk(await call('PATCH', `${PATH}/${made.id}`, { name: 'edited' }, editKey));
      expectOk(await call('POST', `${PATH}/${made.id}/duplicate`, {}, editKey), 201);
      expectOk(await call('DELETE', `${PATH}/${made.id}`, undefined, editKey));
    });

    it('session tokens are refused whatever they carry (403), though they may use the simple templates', async () => {
      const full = (await mintSessionToken(server, team.apiKey)).token;
      const editing = (await mintSessionToken(server, editKey)).token;
      for (const token of [full, editing]) {
        for (const [method, path, body] of [...reads(), ...writes()]) expectError(await call(method, path, body, token), 403, 'PERMISSION_DENIED', `${method} ${path}`);
        expectGqlError(await gql(GQL.get, { id: template.id }, token), 'PERMISSION_DENIED', 403);
      }
      expectOk(await call('GET', `${SIMPLE}/${template.id}`, undefined, editing));
    });

    it('members: a role with the feature may author, one without gets 403; team admins may; no credential 401', async () => {
      const editors = await createRole(server, team, { name: `template authors ${Date.now()}`, featurePermissions: [{ name: 'OUTGOING_MESSAGES_TEMPLATES', level: 'EDIT' }] });
      const editor = await addMember(server, team, { teamRoleSimplyId: editors });
      const plain = await addMember(server, team);
      const made = expectOk(await call('POST', PATH, { name: 'by member' }, editor.token, team.teamSimplyId), 201);
      const row = await server.app.services.prisma.outgoingMessageTemplate.findFirstOrThrow({ where: { simplyId: made.id } });
      expect(row).toMatchObject({ createdByKind: 'USER', createdById: editor.userSimplyId });
      expectError(await call('GET', PATH, undefined, plain.token, team.teamSimplyId), 403, 'PERMISSION_DENIED');
      expectOk(await call('PATCH', `${PATH}/${made.id}`, { textContent: 'by admin' }, team.userToken, team.teamSimplyId));
      expectError(await call('GET', PATH, undefined, ''), 401, 'UNAUTHENTICATED');
    });
  });

  describe('ids and teams', () => {
    it("another team's template is 404 on every route, like a missing one; nothing changes", async () => {
      const theirs = await create({ name: 'theirs', textContent: 'x' }, other.apiKey);
      for (const id of [theirs.id, 'mtp-2222-2222-2222']) {
        expectError(await call('GET', `${PATH}/${id}`), 404, 'NOT_FOUND', id);
        expectError(await call('PATCH', `${PATH}/${id}`, { name: 'mine now' }), 404, 'NOT_FOUND', id);
        expectError(await call('DELETE', `${PATH}/${id}`), 404, 'NOT_FOUND', id);
        expectError(await call('POST', `${PATH}/${id}/duplicate`, {}), 404, 'NOT_FOUND', id);
        expectError(await call('POST', `${PATH}/${id}/preview`, {}), 404, 'NOT_FOUND', id);
        expectGqlError(await gql(GQL.get, { id }), 'NOT_FOUND', 404);
        expectGqlError(await gql(GQL.update, { id, input: { name: 'mine now' } }), 'NOT_FOUND', 404);
        expectGqlError(await gql(GQL.delete, { id }), 'NOT_FOUND', 404);
      }
      expect(expectOk(await call('GET', `${PATH}?limit=100`)).map((t: { id: string }) => t.id)).not.toContain(theirs.id);
      expect(expectOk(await call('GET', `${PATH}/${theirs.id}`, undefined, other.apiKey))).toEqual(theirs);
    });

    it('malformed and numeric ids are 400 naming the parameter', async () => {
      for (const id of ['123', 'ctpl-2222-2222-2222', 'mtp-2222-2222', 'mtp-0000-0000-0000']) {
        const error = expectError(await call('GET', `${PATH}/${id}`), 400, 'VALIDATION_ERROR', id);
        expect(error.details?.[0]?.field).toBe('outgoingMessageTemplateSimplyId');
        expectError(await call('PATCH', `${PATH}/${id}`, { name: 'x' }), 400, 'VALIDATION_ERROR', id);
        expectError(await call('DELETE', `${PATH}/${id}`), 400, 'VALIDATION_ERROR', id);
        expectError(await call('POST', `${PATH}/${id}/preview`, {}), 400, 'VALIDATION_ERROR', id);
        expectGqlError(await gql(GQL.get, { id }), 'VALIDATION_ERROR', 400);
      }
    });
  });
});
