// Who may do what: TEAM_ADMIN_CONTENT_TEMPLATE_LIBRARY (view reads, edit writes) for message
// templates and the library list; the data permission on a document template's collection (read:
// view and preview; edit: create, update, archive, copy into, assign); PERSONAL templates seen
// only by their owner and team admins.
import { beforeAll, describe, expect, it } from 'vitest';
import { mintSessionToken } from '../support/credentials-fixtures.ts';
import { createCollection, type CollectionFixture } from '../support/data-fixtures.ts';
import { expectError, expectGqlError, expectOk, gqlData } from '../support/expect-envelope.ts';
import { addMember, createApiKey, createRole, createTeam } from '../support/fixtures.ts';
import { createRecord } from '../support/record-fixtures.ts';
import { restCaller } from '../support/rest-caller.ts';
import { useServer } from '../support/use-server.ts';
import { createTemplate, documentBody, GQL, inCollection, messageBody, one, PATH } from './template-fixtures.ts';

const LIBRARY = 'TEAM_ADMIN_CONTENT_TEMPLATE_LIBRARY';

describe('content template permissions', () => {
  const { server, teams: [team] } = useServer({ teams: 1 });
  const call = restCaller(() => server, () => team.apiKey);
  let a: CollectionFixture;
  let b: CollectionFixture;
  let record: string;
  let message: { id: string };
  let docA: { id: string };
  let docB: { id: string };
  const keys: Record<string, string> = {};

  beforeAll(async () => {
    a = await createCollection(server, team, { name: 'A', fields: { first_name: 'PLAIN_TEXT' } });
    b = await createCollection(server, team, { name: 'B', fields: { first_name: 'PLAIN_TEXT' } });
    record = (await createRecord(server, team.apiKey, a.id, { [a.fields.first_name!]: 'Ada' })).id;
    message = await createTemplate(call, messageBody());
    docA = await createTemplate(call, documentBody(a.id, { name: 'doc A' }));
    docB = await createTemplate(call, documentBody(b.id, { name: 'doc B' }));
    const readA = await createRole(server, team, { name: 'read A', dataPermissions: [{ dataCollectionSimplyId: a.id, level: 'READ' }] });
    const editA = await createRole(server, team, { name: 'edit A', dataPermissions: [{ dataCollectionSimplyId: a.id, level: 'EDIT' }] });
    keys.none = (await createApiKey(server, team, { name: 'nothing', featurePermissions: ['TEAM_SETTINGS:VIEW'] })).key;
    keys.libView = (await createApiKey(server, team, { name: 'library view', featurePermissions: [`${LIBRARY}:VIEW`] })).key;
    keys.libEdit = (await createApiKey(server, team, { name: 'library edit', featurePermissions: [LIBRARY] })).key;
    keys.readA = (await createApiKey(server, team, { name: 'read A', teamRoleSimplyId: readA, featurePermissions: [] })).key;
    keys.editA = (await createApiKey(server, team, { name: 'edit A', teamRoleSimplyId: editA, featurePermissions: [] })).key;
    keys.libViewReadA = (await createApiKey(server, team, { name: 'library view, read A', teamRoleSimplyId: readA, featurePermissions: [`${LIBRARY}:VIEW`] })).key;
  });

  describe('message templates and the library (the feature)', () => {
    const reads = () => [
      ['GET', PATH, undefined],
      ['GET', one(message.id), undefined],
      ['GET', `${one(message.id)}/readiness`, undefined],
      ['GET', `${one(message.id)}/usage`, undefined],
    ] as const;
    const writes = () => [
      ['POST', PATH, messageBody()],
      ['PATCH', one(message.id), { name: 'denied' }],
      ['POST', `${one(message.id)}/copy`, {}],
      ['DELETE', one(message.id), undefined],
    ] as const;

    it('without the feature: 403 on every route, REST and GraphQL (a data role does not help)', async () => {
      for (const token of [keys.none!, keys.readA!, keys.editA!]) {
        for (const [method, path, body] of [...reads(), ...writes()]) expectError(await call(method, path, body, token), 403, 'PERMISSION_DENIED', `${method} ${path}`);
      }
      expectError(await call('POST', `${one(message.id)}/preview-render`, { dataRecordSimplyId: record }, keys.readA), 403, 'PERMISSION_DENIED');
      expectGqlError(await server.graphql(GQL.list, {}, { token: keys.none }), 'PERMISSION_DENIED', 403);
      expectGqlError(await server.graphql(GQL.get, { id: message.id }, { token: keys.none }), 'PERMISSION_DENIED', 403);
      expectGqlError(await server.graphql(GQL.create, { input: messageBody() }, { token: keys.editA }), 'PERMISSION_DENIED', 403);
    });

    it('view level reads (preview included, with a readable record) but cannot write', async () => {
      for (const [method, path, body] of reads()) expectOk(await call(method, path, body, keys.libView));
      for (const [method, path, body] of writes()) expectError(await call(method, path, body, keys.libView), 403, 'PERMISSION_DENIED', `${method} ${path}`);
      // the record must still be readable by the caller: a key without a data role gets 404
      expectError(await call('POST', `${one(message.id)}/preview-render`, { dataRecordSimplyId: record }, keys.libView), 404, 'NOT_FOUND');
      expectOk(await call('POST', `${one(message.id)}/preview-render`, { dataRecordSimplyId: record }, keys.libViewReadA));
      expectGqlError(await server.graphql(GQL.update, { id: message.id, input: { name: 'denied' } }, { token: keys.libView }), 'PERMISSION_DENIED', 403);
      expect(expectOk(await call('GET', one(message.id))).name).toBe('Welcome');
    });

    it('edit level writes; session tokens carry the level they were minted with', async () => {
      const made = await createTemplate(call, messageBody({ name: 'by edit key' }), keys.libEdit);
      expectOk(await call('PATCH', one(made.id), { name: 'edited' }, keys.libEdit));
      expectOk(await call('POST', `${one(made.id)}/copy`, {}, keys.libEdit), 201);
      const viewing = (await mintSessionToken(server, keys.libEdit!, { featurePermissions: [`${LIBRARY}:VIEW`] })).token;
      expectOk(await call('GET', one(made.id), undefined, viewing));
      expectError(await call('DELETE', one(made.id), undefined, viewing), 403, 'PERMISSION_DENIED');
      const editing = (await mintSessionToken(server, keys.libEdit!)).token;
      expectOk(await call('DELETE', one(made.id), undefined, editing));
      const row = await server.app.services.prisma.contentTemplate.findFirstOrThrow({ where: { simplyId: made.id } });
      expect(row.createdByKind).toBe('API_KEY');
    });

    it('the library lists document templates only of collections the caller may read', async () => {
      const ids = (expectOk(await call('GET', `${PATH}?limit=100`, undefined, keys.libViewReadA)) as { id: string }[]).map((t) => t.id);
      expect(ids).toEqual(expect.arrayContaining([message.id, docA.id]));
      expect(ids).not.toContain(docB.id);
      const all = (expectOk(await call('GET', `${PATH}?limit=100`)) as { id: string }[]).map((t) => t.id);
      expect(all).toEqual(expect.arrayContaining([message.id, docA.id, docB.id]));
    });
  });

  describe('document templates (the data permission on the collection)', () => {
    it('read access: read, readiness, usage, preview, the collection listing; no writes', async () => {
      for (const path of [one(docA.id), `${one(docA.id)}/readiness`, `${one(docA.id)}/usage`, inCollection(a.id)]) expectOk(await call('GET', path, undefined, keys.readA));
      expectOk(await call('POST', `${one(docA.id)}/preview-render`, { dataRecordSimplyId: record }, keys.readA));
      for (const [method, path, body] of [
        ['POST', PATH, documentBody(a.id)],
        ['PATCH', one(docA.id), { name: 'denied' }],
        ['DELETE', one(docA.id), undefined],
        ['POST', `${one(docA.id)}/copy`, {}],
        ['POST', `${inCollection(a.id)}/link`, { contentTemplateSimplyId: docA.id }],
      ] as const) {
        expectError(await call(method, path, body, keys.readA), 403, 'PERMISSION_DENIED', `${method} ${path}`);
      }
      expect(gqlData(await server.graphql(GQL.get, { id: docA.id }, { token: keys.readA })).contentTemplate.id).toBe(docA.id);
      expectGqlError(await server.graphql(GQL.update, { id: docA.id, input: { name: 'x' } }, { token: keys.readA }), 'PERMISSION_DENIED', 403);
    });

    it("a collection the caller cannot read: its templates and listing are 403; the library feature does not open them", async () => {
      for (const token of [keys.readA, keys.editA, keys.libEdit]) {
        for (const path of [one(docB.id), `${one(docB.id)}/readiness`, inCollection(b.id)]) expectError(await call('GET', path, undefined, token), 403, 'PERMISSION_DENIED', path);
      }
      expectGqlError(await server.graphql(GQL.collection, { id: b.id }, { token: keys.readA }), 'PERMISSION_DENIED', 403);
    });

    it('edit access: create, update, archive, copy within A; copying or linking to B is 403', async () => {
      const t = await createTemplate(call, documentBody(a.id), keys.editA);
      expectOk(await call('PATCH', one(t.id), { designHtml: '<p>x</p>' }, keys.editA));
      const copy = expectOk(await call('POST', `${one(t.id)}/copy`, {}, keys.editA), 201);
      expectOk(await call('POST', `${inCollection(a.id)}/link`, { contentTemplateSimplyId: copy.id }, keys.editA));
      expectError(await call('POST', `${one(t.id)}/copy`, { dataCollectionSimplyId: b.id }, keys.editA), 403, 'PERMISSION_DENIED');
      expectError(await call('POST', `${inCollection(b.id)}/link`, { contentTemplateSimplyId: t.id }, keys.editA), 403, 'PERMISSION_DENIED');
      // and out of B into A: edit on B is needed too
      expectError(await call('POST', `${inCollection(a.id)}/link`, { contentTemplateSimplyId: docB.id }, keys.editA), 403, 'PERMISSION_DENIED');
      expectError(await call('POST', PATH, documentBody(b.id), keys.editA), 403, 'PERMISSION_DENIED');
      expectOk(await call('DELETE', one(t.id), undefined, keys.editA));
      expect(expectOk(await call('GET', one(docB.id))).dataCollectionSimplyId).toBe(b.id);
    });
  });

  describe('PERSONAL templates', () => {
    let ownerToken: string;
    let peerToken: string;
    let ownerLink: string;
    let peerLink: string;
    beforeAll(async () => {
      const editA = await createRole(server, team, { name: 'personal editors', dataPermissions: [{ dataCollectionSimplyId: a.id, level: 'EDIT' }], featurePermissions: [{ name: LIBRARY, level: 'VIEW' }] });
      const owner = await addMember(server, team, { teamRoleSimplyId: editA });
      const peer = await addMember(server, team, { teamRoleSimplyId: editA });
      ownerToken = owner.token;
      peerToken = peer.token;
      const links = await server.app.services.prisma.teamMembership.findMany({ where: { teamId: team.teamId }, include: { user: true } });
      ownerLink = links.find((l) => l.user.simplyId === owner.userSimplyId)!.simplyId;
      peerLink = links.find((l) => l.user.simplyId === peer.userSimplyId)!.simplyId;
    });
    const as = (token: string) => (method: string, path: string, body?: unknown) => call(method, path, body, token, team.teamSimplyId);

    it("a member's PERSONAL template: theirs to use; other members and API keys get 404 and never see it listed; team admins see it", async () => {
      const owner = as(ownerToken);
      const peer = as(peerToken);
      const t = expectOk(await owner('POST', PATH, documentBody(a.id, { name: 'my draft', templateScope: 'PERSONAL' })), 201);
      expect(t).toMatchObject({ templateScope: 'PERSONAL', ownerTeamUserLinkSimplyId: ownerLink });
      expectOk(await owner('PATCH', one(t.id), { name: 'my draft 2' }));
      expectOk(await owner('GET', `${one(t.id)}/readiness`));
      for (const [method, path, body] of [
        ['GET', one(t.id), undefined],
        ['PATCH', one(t.id), { name: 'taken' }],
        ['DELETE', one(t.id), undefined],
        ['GET', `${one(t.id)}/usage`, undefined],
        ['POST', `${one(t.id)}/preview-render`, { dataRecordSimplyId: record }],
        ['POST', `${one(t.id)}/copy`, {}],
        ['POST', `${inCollection(a.id)}/link`, { contentTemplateSimplyId: t.id }],
      ] as const) {
        expectError(await peer(method, path, body), 404, 'NOT_FOUND', `peer ${method} ${path}`);
        expectError(await call(method, path, body), 404, 'NOT_FOUND', `api key ${method} ${path}`);
      }
      const listed = async (fn: ReturnType<typeof as>, path: string) => (expectOk(await fn('GET', path)) as { id: string }[]).map((x) => x.id);
      expect(await listed(owner, inCollection(a.id))).toContain(t.id);
      expect(await listed(owner, `${PATH}?limit=100`)).toContain(t.id);
      expect(await listed(peer, inCollection(a.id))).not.toContain(t.id);
      expect(await listed(peer, `${PATH}?limit=100`)).not.toContain(t.id);
      expect(await listed((m, p, bd) => call(m, p, bd), `${PATH}?limit=100`)).not.toContain(t.id);
      const admin = as(team.userToken);
      expect(await listed(admin, inCollection(a.id))).toContain(t.id);
      expectOk(await admin('PATCH', one(t.id), { description: 'seen by the admin' }));
      expect(gqlData(await server.graphql(GQL.get, { id: t.id }, { token: ownerToken, teamId: team.teamSimplyId })).contentTemplate.description).toBe('seen by the admin');
      expectGqlError(await server.graphql(GQL.get, { id: t.id }, { token: peerToken, teamId: team.teamSimplyId }), 'NOT_FOUND', 404);
    });

    it('ownerTeamUserLinkSimplyId: a team admin may name any active member; others 403; unknown or another team\'s member 404; API keys cannot own one', async () => {
      const admin = as(team.userToken);
      const forPeer = expectOk(await admin('POST', PATH, documentBody(a.id, { templateScope: 'PERSONAL', ownerTeamUserLinkSimplyId: peerLink })), 201);
      expect(forPeer.ownerTeamUserLinkSimplyId).toBe(peerLink);
      expectOk(await as(peerToken)('GET', one(forPeer.id)));
      expectError(await as(ownerToken)('GET', one(forPeer.id)), 404, 'NOT_FOUND');
      expectError(await as(ownerToken)('POST', PATH, documentBody(a.id, { templateScope: 'PERSONAL', ownerTeamUserLinkSimplyId: peerLink })), 403, 'PERMISSION_DENIED');
      const elsewhere = await createTeam(server);
      const foreign = await server.app.services.prisma.teamMembership.findFirstOrThrow({ where: { teamId: elsewhere.teamId } });
      for (const link of [foreign.simplyId, 'tul-2222-2222-2222']) {
        expectError(await admin('POST', PATH, documentBody(a.id, { templateScope: 'PERSONAL', ownerTeamUserLinkSimplyId: link })), 404, 'NOT_FOUND', link);
      }
      const error = expectError(await call('POST', PATH, documentBody(a.id, { templateScope: 'PERSONAL' })), 400, 'VALIDATION_ERROR');
      expect(error.details?.[0]?.field).toBe('templateScope');
    });
  });
});
