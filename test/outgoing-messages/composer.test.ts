// Composing over REST and GraphQL: create, read (every standard read), change a draft, the
// validation 400s, recipient selection (collection, view, filters, email field), the read and
// compose tiers, other teams' ids, send-readiness blockers and warnings, and the message settings.
// No workers run here (a database of the file's own keeps other files' workers off its jobs).
import { beforeAll, describe, expect, it } from 'vitest';
import { mintSessionToken } from '../support/credentials-fixtures.ts';
import { expectError, expectGqlError, expectOk, gqlData } from '../support/expect-envelope.ts';
import { addMember, createApiKey, createTeam } from '../support/fixtures.ts';
import { restCaller } from '../support/rest-caller.ts';
import { useServer } from '../support/use-server.ts';
import type { CollectionFixture } from '../support/data-fixtures.ts';
import { addPeople, addSender, createDraft, createPeople, draftBody, GQL, MSG_ID, PATH, type SenderFixture } from './message-fixtures.ts';

const DETAIL_KEYS = [
  'approvedAt', 'approvedBy', 'contentType', 'createdAt', 'deliveryMethod', 'errorMessage', 'htmlContent', 'id', 'internalName', 'recipients', 'scheduledAt',
  'sendStartedAt', 'sender', 'sentAt', 'status', 'subjectLine', 'textContent', 'totalRecipients', 'updatedAt',
];
const MESSAGE_KEYS = ['contentType', 'deliveryMethod', 'id', 'internalName', 'scheduledAt', 'sentAt', 'status', 'subjectLine'];
const SUMMARY_KEYS = [...MESSAGE_KEYS, 'createdAt', 'totalRecipients', 'updatedAt'].sort();
const future = (minutes = 60) => new Date(Date.now() + minutes * 60_000).toISOString();

describe('outgoing messages: composing and reading', () => {
  const { server, teams: [team, other] } = useServer({ teams: 2, ownDatabase: 'outgoing_composer' });
  const call = restCaller(() => server, () => team.apiKey);
  const gql = (query: string, variables: Record<string, unknown> = {}, token = team.apiKey, teamId?: string) => server.graphql(query, variables, { token, teamId });
  let people: CollectionFixture;
  let sender: SenderFixture;
  let theirPeople: CollectionFixture;
  let theirSender: SenderFixture;

  beforeAll(async () => {
    sender = await addSender(server, team);
    people = await createPeople(server, team);
    await addPeople(server, team, people, [
      { first_name: 'Ada', email: 'ada@example.test', city: 'London' },
      { first_name: 'Grace', email: 'grace@example.test', city: 'Arlington' },
      { first_name: 'Alan', city: 'Wilmslow' },
      { first_name: 'Ada again', email: 'ADA@example.test', city: 'London' },
    ]);
    theirSender = await addSender(server, other);
    theirPeople = await createPeople(server, other);
  });

  describe('create and read', () => {
    it('creates a DRAFT with content, sender and recipients; every read shows it', async () => {
      const created = await createDraft(server, team.apiKey, draftBody(people, { messageSenderSimplyId: sender.id, scheduledAt: future() }));
      expect(Object.keys(created).sort()).toEqual(DETAIL_KEYS);
      expect(created.id).toMatch(MSG_ID);
      expect(created).toMatchObject({
        internalName: 'Spring newsletter',
        subjectLine: 'Hello {{first_name}}',
        deliveryMethod: 'EMAIL',
        contentType: 'HTML',
        status: 'DRAFT',
        sender: { id: sender.id, name: 'Riverside Clinic', emailAddress: sender.emailAddress },
        recipients: { dataCollectionSimplyId: people.id, dataViewSimplyId: null, filters: [], emailFieldSimplyId: people.fields.email },
        sentAt: null,
        sendStartedAt: null,
        approvedAt: null,
        approvedBy: null,
        errorMessage: null,
        totalRecipients: 0,
      });
      expect(expectOk(await call('GET', `${PATH}/${created.id}`))).toEqual(created);
      const message = expectOk(await call('GET', `/v1/messages/${created.id}`));
      expect(Object.keys(message).sort()).toEqual(MESSAGE_KEYS);
      expect(message).toEqual(Object.fromEntries(MESSAGE_KEYS.map((k) => [k, created[k]])));
      expect(expectOk(await call('GET', `/v1/messages/${created.id}/status`))).toEqual({ status: 'DRAFT', totalRecipients: 0, delivered: 0, bounced: 0, complained: 0 });
      const stats = expectOk(await call('GET', `${PATH}/${created.id}/stats`));
      expect(stats).toEqual({
        totalRecipients: 0, pending: 0, queued: 0, sent: 0, delivered: 0, bounced: 0, complained: 0, failed: 0, suppressed: 0, attempted: 0,
        deliveryRate: 0, bounceRate: 0, complaintRate: 0,
      });
      // GraphQL reads the same
      expect(gqlData(await gql(GQL.one, { id: created.id })).outgoingMessage).toEqual(created);
      expect(gqlData(await gql(GQL.message, { id: created.id })).message).toEqual(message);
      expect(gqlData(await gql(GQL.status, { id: created.id })).messageStatus.status).toBe('DRAFT');
      expect(gqlData(await gql(GQL.stats, { id: created.id })).outgoingMessageStats).toEqual(stats);
    });

    it('defaults: EMAIL, HTML, nothing else set; GraphQL creates the same', async () => {
      const minimal = await createDraft(server, team.apiKey, { internalName: '  Bare  ' });
      expect(minimal).toMatchObject({ internalName: 'Bare', deliveryMethod: 'EMAIL', contentType: 'HTML', subjectLine: null, textContent: null, htmlContent: null, sender: null, recipients: null, scheduledAt: null });
      const viaGql = gqlData(await gql(GQL.create, { input: { internalName: 'by graphql', deliveryMethod: 'SMS', contentType: 'PLAIN_TEXT', textContent: 'Hi {{first_name}}' } })).createOutgoingMessage;
      expect(viaGql).toMatchObject({ internalName: 'by graphql', deliveryMethod: 'SMS', contentType: 'PLAIN_TEXT', textContent: 'Hi {{first_name}}', status: 'DRAFT' });
      expectGqlError(await gql(GQL.create, { input: { internalName: '' } }), 'VALIDATION_ERROR', 400);
    });

    it('lists newest first with status and deliveryMethod filters; the sent list; paging limits', async () => {
      const t = await createTeam(server);
      const a = await createDraft(server, t.apiKey, { internalName: 'a' });
      const b = await createDraft(server, t.apiKey, { internalName: 'b', deliveryMethod: 'SMS' });
      const list = await server.request('GET', `${PATH}?limit=1`, { token: t.apiKey });
      expect(expectOk(list).map((m: any) => m.id)).toEqual([b.id]);
      expect(list.body.meta.pagination).toEqual({ total: 2, limit: 1, offset: 0, hasMore: true });
      expect(Object.keys(expectOk(list)[0]).sort()).toEqual(SUMMARY_KEYS);
      const messages = expectOk(await server.request('GET', '/v1/messages', { token: t.apiKey }));
      expect(messages.map((m: any) => m.id)).toEqual([b.id, a.id]);
      expect(Object.keys(messages[0]).sort()).toEqual(MESSAGE_KEYS);
      expect(expectOk(await server.request('GET', '/v1/messages?deliveryMethod=SMS', { token: t.apiKey })).map((m: any) => m.id)).toEqual([b.id]);
      expect(expectOk(await server.request('GET', `${PATH}?status=DRAFT&deliveryMethod=EMAIL`, { token: t.apiKey })).map((m: any) => m.id)).toEqual([a.id]);
      expect(expectOk(await server.request('GET', '/v1/messages?status=SENT', { token: t.apiKey }))).toEqual([]);
      expect(expectOk(await server.request('GET', `${PATH}/sent`, { token: t.apiKey }))).toEqual([]);
      expect(gqlData(await gql(GQL.messages, { status: 'DRAFT' }, t.apiKey)).messages.pagination.total).toBe(2);
      expect(gqlData(await gql(GQL.sent, {}, t.apiKey)).sentOutgoingMessages).toEqual({ nodes: [], pagination: { total: 0 } });
      for (const query of ['status=PAUSED', 'deliveryMethod=PIGEON', 'limit=0', 'limit=101', 'offset=-1']) {
        for (const path of ['/v1/messages', PATH]) expectError(await server.request('GET', `${path}?${query}`, { token: t.apiKey }), 400, 'VALIDATION_ERROR', `${path}?${query}`);
      }
      expectError(await server.request('GET', `${PATH}/sent?deliveryMethod=PIGEON`, { token: t.apiKey }), 400, 'VALIDATION_ERROR');
    });

    it('narrows recipients by a view of the collection and record-search filters', async () => {
      const view = expectOk(
        await call('POST', '/v1/data-views', {
          dataCollectionSimplyId: people.id,
          name: 'Londoners',
          enumDataViewTypeId: 'TABLE',
          config: { filters: [{ field: people.fields.city, operator: 'eq', value: 'London' }] },
        }),
        201,
      );
      const filters = [{ field: people.fields.first_name, operator: 'startsWith', value: 'Ada' }];
      const m = await createDraft(server, team.apiKey, draftBody(people, { recipients: { dataCollectionSimplyId: people.id, dataViewSimplyId: view.id, filters, emailFieldSimplyId: people.fields.email } }));
      expect(m.recipients).toEqual({ dataCollectionSimplyId: people.id, dataViewSimplyId: view.id, filters, emailFieldSimplyId: people.fields.email });
      // Ada and "Ada again" share an address: one recipient
      const readiness = expectOk(await call('GET', `${PATH}/${m.id}/send-readiness`));
      expect(readiness).toMatchObject({ ready: true, blockers: [], estimatedRecipients: 1 });
      expect(readiness.warnings.map((w: any) => w.code)).toEqual(['DUPLICATE_ADDRESSES']);
    });
  });

  describe('validation', () => {
    it('refuses bad bodies with 400 naming the field', async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{}, 'internalName'],
        [{ internalName: '' }, 'internalName'],
        [{ internalName: 'x'.repeat(201) }, 'internalName'],
        [{ internalName: 'two\nlines' }, 'internalName'],
        [{ internalName: 'ok', subjectLine: 'a\r\nBcc: x@example.test' }, 'subjectLine'],
        [{ internalName: 'ok', subjectLine: 'x'.repeat(256) }, 'subjectLine'],
        [{ internalName: 'ok', deliveryMethod: 'SMS', subjectLine: 'no subject on SMS' }, 'subjectLine'],
        [{ internalName: 'ok', deliveryMethod: 'PIGEON' }, 'deliveryMethod'],
        [{ internalName: 'ok', contentType: 'MARKDOWN' }, 'contentType'],
        [{ internalName: 'ok', textContent: 'bell \u0007' }, 'textContent'],
        [{ internalName: 'ok', htmlContent: 'x'.repeat(500_001) }, 'htmlContent'],
        [{ internalName: 'ok', scheduledAt: '2020-01-01T00:00:00Z' }, 'scheduledAt'],
        [{ internalName: 'ok', scheduledAt: 'tomorrow' }, 'scheduledAt'],
        [{ internalName: 'ok', colour: 'red' }, 'colour'],
        [{ internalName: 'ok', messageSenderSimplyId: '12345' }, 'messageSenderSimplyId'],
        [{ internalName: 'ok', recipients: {} }, 'recipients.dataCollectionSimplyId'],
        [{ internalName: 'ok', recipients: { dataCollectionSimplyId: 'nope' } }, 'recipients.dataCollectionSimplyId'],
        [{ internalName: 'ok', recipients: { dataCollectionSimplyId: people.id, extra: 1 } }, 'recipients.extra'],
        [{ internalName: 'ok', recipients: { dataCollectionSimplyId: people.id, emailFieldSimplyId: people.fields.city } }, 'recipients.emailFieldSimplyId'],
        [{ internalName: 'ok', recipients: { dataCollectionSimplyId: people.id, emailFieldSimplyId: 'fld-2222-3333-4444' } }, 'recipients.emailFieldSimplyId'],
        [{ internalName: 'ok', recipients: { dataCollectionSimplyId: people.id, filters: [{ field: 'fld-2222-3333-4444', operator: 'eq', value: 1 }] } }, 'recipients.filters[0].field'],
        [{ internalName: 'ok', recipients: { dataCollectionSimplyId: people.id, filters: [{ field: people.fields.city, operator: 'gt', value: 'x' }] } }, 'recipients.filters[0].operator'],
        [{ internalName: 'ok', recipients: { dataCollectionSimplyId: people.id, filters: 'city = London' } }, 'recipients.filters'],
        [{ internalName: 'ok', recipients: { dataCollectionSimplyId: people.id, dataViewSimplyId: 'view-22' } }, 'recipients.dataViewSimplyId'],
      ];
      for (const [body, field] of cases) {
        const error = expectError(await call('POST', PATH, body), 400, 'VALIDATION_ERROR', JSON.stringify(body).slice(0, 200));
        expect(error.details?.map((d) => d.field), JSON.stringify(body).slice(0, 200)).toContain(field);
      }
    });

    it('refuses ids the team does not have with 404, and a view of another collection with 400', async () => {
      const elsewhere = await createPeople(server, team, 'Elsewhere');
      const view = expectOk(await call('POST', '/v1/data-views', { dataCollectionSimplyId: elsewhere.id, name: 'v', enumDataViewTypeId: 'TABLE' }), 201);
      const theirView = expectOk(await server.request('POST', '/v1/data-views', { token: other.apiKey, body: { dataCollectionSimplyId: theirPeople.id, name: 'v', enumDataViewTypeId: 'TABLE' } }), 201);
      expectError(await call('POST', PATH, { internalName: 'x', recipients: { dataCollectionSimplyId: theirPeople.id } }), 404, 'NOT_FOUND');
      expectError(await call('POST', PATH, { internalName: 'x', recipients: { dataCollectionSimplyId: people.id, dataViewSimplyId: theirView.id } }), 404, 'NOT_FOUND');
      expectError(await call('POST', PATH, { internalName: 'x', messageSenderSimplyId: theirSender.id }), 404, 'NOT_FOUND');
      const wrong = expectError(await call('POST', PATH, { internalName: 'x', recipients: { dataCollectionSimplyId: people.id, dataViewSimplyId: view.id } }), 400, 'VALIDATION_ERROR');
      expect(wrong.details).toEqual([{ field: 'recipients.dataViewSimplyId', message: expect.stringContaining('another collection') }]);
      const archived = await addSender(server, team, { isDefault: false });
      await server.app.services.prisma.messageSender.update({ where: { teamId_simplyId: { teamId: team.teamId, simplyId: archived.id } }, data: { archivedAt: new Date() } });
      expectError(await call('POST', PATH, { internalName: 'x', messageSenderSimplyId: archived.id }), 404, 'NOT_FOUND');
      // an EMAIL sender for an SMS message
      expectError(await call('POST', PATH, { internalName: 'x', deliveryMethod: 'SMS', messageSenderSimplyId: sender.id }), 400, 'VALIDATION_ERROR');
    });

    it('another team\'s message is 404 on every route; a malformed id is 400', async () => {
      const theirs = await createDraft(server, other.apiKey, { internalName: 'theirs' });
      const routes: [string, string, unknown?][] = [
        ['GET', `${PATH}/${theirs.id}`],
        ['GET', `${PATH}/${theirs.id}/stats`],
        ['GET', `${PATH}/${theirs.id}/send-readiness`],
        ['PUT', `${PATH}/${theirs.id}`, { internalName: 'mine now' }],
        ['PUT', `${PATH}/${theirs.id}/status`, { status: 'SENDING' }],
        ['POST', `${PATH}/${theirs.id}/test-send`, { to: ['a@example.test'] }],
        ['GET', `/v1/messages/${theirs.id}`],
        ['GET', `/v1/messages/${theirs.id}/status`],
      ];
      for (const [method, path, body] of routes) {
        expectError(await call(method, path, body), 404, 'NOT_FOUND', `${method} ${path}`);
        const malformed = path.replace(theirs.id, '123');
        const error = expectError(await call(method, malformed, body), 400, 'VALIDATION_ERROR', `${method} ${malformed}`);
        expect(error.details?.[0]?.field).toMatch(/^(outgoingMessageSimplyId|messageSimplyId)$/);
      }
      expectGqlError(await gql(GQL.one, { id: theirs.id }), 'NOT_FOUND', 404);
      expect(expectOk(await server.request('GET', `${PATH}/${theirs.id}`, { token: other.apiKey })).internalName).toBe('theirs');
    });
  });

  describe('changing a draft', () => {
    it('PUT changes what is given, null clears, recipients are replaced whole; GraphQL too', async () => {
      const m = await createDraft(server, team.apiKey, draftBody(people, { messageSenderSimplyId: sender.id }));
      const changed = expectOk(await call('PUT', `${PATH}/${m.id}`, { internalName: 'Renamed', textContent: null, messageSenderSimplyId: null, recipients: { dataCollectionSimplyId: people.id } }));
      expect(changed).toMatchObject({ internalName: 'Renamed', textContent: null, htmlContent: m.htmlContent, subjectLine: m.subjectLine, sender: null, recipients: { dataCollectionSimplyId: people.id, emailFieldSimplyId: null, filters: [] } });
      expect(new Date(changed.updatedAt).getTime()).toBeGreaterThanOrEqual(new Date(m.updatedAt).getTime());
      const viaGql = gqlData(await gql(GQL.update, { id: m.id, input: { subjectLine: null, deliveryMethod: 'SMS', recipients: null } })).updateOutgoingMessage;
      expect(viaGql).toMatchObject({ subjectLine: null, deliveryMethod: 'SMS', recipients: null, internalName: 'Renamed' });
      // a subject on an SMS message, an EMAIL sender on it
      expectError(await call('PUT', `${PATH}/${m.id}`, { subjectLine: 'no' }), 400, 'VALIDATION_ERROR');
      expectError(await call('PUT', `${PATH}/${m.id}`, { messageSenderSimplyId: sender.id }), 400, 'VALIDATION_ERROR');
      for (const body of [{ internalName: null }, { deliveryMethod: null }, { status: 'SENT' }, { internalName: 'x'.repeat(201) }]) {
        expectError(await call('PUT', `${PATH}/${m.id}`, body), 400, 'VALIDATION_ERROR', JSON.stringify(body));
      }
    });
  });

  describe('permissions', () => {
    it('reads need OUTGOING_MESSAGES_VIEW or OUTGOING_MESSAGES_SEND; composing is privileged', async () => {
      const m = await createDraft(server, team.apiKey, draftBody(people));
      const none = (await createApiKey(server, team, { name: 'none', featurePermissions: [] })).key;
      const viewer = (await createApiKey(server, team, { name: 'viewer', featurePermissions: ['OUTGOING_MESSAGES_VIEW:VIEW'] })).key;
      const sendViewer = (await createApiKey(server, team, { name: 'send view', featurePermissions: ['OUTGOING_MESSAGES_SEND:VIEW'] })).key;
      const session = (await mintSessionToken(server, team.apiKey, { featurePermissions: ['OUTGOING_MESSAGES_SEND', 'OUTGOING_MESSAGES_VIEW'] })).token;
      const reads = ['/v1/messages', `/v1/messages/${m.id}`, `/v1/messages/${m.id}/status`, PATH, `${PATH}/sent`, `${PATH}/${m.id}`, `${PATH}/${m.id}/stats`];
      for (const path of reads) {
        expectError(await call('GET', path, undefined, none), 403, 'PERMISSION_DENIED', path);
        for (const token of [viewer, sendViewer, session]) expectOk(await call('GET', path, undefined, token));
      }
      expectGqlError(await gql(GQL.messages, {}, none), 'PERMISSION_DENIED', 403);
      const writes: [string, string, unknown?][] = [
        ['POST', PATH, { internalName: 'x' }],
        ['PUT', `${PATH}/${m.id}`, { internalName: 'x' }],
        ['PUT', `${PATH}/${m.id}/status`, { status: 'SENDING' }],
        ['GET', `${PATH}/${m.id}/send-readiness`],
        ['POST', `${PATH}/${m.id}/test-send`, { to: ['a@example.test'] }],
      ];
      for (const [method, path, body] of writes) {
        for (const token of [none, viewer, sendViewer, session]) expectError(await call(method, path, body, token), 403, 'PERMISSION_DENIED', `${method} ${path}`);
      }
      expectGqlError(await gql(GQL.create, { input: { internalName: 'x' } }, session), 'PERMISSION_DENIED', 403);
      expect(expectOk(await call('GET', `${PATH}/${m.id}`))).toMatchObject({ internalName: 'Spring newsletter', status: 'DRAFT' });
    });

    it('choosing recipients needs read access to the collection\'s records', async () => {
      const composer = (await createApiKey(server, team, { name: 'composer without role', featurePermissions: ['OUTGOING_MESSAGES_SEND'] })).key;
      expectOk(await call('POST', PATH, { internalName: 'no recipients yet' }, composer), 201);
      expectError(await call('POST', PATH, draftBody(people), composer), 403, 'PERMISSION_DENIED');
      // a signed-in member with the feature through a role that reads everything
      const member = await addMember(server, team, { isTeamAdmin: true });
      expect(expectOk(await call('POST', PATH, draftBody(people), member.token, team.teamSimplyId), 201).status).toBe('DRAFT');
    });

    it('message settings: team admins and TEAM_SETTINGS; never session tokens', async () => {
      const t = await createTeam(server);
      expect(expectOk(await server.request('GET', '/v1/message-settings', { token: t.apiKey }))).toEqual({ approvalRequired: false, updatedAt: null });
      const changed = expectOk(await server.request('PUT', '/v1/message-settings', { token: t.userToken, teamId: t.teamSimplyId, body: { approvalRequired: true } }));
      expect(changed).toEqual({ approvalRequired: true, updatedAt: expect.any(String) });
      expect(gqlData(await gql(GQL.settings, {}, t.apiKey)).messageSettings.approvalRequired).toBe(true);
      expect(gqlData(await gql(GQL.updateSettings, { input: { approvalRequired: false } }, t.apiKey)).updateMessageSettings.approvalRequired).toBe(false);
      const noSettings = (await createApiKey(server, t, { name: 'n', featurePermissions: ['OUTGOING_MESSAGES_SEND'] })).key;
      const session = (await mintSessionToken(server, t.apiKey)).token;
      for (const token of [noSettings, session]) {
        expectError(await server.request('PUT', '/v1/message-settings', { token, body: { approvalRequired: true } }), 403, 'PERMISSION_DENIED');
        expectError(await server.request('GET', '/v1/message-settings', { token }), 403, 'PERMISSION_DENIED');
      }
      for (const body of [{}, { approvalRequired: 'yes' }, { approvalRequired: true, extra: 1 }]) {
        expectError(await server.request('PUT', '/v1/message-settings', { token: t.apiKey, body }), 400, 'VALIDATION_ERROR', JSON.stringify(body));
      }
      expectGqlError(await gql(GQL.updateSettings, { input: {} }, t.apiKey), 'VALIDATION_ERROR', 400);
    });
  });

  describe('send readiness', () => {
    it('lists what blocks sending, then nothing once it is fixed', async () => {
      const t = await createTeam(server);
      const tp = await createPeople(server, t);
      const m = await createDraft(server, t.apiKey, { internalName: 'empty', htmlContent: 'Hi {{nickname}}' });
      const codes = (r: any) => r.blockers.map((b: any) => b.code).sort();
      const first = expectOk(await server.request('GET', `${PATH}/${m.id}/send-readiness`, { token: t.apiKey }));
      expect(first.ready).toBe(false);
      expect(codes(first)).toEqual(['NO_SENDER', 'RECIPIENTS_MISSING', 'SUBJECT_MISSING', 'UNKNOWN_MERGE_TAGS']);
      expect(first.blockers.every((b: any) => typeof b.message === 'string' && b.message.length > 0)).toBe(true);
      expect(first.estimatedRecipients).toBeNull();
      await addSender(server, t);
      expectOk(await server.request('PUT', `${PATH}/${m.id}`, { token: t.apiKey, body: { subjectLine: 'Hi', recipients: { dataCollectionSimplyId: tp.id } } }));
      const second = expectOk(await server.request('GET', `${PATH}/${m.id}/send-readiness`, { token: t.apiKey }));
      expect(codes(second)).toEqual(['EMAIL_FIELD_MISSING', 'UNKNOWN_MERGE_TAGS']);
      expect(second.blockers.find((b: any) => b.code === 'UNKNOWN_MERGE_TAGS').message).toContain('{{nickname}}');
      expectOk(await server.request('PUT', `${PATH}/${m.id}`, { token: t.apiKey, body: { htmlContent: 'Hi {{first_name}}', recipients: { dataCollectionSimplyId: tp.id, emailFieldSimplyId: tp.fields.email } } }));
      expect(codes(expectOk(await server.request('GET', `${PATH}/${m.id}/send-readiness`, { token: t.apiKey })))).toEqual(['NO_RECIPIENTS']);
      await addPeople(server, t, tp, [{ first_name: 'Ada', email: 'ada@example.test' }, { first_name: 'Bob', email: 'bob@example.test' }, { first_name: 'Nomail' }]);
      await server.app.services.prisma.mailSuppression.create({ data: { teamId: t.teamId, address: 'bob@example.test', reason: 'UNSUBSCRIBED' } });
      const ready = expectOk(await server.request('GET', `${PATH}/${m.id}/send-readiness`, { token: t.apiKey }));
      expect(ready).toMatchObject({ ready: true, blockers: [], estimatedRecipients: 1 });
      expect(ready.warnings.map((w: any) => w.code).sort()).toEqual(['NO_TEXT_VERSION', 'RECIPIENTS_WITHOUT_ADDRESS', 'SUPPRESSED_RECIPIENTS']);
      expect(gqlData(await gql(GQL.readiness, { id: m.id }, t.apiKey)).outgoingMessageSendReadiness).toEqual(ready);
      // approval required: a draft is blocked until approved
      expectOk(await server.request('PUT', '/v1/message-settings', { token: t.apiKey, body: { approvalRequired: true } }));
      expect(codes(expectOk(await server.request('GET', `${PATH}/${m.id}/send-readiness`, { token: t.apiKey })))).toEqual(['APPROVAL_REQUIRED']);
    });

    it('SMS, WHATSAPP and FACEBOOK can be composed but have no provider', async () => {
      for (const deliveryMethod of ['SMS', 'WHATSAPP', 'FACEBOOK']) {
        const m = await createDraft(server, team.apiKey, { internalName: deliveryMethod, deliveryMethod, contentType: 'PLAIN_TEXT', textContent: 'Hi {{first_name}}', recipients: { dataCollectionSimplyId: people.id } });
        const readiness = expectOk(await call('GET', `${PATH}/${m.id}/send-readiness`));
        expect(readiness.blockers.map((b: any) => b.code)).toEqual(['DELIVERY_METHOD_UNAVAILABLE']);
        for (const status of ['SENDING', 'SCHEDULED']) {
          const error = expectError(await call('PUT', `${PATH}/${m.id}/status`, { status, ...(status === 'SCHEDULED' ? { scheduledAt: future() } : {}) }), 409, 'DELIVERY_METHOD_UNAVAILABLE');
          expect(error.details).toEqual([{ field: 'deliveryMethod', message: `no ${deliveryMethod} provider is configured` }]);
        }
        expectError(await call('POST', `${PATH}/${m.id}/test-send`, { to: ['a@example.test'] }), 409, 'DELIVERY_METHOD_UNAVAILABLE');
        expect(expectOk(await call('GET', `${PATH}/${m.id}`)).status).toBe('DRAFT');
      }
    });
  });

});
