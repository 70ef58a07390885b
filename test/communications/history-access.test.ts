// Who may read a communication history, over REST and GraphQL: records:read for scoped tokens, the
// CONSTITUENT_MESSAGE_HISTORY_VIEW feature, read access to the record (else 404, as for a record
// that does not exist), a deleted record's history for team admins only, other teams' ids 404; and
// the protected route (/communications/protected, dataRecordProtectedCommunications): signed-in
// team users only, with exact addresses, masked content, lifecycle events and attachment manifests.
import { beforeAll, describe, expect, it } from 'vitest';
import { operation } from '../../src/app/graphql/fragments.ts';
import { COMMUNICATION_PAGE, PROTECTED_COMMUNICATION_PAGE } from '../../src/modules/communications/communications.fragments.ts';
import { MASK } from '../../src/modules/communications/masking.ts';
import { recordDelivery } from '../../src/modules/communications/record-delivery.ts';
import { inTransaction } from '../../src/app/transaction.ts';
import { mintSessionToken } from '../support/credentials-fixtures.ts';
import { createCollection, type CollectionFixture } from '../support/data-fixtures.ts';
import { expectError, expectGqlError, expectOk, gqlData } from '../support/expect-envelope.ts';
import { addMember, createApiKey, createRole } from '../support/fixtures.ts';
import { createRecord } from '../support/record-fixtures.ts';
import { oauthClientsFor } from '../../src/modules/oauth/index.ts';
import { OAUTH_TEST_REDIRECT, oauthBed } from '../support/oauth-fixtures.ts';
import { useServer } from '../support/use-server.ts';
import { protectedDraft, recordIdOf, seedDeliveries } from './history-fixtures.ts';

const FEATURE = 'CONSTITUENT_MESSAGE_HISTORY_VIEW';
const GQL = {
  list: operation(['query($id: String!) { dataRecordCommunications(dataRecordSimplyId: $id) { ', ' } }'], COMMUNICATION_PAGE),
  protected: operation(
    ['query($id: String!, $limit: Int, $cursor: String, $channelId: String) { dataRecordProtectedCommunications(dataRecordSimplyId: $id, limit: $limit, cursor: $cursor, channelId: $channelId) { ', ' } }'],
    PROTECTED_COMMUNICATION_PAGE,
  ),
};

describe('communication history access', () => {
  const { server, teams: [team, other] } = useServer({ teams: 2 });
  const get = (path: string, token: string, teamId?: string) => server.request('GET', path, { token, teamId });
  const list = (record: string) => `/v1/data-records/${record}/communications`;
  const alias = (record: string) => `/v1/data-records/${record}/outgoing-messages`;
  const protectedPath = (record: string) => `/v1/data-records/${record}/communications/protected`;

  let contacts: CollectionFixture;
  let hidden: CollectionFixture;
  /** readable by the reader role; one delivery through the mailer (state moved by the mail row) and two seeded */
  let visible: string;
  let sentId: string;
  let hiddenRecord: string;
  let otherRecord: string;
  let readerKey: string;
  let noFeatureKey: string;
  let noRoleKey: string;
  let reader: { token: string };
  let readerWithoutFeature: { token: string };
  const link = 'https://app.example.test/unsubscribe?t=UNSUB-SECRET-123';

  beforeAll(async () => {
    [contacts, hidden] = await Promise.all([
      createCollection(server, team, { name: 'Contacts', formula: '{name}', fields: { name: 'PLAIN_TEXT', email: 'EMAIL_ADDRESS' } }),
      createCollection(server, team, { name: 'Hidden', formula: '{name}', fields: { name: 'PLAIN_TEXT' } }),
    ]);
    visible = (await createRecord(server, team.apiKey, contacts.id, { [contacts.fields.name!]: 'Ada' })).id;
    hiddenRecord = (await createRecord(server, team.apiKey, hidden.id, { [hidden.fields.name!]: 'Secret' })).id;
    const otherCollection = await createCollection(server, other, { name: 'Theirs', fields: { name: 'PLAIN_TEXT' } });
    otherRecord = (await createRecord(server, other.apiKey, otherCollection.id, { [otherCollection.fields.name!]: 'theirs' })).id;

    const visibleId = await recordIdOf(server, team, visible);
    const services = server.app.services;
    // as a sender does: the mail and its history row in one transaction
    sentId = await inTransaction(services.pool, async (db) => {
      const mail = await services.mail.enqueue({ teamId: team.teamId, to: ['ada@constituent.test'], subject: 'Your code 884422', text: `Code 884422, or leave: ${link}`, html: `<a href="${link.replaceAll('&', '&amp;')}">leave</a>`, source: 'SYSTEM' }, db);
      return recordDelivery(db, {
        teamId: team.teamId,
        dataRecordId: visibleId,
        sourceType: 'CONSTITUENT_AUTHENTICATION',
        channelId: 'EMAIL',
        mailMessageId: mail.id,
        destination: 'ada@constituent.test',
        senderAddress: 'no-reply@team.test',
        subject: 'Your code 884422',
        text: `Code 884422, or leave: ${link}`,
        html: `<a href="${link.replaceAll('&', '&amp;')}">leave</a>`,
        attachments: [{ fileSimplyId: 'fil-2222-3333-4444', versionNumber: 3, filename: 'terms.pdf', contentType: 'application/pdf', sizeBytes: 52_000 }],
        secrets: ['884422'],
      });
    });
    // the mail is sent, then the receiving side reports delivery: the trigger moves the history row
    await services.pool.query(`UPDATE "MailMessage" SET status = 'SENT' WHERE "teamId" = $1 AND "sourceId" IS NULL AND source = 'SYSTEM'`, [team.teamId]);
    await services.pool.query(`UPDATE "MailMessage" SET "feedbackState" = 'DELIVERED', "feedbackDetail" = '250 ok' WHERE "teamId" = $1 AND source = 'SYSTEM'`, [team.teamId]);
    await seedDeliveries(server, [protectedDraft(team.teamId, visibleId, 'v1', { channelId: 'SMS', subject: null, html: null, attachments: [] }), protectedDraft(team.teamId, visibleId, 'v2')]);
    await seedDeliveries(server, [protectedDraft(team.teamId, await recordIdOf(server, team, hiddenRecord), 'h1')]);

    const readerRole = await createRole(server, team, {
      name: 'History readers',
      dataPermissions: [{ dataCollectionSimplyId: contacts.id, level: 'READ' }],
      featurePermissions: [{ name: FEATURE, level: 'VIEW' }],
    });
    const dataOnlyRole = await createRole(server, team, { name: 'Contacts only', dataPermissions: [{ dataCollectionSimplyId: contacts.id, level: 'READ' }] });
    [readerKey, noFeatureKey, noRoleKey] = await Promise.all([
      createApiKey(server, team, { name: 'history reader', teamRoleSimplyId: readerRole, featurePermissions: [`${FEATURE}:VIEW`] }).then((k) => k.key),
      createApiKey(server, team, { name: 'no history feature', teamRoleSimplyId: readerRole, featurePermissions: [] }).then((k) => k.key),
      createApiKey(server, team, { name: 'no role', featurePermissions: [`${FEATURE}:VIEW`] }).then((k) => k.key),
    ]);
    reader = await addMember(server, team, { teamRoleSimplyId: readerRole });
    readerWithoutFeature = await addMember(server, team, { teamRoleSimplyId: dataOnlyRole });
  });

  describe('the list (and its alias)', () => {
    it('is readable with the feature and read access to the record: API key, session token, signed-in member', async () => {
      const session = (await mintSessionToken(server, readerKey)).token;
      for (const [label, token, teamId] of [
        ['key', readerKey, undefined],
        ['session token', session, undefined],
        ['member', reader.token, team.teamSimplyId],
        ['team admin', team.userToken, team.teamSimplyId],
      ] as const) {
        for (const path of [list(visible), alias(visible)]) expect(expectOk(await get(path, token, teamId)), `${label} ${path}`).toHaveLength(3);
        expect(gqlData(await server.graphql(GQL.list, { id: visible }, { token, teamId })).dataRecordCommunications.nodes, label).toHaveLength(3);
      }
    });

    it('without CONSTITUENT_MESSAGE_HISTORY_VIEW: 403 PERMISSION_DENIED (keys, session tokens, members)', async () => {
      const narrowed = (await mintSessionToken(server, readerKey, { featurePermissions: [] })).token;
      for (const [label, token, teamId] of [
        ['key', noFeatureKey, undefined],
        ['session token without the feature', narrowed, undefined],
        ['member', readerWithoutFeature.token, team.teamSimplyId],
      ] as const) {
        expectError(await get(list(visible), token, teamId), 403, 'PERMISSION_DENIED', label);
        expectError(await get(alias(visible), token, teamId), 403, 'PERMISSION_DENIED', label);
        expectGqlError(await server.graphql(GQL.list, { id: visible }, { token, teamId }), 'PERMISSION_DENIED', 403);
      }
    });

    it('a session token without records:read, or a credential without a team role: 403 PERMISSION_DENIED', async () => {
      const noScope = (await mintSessionToken(server, readerKey, { oauthScopes: ['schema:read'] })).token;
      expectError(await get(list(visible), noScope), 403, 'PERMISSION_DENIED');
      expectError(await get(list(visible), noRoleKey), 403, 'PERMISSION_DENIED');
    });

    it('a record the credential cannot read, a missing one and another team’s: 404, indistinguishable', async () => {
      const bodies: string[] = [];
      for (const [label, path, token] of [
        ['unreadable collection', list(hiddenRecord), readerKey],
        ['unreadable collection (alias)', alias(hiddenRecord), readerKey],
        ['missing', list('ZZZZ-ZZZZ-ZZZZ'), readerKey],
        ['another team’s', list(otherRecord), team.apiKey],
        ['ours, with their key', list(visible), other.apiKey],
      ] as const) {
        const error = expectError(await get(path, token), 404, 'NOT_FOUND', label);
        bodies.push(error.message.replace(/\S+-\S+-\S+ /, ''));
      }
      expect(new Set(bodies).size).toBe(1);
      expectGqlError(await server.graphql(GQL.list, { id: hiddenRecord }, { token: readerKey }), 'NOT_FOUND', 404);
      expectGqlError(await server.graphql(GQL.list, { id: otherRecord }, { token: team.apiKey }), 'NOT_FOUND', 404);
      // an admin reads every collection of the team
      expect(expectOk(await get(list(hiddenRecord), team.userToken, team.teamSimplyId))).toHaveLength(1);
    });

    it('401 without a credential; 400 for a user without a selected team; 403 in a team they are not in', async () => {
      expectError(await server.request('GET', list(visible)), 401, 'UNAUTHENTICATED');
      expectError(await get(list(visible), team.userToken), 400, 'VALIDATION_ERROR');
      expectError(await get(list(visible), team.userToken, other.teamSimplyId), 403, 'PERMISSION_DENIED');
    });
  });

  describe('the protected route', () => {
    it('answers a signed-in team user the exact addresses, the masked content, the lifecycle in order and the attachment manifest', async () => {
      for (const [token, label] of [[team.userToken, 'admin'], [reader.token, 'member with the feature']] as const) {
        const res = await get(protectedPath(visible), token, team.teamSimplyId);
        const items = expectOk(res);
        expect(items, label).toHaveLength(3);
        const sent = items.find((i: { id: string }) => i.id === sentId);
        expect(sent).toMatchObject({
          constituentSimplyId: visible,
          sourceType: 'CONSTITUENT_AUTHENTICATION',
          currentStateId: 'DELIVERED',
          sensitivity: 'SENSITIVE',
          attachmentCount: 1,
          destination: 'ada@constituent.test',
          senderAddress: 'no-reply@team.test',
          renderedSubject: `Your code ${MASK}`,
          renderedText: `Code ${MASK}, or leave: https://app.example.test/unsubscribe?t=${MASK}`,
          renderedHtml: `<a href="https://app.example.test/unsubscribe?t=${MASK}">leave</a>`,
          attachments: [{ fileSimplyId: 'fil-2222-3333-4444', versionNumber: 3, filename: 'terms.pdf', contentType: 'application/pdf', sizeBytes: 52_000 }],
        });
        expect(sent.events.map((e: { stateId: string }) => e.stateId)).toEqual(['QUEUED', 'SENT', 'DELIVERED']);
        expect(sent.events[2].detail).toBe('250 ok');
        expect(JSON.stringify(res.body)).not.toMatch(/884422|UNSUB-SECRET/);
        expect(res.body.meta).toMatchObject({ recordState: 'ACTIVE', requestedDataRecordSimplyId: visible, nextCursor: null });
      }
      // what the database keeps is the masked text: nothing to unmask later
      const stored = await server.app.services.pool.query(`SELECT "renderedSubject", "renderedText", "renderedHtml" FROM "ConstituentMessageDelivery" WHERE "simplyId" = $1`, [sentId]);
      expect(JSON.stringify(stored.rows)).not.toMatch(/884422|UNSUB-SECRET/);
    });

    it('pages and filters as the list does, over REST and GraphQL', async () => {
      const first = await get(`${protectedPath(visible)}?limit=2`, team.userToken, team.teamSimplyId);
      const second = await get(`${protectedPath(visible)}?limit=2&cursor=${first.body.meta.nextCursor}`, team.userToken, team.teamSimplyId);
      const ids = [...expectOk(first), ...expectOk(second)].map((i: { id: string }) => i.id);
      const listed = expectOk(await get(list(visible), team.apiKey)).map((i: { id: string }) => i.id);
      expect(ids).toEqual(listed);
      expect(second.body.meta.nextCursor).toBeNull();
      const sms = gqlData(await server.graphql(GQL.protected, { id: visible, channelId: 'SMS' }, { token: team.userToken, teamId: team.teamSimplyId }));
      expect(sms.dataRecordProtectedCommunications.nodes).toEqual([expect.objectContaining({ channelId: 'SMS', renderedText: 'TEXT-MARK-v1', destination: 'dest-v1@constituent.test' })]);
      expectError(await get(`${protectedPath(visible)}?cursor=nope`, team.userToken, team.teamSimplyId), 400, 'VALIDATION_ERROR');
    });

    it('refuses API keys and session tokens with 403 PROTECTED_HISTORY_AUTH_REQUIRED, even with the permission', async () => {
      const session = (await mintSessionToken(server, team.apiKey)).token;
      for (const [label, token] of [['full-access key', team.apiKey], ['reader key', readerKey], ['key without the feature', noFeatureKey], ['session token', session]] as const) {
        expectError(await get(protectedPath(visible), token), 403, 'PROTECTED_HISTORY_AUTH_REQUIRED', label);
        expectGqlError(await server.graphql(GQL.protected, { id: visible }, { token }), 'PROTECTED_HISTORY_AUTH_REQUIRED', 403);
      }
      expectError(await server.request('GET', protectedPath(visible)), 401, 'UNAUTHENTICATED');
    });

    it('answers an allowlisted first-party native client (with records:read), and refuses other OAuth clients', async () => {
      const bed = await oauthBed(server);
      const admin = { token: team.userToken, teamId: team.teamSimplyId };
      const native = await oauthClientsFor(server.app.services).registerClient({ name: 'Our app', redirectUris: [OAUTH_TEST_REDIRECT], firstParty: true, allowances: ['team-assistant'] });
      const nativeClient = { client_id: native.clientId, token_endpoint_auth_method: 'none' };
      const allowed = (await bed.tokensFor(nativeClient, 'records:read', admin)).access_token;
      expect(expectOk(await get(protectedPath(visible), allowed))).toHaveLength(3);
      const withoutScope = (await bed.tokensFor(nativeClient, 'schema:read', admin)).access_token;
      expectError(await get(protectedPath(visible), withoutScope), 403, 'PERMISSION_DENIED');
      const integration = (await bed.tokensFor(await bed.registerClient(), 'records:read', admin)).access_token;
      expectError(await get(protectedPath(visible), integration), 403, 'PROTECTED_HISTORY_AUTH_REQUIRED');
    });

    it('a signed-in member still needs the feature and read access to the record', async () => {
      expectError(await get(protectedPath(visible), readerWithoutFeature.token, team.teamSimplyId), 403, 'PERMISSION_DENIED');
      expectGqlError(await server.graphql(GQL.protected, { id: visible }, { token: readerWithoutFeature.token, teamId: team.teamSimplyId }), 'PERMISSION_DENIED', 403);
      expectError(await get(protectedPath(hiddenRecord), reader.token, team.teamSimplyId), 404, 'NOT_FOUND');
      expectError(await get(protectedPath(otherRecord), team.userToken, team.teamSimplyId), 404, 'NOT_FOUND');
      expectError(await get(protectedPath(visible), other.userToken, other.teamSimplyId), 404, 'NOT_FOUND');
    });
  });

  describe('a deleted record', () => {
    it('keeps its history, readable by team admins only (everyone else: 404)', async () => {
      const gone = (await createRecord(server, team.apiKey, contacts.id, { [contacts.fields.name!]: 'Gone' })).id;
      const goneId = await recordIdOf(server, team, gone);
      const ids = await seedDeliveries(server, [protectedDraft(team.teamId, goneId, 'g1'), protectedDraft(team.teamId, goneId, 'g2')]);
      expectOk(await server.request('DELETE', `/v1/data-records/${gone}`, { token: team.apiKey }));
      expectError(await get(`/v1/data-records/${gone}`, team.apiKey), 404, 'NOT_FOUND');

      const admin = await get(list(gone), team.userToken, team.teamSimplyId);
      expect(expectOk(admin).map((i: { id: string }) => i.id)).toEqual([...ids].reverse());
      expect(admin.body.meta).toMatchObject({ recordState: 'DELETED', requestedDataRecordSimplyId: gone, survivingDataRecordSimplyId: gone });
      const snapshot = await get(protectedPath(gone), team.userToken, team.teamSimplyId);
      expect(expectOk(snapshot)[0]).toMatchObject({ destination: 'dest-g2@constituent.test' });
      expect(snapshot.body.meta.recordState).toBe('DELETED');
      expect(gqlData(await server.graphql(GQL.list, { id: gone }, { token: team.userToken, teamId: team.teamSimplyId })).dataRecordCommunications.recordState).toBe('DELETED');

      for (const [label, token, teamId] of [
        ['full-access key (not a team admin)', team.apiKey, undefined],
        ['reader key', readerKey, undefined],
        ['member with the feature', reader.token, team.teamSimplyId],
      ] as const) {
        expectError(await get(list(gone), token, teamId), 404, 'NOT_FOUND', label);
        expectError(await get(alias(gone), token, teamId), 404, 'NOT_FOUND', label);
      }
      expectError(await get(protectedPath(gone), reader.token, team.teamSimplyId), 404, 'NOT_FOUND');
      // another team's admin cannot reach it either
      expectError(await get(list(gone), other.userToken, other.teamSimplyId), 404, 'NOT_FOUND');
    });
  });
});
