// Simple message templates over REST (/v1/message-templates) and GraphQL (messageTemplates,
// messageTemplate, createMessageTemplate, updateMessageTemplate, deleteMessageTemplate): shape,
// defaults, every input limit, the EMAIL-only subject line, archiving, paging and filters, the
// OUTGOING_MESSAGES_TEMPLATES feature (view reads, edit writes) and other teams' ids.
import { beforeAll, describe, expect, it } from 'vitest';
import { operation } from '../../src/app/graphql/fragments.ts';
import { MESSAGE_TEMPLATE } from '../../src/modules/messages/messages.fragments.ts';
import { mintSessionToken } from '../support/credentials-fixtures.ts';
import { expectError, expectGqlError, expectOk, gqlData } from '../support/expect-envelope.ts';
import { addMember, createApiKey, createRole, createTeam, type TeamFixture } from '../support/fixtures.ts';
import { restCaller } from '../support/rest-caller.ts';
import { useServer } from '../support/use-server.ts';

const PATH = '/v1/message-templates';
const ID = /^mtp-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}$/;
const FIELDS = ['archivedAt', 'createdAt', 'deliveryMethod', 'description', 'designFormat', 'id', 'name', 'subjectLine', 'updatedAt'];

const GQL = {
  list: operation(
    ['query($limit: Int, $offset: Int, $deliveryMethod: String, $includeArchived: Boolean) { messageTemplates(limit: $limit, offset: $offset, deliveryMethod: $deliveryMethod, includeArchived: $includeArchived) { nodes { ', ' } pagination { total limit offset hasMore } } }'],
    MESSAGE_TEMPLATE,
  ),
  get: operation(['query($id: String!) { messageTemplate(outgoingMessageTemplateSimplyId: $id) { outgoingMessageTemplateSimplyId ', ' } }'], MESSAGE_TEMPLATE),
  create: operation(['mutation($input: CreateMessageTemplateInput!) { createMessageTemplate(input: $input) { ', ' } }'], MESSAGE_TEMPLATE),
  update: operation(['mutation($id: String!, $input: UpdateMessageTemplateInput!) { updateMessageTemplate(outgoingMessageTemplateSimplyId: $id, input: $input) { ', ' } }'], MESSAGE_TEMPLATE),
  delete: 'mutation($id: String!) { deleteMessageTemplate(outgoingMessageTemplateSimplyId: $id) }',
};

describe('message templates', () => {
  const { server, teams: [team, other] } = useServer({ teams: 2 });
  const call = restCaller(() => server, () => team.apiKey);
  const gql = (query: string, variables: Record<string, unknown> = {}, token = team.apiKey, teamId?: string) => server.graphql(query, variables, { token, teamId });
  const create = async (body: Record<string, unknown>, token?: string, teamId?: string) => expectOk(await call('POST', PATH, body, token, teamId), 201);

  describe('create and read', () => {
    it('creates with defaults: EMAIL, HTML, no description or subject; reads it back by id and in the list', async () => {
      const created = await create({ name: '  Welcome  ' });
      expect(Object.keys(created).sort()).toEqual(FIELDS);
      expect(created).toMatchObject({ name: 'Welcome', description: null, deliveryMethod: 'EMAIL', subjectLine: null, designFormat: 'HTML', archivedAt: null });
      expect(created.id).toMatch(ID);
      expect(created.createdAt).toBe(created.updatedAt);
      expect(expectOk(await call('GET', `${PATH}/${created.id}`))).toEqual(created);
      expect(expectOk(await call('GET', PATH)).map((t: { id: string }) => t.id)).toContain(created.id);
    });

    it('stores every field as sent, and records who created it', async () => {
      const created = await create({ name: 'Reminder', description: 'sent the day before', deliveryMethod: 'EMAIL', subjectLine: 'See you tomorrow 👋', designFormat: 'PLAIN_TEXT' });
      expect(created).toMatchObject({ name: 'Reminder', description: 'sent the day before', subjectLine: 'See you tomorrow 👋', designFormat: 'PLAIN_TEXT' });
      const row = await server.app.services.prisma.outgoingMessageTemplate.findFirstOrThrow({ where: { simplyId: created.id } });
      expect(row).toMatchObject({ teamId: team.teamId, createdByKind: 'API_KEY', createdById: team.apiKeySimplyId });

      const byUser = await create({ name: 'by a user' }, team.userToken, team.teamSimplyId);
      const userRow = await server.app.services.prisma.outgoingMessageTemplate.findFirstOrThrow({ where: { simplyId: byUser.id } });
      expect(userRow).toMatchObject({ createdByKind: 'USER', createdById: team.userSimplyId });
    });

    it('takes every channel; a subject line only on EMAIL (null or empty is fine elsewhere)', async () => {
      for (const deliveryMethod of ['SMS', 'WHATSAPP', 'FACEBOOK']) {
        expect(await create({ name: deliveryMethod, deliveryMethod, subjectLine: null })).toMatchObject({ deliveryMethod, subjectLine: null });
        expect(await create({ name: deliveryMethod, deliveryMethod, subjectLine: '  ' })).toMatchObject({ subjectLine: null });
        const error = expectError(await call('POST', PATH, { name: deliveryMethod, deliveryMethod, subjectLine: 'Hi' }), 400, 'VALIDATION_ERROR');
        expect(error.details).toEqual([{ field: 'subjectLine', message: expect.stringContaining('only EMAIL templates have a subject line') }]);
      }
      expectGqlError(await gql(GQL.create, { input: { name: 'sms', deliveryMethod: 'SMS', subjectLine: 'Hi' } }), 'VALIDATION_ERROR', 400);
    });

    it('refuses each out-of-bounds or unknown input with 400 naming the field', async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{}, 'name'],
        [{ name: '' }, 'name'],
        [{ name: '   ' }, 'name'],
        [{ name: 'x'.repeat(201) }, 'name'],
        [{ name: 42 }, 'name'],
        [{ name: 'ok', description: 'x'.repeat(2001) }, 'description'],
        [{ name: 'ok', subjectLine: 'x'.repeat(999) }, 'subjectLine'],
        [{ name: 'ok', subjectLine: 'two\r\nBcc: someone@example.test' }, 'subjectLine'],
        [{ name: 'ok', deliveryMethod: 'PIGEON' }, 'deliveryMethod'],
        [{ name: 'ok', deliveryMethod: 'email' }, 'deliveryMethod'],
        [{ name: 'ok', designFormat: 'MJML' }, 'designFormat'],
        [{ name: 'ok', archivedAt: '2026-01-01T00:00:00Z' }, 'archivedAt'],
        [{ name: 'ok', channel: 'EMAIL' }, 'channel'],
      ];
      for (const [body, field] of cases) {
        const error = expectError(await call('POST', PATH, body), 400, 'VALIDATION_ERROR', JSON.stringify(body).slice(0, 80));
        expect(error.details?.map((d) => d.field), JSON.stringify(body).slice(0, 80)).toContain(field);
      }
      // the limits themselves are accepted
      const longest = await create({ name: 'n'.repeat(200), description: 'd'.repeat(2000), subjectLine: 's'.repeat(998) });
      expect([longest.name.length, longest.description.length, longest.subjectLine.length]).toEqual([200, 2000, 998]);
      // the same limits hold for GraphQL callers
      for (const input of [{ name: 'x'.repeat(201) }, { name: 'ok', designFormat: 'MJML' }, { name: 'ok', deliveryMethod: 'PIGEON' }, { name: 'ok', subjectLine: 'x'.repeat(999) }]) {
        expectGqlError(await gql(GQL.create, { input }), 'VALIDATION_ERROR', 400);
      }
    });

    it('GraphQL: creates, reads (with the named id), lists', async () => {
      const created = gqlData(await gql(GQL.create, { input: { name: 'gql', deliveryMethod: 'WHATSAPP', designFormat: 'PLAIN_TEXT' } })).createMessageTemplate;
      expect(created).toMatchObject({ name: 'gql', deliveryMethod: 'WHATSAPP', designFormat: 'PLAIN_TEXT', subjectLine: null, archivedAt: null });
      const got = gqlData(await gql(GQL.get, { id: created.id })).messageTemplate;
      expect(got).toEqual({ ...created, outgoingMessageTemplateSimplyId: created.id });
      const page = gqlData(await gql(GQL.list, { deliveryMethod: 'WHATSAPP' })).messageTemplates;
      expect(page.nodes.map((t: { id: string }) => t.id)).toContain(created.id);
      expect(page.nodes.every((t: { deliveryMethod: string }) => t.deliveryMethod === 'WHATSAPP')).toBe(true);
      // REST answers the same object
      expect(expectOk(await call('GET', `${PATH}/${created.id}`))).toEqual(created);
    });
  });

  describe('list', () => {
    let own: TeamFixture;
    const ids: Record<string, string> = {};
    beforeAll(async () => {
      own = await createTeam(server);
      for (const [key, body] of Object.entries({
        first: { name: 'first', deliveryMethod: 'EMAIL' },
        second: { name: 'second', deliveryMethod: 'SMS' },
        third: { name: 'third', deliveryMethod: 'EMAIL' },
        archived: { name: 'archived', deliveryMethod: 'SMS' },
      })) {
        ids[key] = (await create(body, own.apiKey)).id;
      }
      expectOk(await call('DELETE', `${PATH}/${ids.archived}`, undefined, own.apiKey));
    });
    const names = (res: { body: { data: { name: string }[] } }) => res.body.data.map((t) => t.name);

    it('newest first, archived ones left out, paged with limit and offset', async () => {
      const all = await call('GET', PATH, undefined, own.apiKey);
      expect(names(all)).toEqual(['third', 'second', 'first']);
      expect(all.body.meta.pagination).toEqual({ total: 3, limit: 25, offset: 0, hasMore: false });
      const page = await call('GET', `${PATH}?limit=1&offset=1`, undefined, own.apiKey);
      expect(names(page)).toEqual(['second']);
      expect(page.body.meta.pagination).toEqual({ total: 3, limit: 1, offset: 1, hasMore: true });
    });

    it('includeArchived=true adds archived ones (with archivedAt); deliveryMethod filters', async () => {
      const withArchived = expectOk(await call('GET', `${PATH}?includeArchived=true`, undefined, own.apiKey));
      expect(withArchived.map((t: { name: string }) => t.name)).toEqual(['archived', 'third', 'second', 'first']);
      expect(withArchived[0].archivedAt).toEqual(expect.any(String));
      expect(names(await call('GET', `${PATH}?deliveryMethod=SMS`, undefined, own.apiKey))).toEqual(['second']);
      expect(names(await call('GET', `${PATH}?deliveryMethod=SMS&includeArchived=true`, undefined, own.apiKey))).toEqual(['archived', 'second']);
      expect(names(await call('GET', `${PATH}?deliveryMethod=FACEBOOK`, undefined, own.apiKey))).toEqual([]);
      const page = gqlData(await gql(GQL.list, { includeArchived: true, deliveryMethod: 'SMS' }, own.apiKey)).messageTemplates;
      expect(page.nodes.map((t: { name: string }) => t.name)).toEqual(['archived', 'second']);
      expect(page.pagination).toEqual({ total: 2, limit: 25, offset: 0, hasMore: false });
    });

    it('refuses bad paging and filters with 400 naming the parameter', async () => {
      for (const [query, field] of [
        ['limit=0', 'limit'],
        ['limit=101', 'limit'],
        ['offset=-1', 'offset'],
        ['limit=x', 'limit'],
        ['deliveryMethod=PIGEON', 'deliveryMethod'],
        ['includeArchived=yes', 'includeArchived'],
      ]) {
        const error = expectError(await call('GET', `${PATH}?${query}`, undefined, own.apiKey), 400, 'VALIDATION_ERROR', query);
        expect(error.details?.map((d) => d.field), query).toContain(field);
      }
      expectGqlError(await gql(GQL.list, { deliveryMethod: 'PIGEON' }, own.apiKey), 'VALIDATION_ERROR', 400);
    });
  });

  describe('update', () => {
    it('changes only the keys sent; null clears description and subjectLine; name is trimmed', async () => {
      const t = await create({ name: 'before', description: 'desc', subjectLine: 'subject' });
      await new Promise((resolve) => setTimeout(resolve, 5));
      const renamed = expectOk(await call('PUT', `${PATH}/${t.id}`, { name: '  after ' }));
      expect(renamed).toMatchObject({ name: 'after', description: 'desc', subjectLine: 'subject', deliveryMethod: 'EMAIL', designFormat: 'HTML', createdAt: t.createdAt });
      expect(new Date(renamed.updatedAt).getTime()).toBeGreaterThan(new Date(t.updatedAt).getTime());
      const cleared = expectOk(await call('PUT', `${PATH}/${t.id}`, { description: null, subjectLine: null }));
      expect(cleared).toMatchObject({ name: 'after', description: null, subjectLine: null });
      expect(expectOk(await call('GET', `${PATH}/${t.id}`))).toEqual(cleared);
      const viaGql = gqlData(await gql(GQL.update, { id: t.id, input: { subjectLine: 'again', description: 'new' } })).updateMessageTemplate;
      expect(viaGql).toMatchObject({ name: 'after', subjectLine: 'again', description: 'new' });
      expect(gqlData(await gql(GQL.update, { id: t.id, input: { description: null } })).updateMessageTemplate).toMatchObject({ description: null, subjectLine: 'again' });
    });

    it('refuses what cannot change, bad values and unknown fields with 400', async () => {
      const t = await create({ name: 'strict' });
      for (const [body, field] of [
        [{ name: '' }, 'name'],
        [{ name: null }, 'name'],
        [{ name: 'x'.repeat(201) }, 'name'],
        [{ description: 'x'.repeat(2001) }, 'description'],
        [{ subjectLine: 'x'.repeat(999) }, 'subjectLine'],
        [{ subjectLine: 'a\nb' }, 'subjectLine'],
        [{ deliveryMethod: 'SMS' }, 'deliveryMethod'],
        [{ designFormat: 'PLAIN_TEXT' }, 'designFormat'],
      ] as [Record<string, unknown>, string][]) {
        const error = expectError(await call('PUT', `${PATH}/${t.id}`, body), 400, 'VALIDATION_ERROR', JSON.stringify(body).slice(0, 60));
        expect(error.details?.map((d) => d.field)).toContain(field);
      }
      expectGqlError(await gql(GQL.update, { id: t.id, input: { name: null } }), 'VALIDATION_ERROR', 400);
      expect(expectOk(await call('GET', `${PATH}/${t.id}`))).toEqual(t);
    });

    it('a subject line cannot be set on a non-EMAIL template', async () => {
      const t = await create({ name: 'text', deliveryMethod: 'SMS' });
      const error = expectError(await call('PUT', `${PATH}/${t.id}`, { subjectLine: 'Hi' }), 400, 'VALIDATION_ERROR');
      expect(error.details).toEqual([{ field: 'subjectLine', message: expect.stringContaining('deliveryMethod is SMS') }]);
      expectGqlError(await gql(GQL.update, { id: t.id, input: { subjectLine: 'Hi' } }), 'VALIDATION_ERROR', 400);
      expect(expectOk(await call('PUT', `${PATH}/${t.id}`, { subjectLine: null, name: 'text 2' }))).toMatchObject({ name: 'text 2', subjectLine: null });
    });
  });

  describe('delete (archive)', () => {
    it('archives: readable by id with archivedAt, out of the list; again is 404; changes are 409', async () => {
      const t = await create({ name: 'old news', subjectLine: 'old' });
      expect(expectOk(await call('DELETE', `${PATH}/${t.id}`))).toEqual({ id: t.id, deleted: true });
      const archived = expectOk(await call('GET', `${PATH}/${t.id}`));
      expect(archived).toMatchObject({ ...t, archivedAt: expect.any(String), updatedAt: expect.any(String) });
      expect(Date.parse(archived.archivedAt)).toBeGreaterThanOrEqual(Date.parse(t.createdAt));
      expect(expectOk(await call('GET', `${PATH}?limit=100`)).map((x: { id: string }) => x.id)).not.toContain(t.id);
      expect(await server.app.services.prisma.outgoingMessageTemplate.count({ where: { simplyId: t.id } })).toBe(1);

      expectError(await call('DELETE', `${PATH}/${t.id}`), 404, 'NOT_FOUND');
      expectGqlError(await gql(GQL.delete, { id: t.id }), 'NOT_FOUND', 404);
      expectError(await call('PUT', `${PATH}/${t.id}`, { name: 'revived' }), 409, 'CONFLICT');
      expectGqlError(await gql(GQL.update, { id: t.id, input: { name: 'revived' } }), 'CONFLICT', 409);
      expect(expectOk(await call('GET', `${PATH}/${t.id}`))).toEqual(archived);
    });

    it('GraphQL deleteMessageTemplate archives and answers true', async () => {
      const t = await create({ name: 'gql delete' });
      expect(gqlData(await gql(GQL.delete, { id: t.id }))).toEqual({ deleteMessageTemplate: true });
      expect(gqlData(await gql(GQL.get, { id: t.id })).messageTemplate.archivedAt).toEqual(expect.any(String));
    });
  });

  describe('ids and teams', () => {
    it("another team's template is 404 on every route, indistinguishable from a missing one; nothing changes", async () => {
      const theirs = await create({ name: 'theirs' }, other.apiKey);
      const missing = 'mtp-2222-2222-2222';
      for (const id of [theirs.id, missing]) {
        expectError(await call('GET', `${PATH}/${id}`), 404, 'NOT_FOUND', id);
        expectError(await call('PUT', `${PATH}/${id}`, { name: 'mine now' }), 404, 'NOT_FOUND', id);
        expectError(await call('DELETE', `${PATH}/${id}`), 404, 'NOT_FOUND', id);
        expectGqlError(await gql(GQL.get, { id }), 'NOT_FOUND', 404);
        expectGqlError(await gql(GQL.update, { id, input: { name: 'mine now' } }), 'NOT_FOUND', 404);
        expectGqlError(await gql(GQL.delete, { id }), 'NOT_FOUND', 404);
      }
      expect(expectOk(await call('GET', PATH)).map((t: { id: string }) => t.id)).not.toContain(theirs.id);
      expect(expectOk(await call('GET', `${PATH}/${theirs.id}`, undefined, other.apiKey))).toEqual(theirs);
    });

    it('malformed and numeric ids are 400 naming the parameter', async () => {
      for (const id of ['123', 'whk-2222-2222-2222', 'mtp-2222-2222', 'mtp-0000-0000-0000']) {
        const error = expectError(await call('GET', `${PATH}/${id}`), 400, 'VALIDATION_ERROR', id);
        expect(error.details?.[0]?.field).toBe('outgoingMessageTemplateSimplyId');
        expectError(await call('PUT', `${PATH}/${id}`, { name: 'x' }), 400, 'VALIDATION_ERROR', id);
        expectError(await call('DELETE', `${PATH}/${id}`), 400, 'VALIDATION_ERROR', id);
        expectGqlError(await gql(GQL.get, { id }), 'VALIDATION_ERROR', 400);
      }
    });
  });

  describe('permissions (OUTGOING_MESSAGES_TEMPLATES)', () => {
    let template: { id: string };
    let noFeatureKey: string;
    let viewKey: string;
    let editKey: string;
    beforeAll(async () => {
      template = await create({ name: 'guarded' });
      const role = await createRole(server, team, { name: `settings only ${Date.now()}`, featurePermissions: [{ name: 'TEAM_SETTINGS', level: 'VIEW' }] });
      noFeatureKey = (await createApiKey(server, team, { name: 'no templates', teamRoleSimplyId: role, featurePermissions: ['TEAM_SETTINGS:VIEW'] })).key;
      viewKey = (await createApiKey(server, team, { name: 'templates view', featurePermissions: ['OUTGOING_MESSAGES_TEMPLATES:VIEW'] })).key;
      editKey = (await createApiKey(server, team, { name: 'templates edit', featurePermissions: ['OUTGOING_MESSAGES_TEMPLATES'] })).key;
    });

    const writes = () =>
      [
        ['POST', PATH, { name: 'denied' }],
        ['PUT', `${PATH}/${template.id}`, { name: 'denied' }],
        ['DELETE', `${PATH}/${template.id}`, undefined],
      ] as const;

    it('without the feature: 403 on every route, REST and GraphQL', async () => {
      for (const [method, path, body] of [['GET', PATH, undefined], ['GET', `${PATH}/${template.id}`, undefined], ...writes()] as const) {
        expectError(await call(method, path, body, noFeatureKey), 403, 'PERMISSION_DENIED', `${method} ${path}`);
      }
      expectGqlError(await gql(GQL.list, {}, noFeatureKey), 'PERMISSION_DENIED', 403);
      expectGqlError(await gql(GQL.get, { id: template.id }, noFeatureKey), 'PERMISSION_DENIED', 403);
      expectGqlError(await gql(GQL.create, { input: { name: 'denied' } }, noFeatureKey), 'PERMISSION_DENIED', 403);
    });

    it('view level reads but cannot write', async () => {
      expectOk(await call('GET', PATH, undefined, viewKey));
      expectOk(await call('GET', `${PATH}/${template.id}`, undefined, viewKey));
      for (const [method, path, body] of writes()) expectError(await call(method, path, body, viewKey), 403, 'PERMISSION_DENIED', `${method} ${path}`);
      expectGqlError(await gql(GQL.update, { id: template.id, input: { name: 'denied' } }, viewKey), 'PERMISSION_DENIED', 403);
      expectGqlError(await gql(GQL.delete, { id: template.id }, viewKey), 'PERMISSION_DENIED', 403);
      expect(expectOk(await call('GET', `${PATH}/${template.id}`))).toMatchObject({ name: 'guarded', archivedAt: null });
    });

    it('edit level writes; session tokens carry the feature they were minted with', async () => {
      const made = await create({ name: 'by edit key' }, editKey);
      expectOk(await call('PUT', `${PATH}/${made.id}`, { name: 'edited' }, editKey));

      const editing = (await mintSessionToken(server, editKey)).token;
      const byToken = await create({ name: 'by session token' }, editing);
      const row = await server.app.services.prisma.outgoingMessageTemplate.findFirstOrThrow({ where: { simplyId: byToken.id } });
      expect(row.createdByKind).toBe('SESSION_TOKEN');
      expectOk(await call('DELETE', `${PATH}/${made.id}`, undefined, editing));

      const viewing = (await mintSessionToken(server, editKey, { featurePermissions: ['OUTGOING_MESSAGES_TEMPLATES:VIEW'] })).token;
      expectOk(await call('GET', `${PATH}/${byToken.id}`, undefined, viewing));
      expectError(await call('POST', PATH, { name: 'denied' }, viewing), 403, 'PERMISSION_DENIED');
      const none = (await mintSessionToken(server, team.apiKey, { featurePermissions: ['TEAM_SETTINGS:VIEW'] })).token;
      expectError(await call('GET', PATH, undefined, none), 403, 'PERMISSION_DENIED');
    });

    it('users: a member whose role has the feature may write, one without it gets 403; no team selected is 400', async () => {
      const editors = await createRole(server, team, { name: `template editors ${Date.now()}`, featurePermissions: [{ name: 'OUTGOING_MESSAGES_TEMPLATES', level: 'EDIT' }] });
      const editor = await addMember(server, team, { teamRoleSimplyId: editors });
      const plain = await addMember(server, team);
      expect(expectOk(await call('POST', PATH, { name: 'by member' }, editor.token, team.teamSimplyId), 201)).toMatchObject({ name: 'by member' });
      expectError(await call('GET', PATH, undefined, plain.token, team.teamSimplyId), 403, 'PERMISSION_DENIED');
      expectGqlError(await gql(GQL.list, {}, plain.token, team.teamSimplyId), 'PERMISSION_DENIED', 403);
      expectError(await server.request('GET', PATH, { token: editor.token }), 400, 'VALIDATION_ERROR');
      expectError(await call('GET', PATH, undefined, ''), 401, 'UNAUTHENTICATED');
    });
  });
});
