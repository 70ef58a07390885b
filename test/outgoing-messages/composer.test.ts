// Composing over REST and GraphQL: create, read (every standard read), change a draft, the
// validation 400s, recipient selection (collection, view, filters, email field), the read and
// compose tiers, other teams' ids, send-readiness blockers and warnings, the message settings, and
// starting from (or linking) a message template, whose page reads cost no more with more rows.
// No workers run here (a database of the file's own keeps other files' workers off its jobs).
import { beforeAll, describe, expect, it } from 'vitest';
import { mintSessionToken } from '../support/credentials-fixtures.ts';
import { expectError, expectGqlError, expectOk, gqlData } from '../support/expect-envelope.ts';
import { addMember, createApiKey, createTeam } from '../support/fixtures.ts';
import { restCaller } from '../support/rest-caller.ts';
import { countSql } from '../support/sql-counter.ts';
import { useServer } from '../support/use-server.ts';
import type { CollectionFixture } from '../support/data-fixtures.ts';
import { addPeople, addSender, createDraft, createPeople, draftBody, GQL, MSG_ID, PATH, type SenderFixture } from './message-fixtures.ts';

const DETAIL_KEYS = [
  'approvedAt', 'approvedBy', 'contentType', 'createdAt', 'deliveryMethod', 'errorMessage', 'htmlContent', 'id', 'internalName', 'recipients', 'scheduledAt',
  'sendStartedAt', 'sender', 'sentAt', 'status', 'subjectLine', 'template', 'textContent', 'totalRecipients', 'updatedAt',
];
const MESSAGE_KEYS = ['contentType', 'deliveryMethod', 'id', 'internalName', 'scheduledAt', 'sentAt', 'status', 'subjectLine'];
const SUMMARY_KEYS = [...MESSAGE_KEYS, 'createdAt', 'template', 'totalRecipients', 'updatedAt'].sort();
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
        template: null,
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
      expect(gqlData(await gql(GQL.message, { id: created.id })).outgoingMessage).toEqual(message);
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
      expect(gqlData(await gql(GQL.messages, { status: 'DRAFT' }, t.apiKey)).outgoingMessages.pagination.total).toBe(2);
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
        [{ internalName: 'ok', outgoingMessageTemplateSimplyId: '12345' }, 'outgoingMessageTemplateSimplyId'],
        [{ internalName: 'ok', outgoingMessageTemplateSimplyId: 42 }, 'outgoingMessageTemplateSimplyId'],
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


  describe('starting from a message template', () => {
    const TEMPLATES = '/v1/message-templates';
    const template = async (body: Record<string, unknown>, token = team.apiKey) => expectOk(await server.request('POST', TEMPLATES, { token, body: { name: 'Monthly newsletter', ...body } }), 201);
    const archive = async (id: string) => expectOk(await call('DELETE', `${TEMPLATES}/${id}`));
    const fieldsOf = (error: { details?: { field?: string }[] }) => error.details?.map((d) => d.field);

    it('fills deliveryMethod, contentType and subjectLine the body leaves out; a body value wins', async () => {
      const newsletter = await template({ deliveryMethod: 'EMAIL', subjectLine: 'News for {{first_name}}', designFormat: 'PLAIN_TEXT' });
      const filled = await createDraft(server, team.apiKey, { internalName: 'from template', outgoingMessageTemplateSimplyId: newsletter.id, textContent: 'Hi' });
      expect(filled).toMatchObject({ deliveryMethod: 'EMAIL', contentType: 'PLAIN_TEXT', subjectLine: 'News for {{first_name}}', textContent: 'Hi', template: { id: newsletter.id, name: 'Monthly newsletter' } });
      expect(Object.keys(filled.template).sort()).toEqual(['id', 'name']);
      expect(expectOk(await call('GET', `${PATH}/${filled.id}`))).toEqual(filled);
      expect(gqlData(await gql(GQL.one, { id: filled.id })).outgoingMessage).toEqual(filled);
      // null and a blank subject are "left out"; a subject or content type in the body is kept
      for (const subjectLine of [null, '   ']) {
        expect((await createDraft(server, team.apiKey, { internalName: 'blank', subjectLine, outgoingMessageTemplateSimplyId: newsletter.id })).subjectLine).toBe('News for {{first_name}}');
      }
      const own = await createDraft(server, team.apiKey, { internalName: 'own', subjectLine: 'My own', contentType: 'HTML', deliveryMethod: 'EMAIL', outgoingMessageTemplateSimplyId: newsletter.id });
      expect(own).toMatchObject({ subjectLine: 'My own', contentType: 'HTML', deliveryMethod: 'EMAIL', template: { id: newsletter.id } });
      // an SMS template gives its channel; no subject is taken, and one in the body is refused
      const sms = await template({ name: 'Reminder', deliveryMethod: 'SMS', designFormat: 'PLAIN_TEXT' });
      const text = await createDraft(server, team.apiKey, { internalName: 'sms', outgoingMessageTemplateSimplyId: sms.id });
      expect(text).toMatchObject({ deliveryMethod: 'SMS', contentType: 'PLAIN_TEXT', subjectLine: null, template: { id: sms.id, name: 'Reminder' } });
      expect(fieldsOf(expectError(await call('POST', PATH, { internalName: 'x', subjectLine: 'no', outgoingMessageTemplateSimplyId: sms.id }), 400, 'VALIDATION_ERROR'))).toEqual(['subjectLine']);
      // GraphQL: the same fill
      const viaGql = gqlData(await gql(GQL.create, { input: { internalName: 'gql', outgoingMessageTemplateSimplyId: newsletter.id } })).createOutgoingMessage;
      expect(viaGql).toMatchObject({ deliveryMethod: 'EMAIL', contentType: 'PLAIN_TEXT', subjectLine: 'News for {{first_name}}', template: { id: newsletter.id, name: 'Monthly newsletter' } });
      // the link is a reference: a renamed template shows its new name
      expectOk(await call('PUT', `${TEMPLATES}/${newsletter.id}`, { name: 'Renamed newsletter' }));
      expect(expectOk(await call('GET', `${PATH}/${filled.id}`)).template).toEqual({ id: newsletter.id, name: 'Renamed newsletter' });
    });

    it('refuses an archived template (400), another team\'s or a missing one (404), another channel (400), a subject too long for a message (400)', async () => {
      const archived = await template({ subjectLine: 'Old' });
      await archive(archived.id);
      const error = expectError(await call('POST', PATH, { internalName: 'x', outgoingMessageTemplateSimplyId: archived.id }), 400, 'VALIDATION_ERROR');
      expect(error.details).toEqual([{ field: 'outgoingMessageTemplateSimplyId', message: expect.stringContaining('archived') }]);
      expectGqlError(await gql(GQL.create, { input: { internalName: 'x', outgoingMessageTemplateSimplyId: archived.id } }), 'VALIDATION_ERROR', 400);
      const theirs = await template({ subjectLine: 'Theirs' }, other.apiKey);
      const missing = theirs.id.replace(/^mtp-..../, 'mtp-2222');
      for (const id of [theirs.id, missing]) {
        const notFound = expectError(await call('POST', PATH, { internalName: 'x', outgoingMessageTemplateSimplyId: id }), 404, 'NOT_FOUND', id);
        expect(notFound.message).not.toContain('Theirs');
      }
      expectGqlError(await gql(GQL.create, { input: { internalName: 'x', outgoingMessageTemplateSimplyId: theirs.id } }), 'NOT_FOUND', 404);
      const email = await template({ subjectLine: 'Hello' });
      const mismatch = expectError(await call('POST', PATH, { internalName: 'x', deliveryMethod: 'SMS', outgoingMessageTemplateSimplyId: email.id }), 400, 'VALIDATION_ERROR');
      expect(mismatch.details).toEqual([{ field: 'outgoingMessageTemplateSimplyId', message: 'is a EMAIL template; this message is SMS' }]);
      const long = await template({ subjectLine: 's'.repeat(300) });
      expect(fieldsOf(expectError(await call('POST', PATH, { internalName: 'x', outgoingMessageTemplateSimplyId: long.id }), 400, 'VALIDATION_ERROR'))).toEqual(['outgoingMessageTemplateSimplyId']);
      // a subject of its own makes the long template usable
      expect((await createDraft(server, team.apiKey, { internalName: 'x', subjectLine: 'Short', outgoingMessageTemplateSimplyId: long.id })).subjectLine).toBe('Short');
      // none of the refusals left a message behind
      const names = expectOk(await call('GET', `${PATH}?limit=100`)).map((m: any) => m.internalName);
      expect(names.filter((n: string) => n === 'x')).toEqual(['x']);
    });

    it('PUT links without copying, unlinks with null, keeps an archived link, and checks team, archive and channel', async () => {
      const first = await template({ name: 'First', subjectLine: 'From the first' });
      const second = await template({ name: 'Second', subjectLine: 'From the second', designFormat: 'PLAIN_TEXT' });
      const m = await createDraft(server, team.apiKey, { internalName: 'linking', subjectLine: 'Mine', htmlContent: '<p>mine</p>' });
      const linked = expectOk(await call('PUT', `${PATH}/${m.id}`, { outgoingMessageTemplateSimplyId: second.id }));
      expect(linked).toMatchObject({ subjectLine: 'Mine', contentType: 'HTML', htmlContent: '<p>mine</p>', template: { id: second.id, name: 'Second' } });
      const viaGql = gqlData(await gql(GQL.update, { id: m.id, input: { outgoingMessageTemplateSimplyId: first.id } })).updateOutgoingMessage;
      expect(viaGql).toMatchObject({ subjectLine: 'Mine', template: { id: first.id, name: 'First' } });
      // other changes leave the link alone
      expect(expectOk(await call('PUT', `${PATH}/${m.id}`, { internalName: 'linking 2' })).template).toEqual({ id: first.id, name: 'First' });
      // the linked template archived: the message still shows it, and sending its id back is accepted
      await archive(first.id);
      expect(expectOk(await call('GET', `${PATH}/${m.id}`)).template).toEqual({ id: first.id, name: 'First' });
      expect(gqlData(await gql(`query($id: String!) { outgoingMessage(outgoingMessageSimplyId: $id) { template { id archived } } }`, { id: m.id })).outgoingMessage.template).toEqual({ id: first.id, archived: true });
      expect(expectOk(await call('PUT', `${PATH}/${m.id}`, { internalName: 'as read', outgoingMessageTemplateSimplyId: first.id })).template.id).toBe(first.id);
      // ...but an archived template is not linked anew
      const other2 = await template({ name: 'Gone' });
      await archive(other2.id);
      expect(fieldsOf(expectError(await call('PUT', `${PATH}/${m.id}`, { outgoingMessageTemplateSimplyId: other2.id }), 400, 'VALIDATION_ERROR'))).toEqual(['outgoingMessageTemplateSimplyId']);
      const theirs = await template({}, other.apiKey);
      expectError(await call('PUT', `${PATH}/${m.id}`, { outgoingMessageTemplateSimplyId: theirs.id }), 404, 'NOT_FOUND');
      expectError(await call('PUT', `${PATH}/${m.id}`, { outgoingMessageTemplateSimplyId: 'mtp-oops' }), 400, 'VALIDATION_ERROR');
      // channels: linking an SMS template to an EMAIL message, or moving a linked message to SMS alone
      const sms = await template({ name: 'Text', deliveryMethod: 'SMS' });
      expect(fieldsOf(expectError(await call('PUT', `${PATH}/${m.id}`, { outgoingMessageTemplateSimplyId: sms.id }), 400, 'VALIDATION_ERROR'))).toEqual(['outgoingMessageTemplateSimplyId']);
      expect(fieldsOf(expectError(await call('PUT', `${PATH}/${m.id}`, { deliveryMethod: 'SMS', subjectLine: null }), 400, 'VALIDATION_ERROR'))).toEqual(['deliveryMethod']);
      const moved = expectOk(await call('PUT', `${PATH}/${m.id}`, { deliveryMethod: 'SMS', subjectLine: null, outgoingMessageTemplateSimplyId: sms.id }));
      expect(moved).toMatchObject({ deliveryMethod: 'SMS', subjectLine: null, template: { id: sms.id, name: 'Text' } });
      // unlink
      expect(expectOk(await call('PUT', `${PATH}/${m.id}`, { outgoingMessageTemplateSimplyId: null })).template).toBeNull();
      expect(gqlData(await gql(GQL.update, { id: m.id, input: { outgoingMessageTemplateSimplyId: sms.id } })).updateOutgoingMessage.template.id).toBe(sms.id);
      expect(gqlData(await gql(GQL.update, { id: m.id, input: { outgoingMessageTemplateSimplyId: null } })).updateOutgoingMessage.template).toBeNull();
      // only a DRAFT changes, template or not
      await server.app.services.prisma.outgoingMessage.update({ where: { teamId_simplyId: { teamId: team.teamId, simplyId: m.id } }, data: { status: 'APPROVED' } });
      expectError(await call('PUT', `${PATH}/${m.id}`, { outgoingMessageTemplateSimplyId: sms.id }), 409, 'MESSAGE_NOT_EDITABLE');
      expect(expectOk(await call('GET', `${PATH}/${m.id}`)).template).toBeNull();
    });

    it('a page of messages reads their templates and senders with the same statements for 2 rows as for 12', async () => {
      const sql = countSql(server.app.services.pool);
      const LIST = '{ outgoingMessages(limit: 100) { nodes { id template { id name } sender { id name } } } }';
      const seed = async (rows: number) => {
        const t = await createTeam(server);
        for (let i = 0; i < rows; i++) {
          const tpl = await template({ name: `Template ${i}` }, t.apiKey);
          const s = await addSender(server, t, { isDefault: i === 0 });
          await createDraft(server, t.apiKey, { internalName: `m${i}`, outgoingMessageTemplateSimplyId: tpl.id, messageSenderSimplyId: s.id });
        }
        return t;
      };
      const small = await seed(2);
      const large = await seed(12);
      // the second of two identical reads runs with the credential cached
      const statements = async (t: typeof small) => {
        let last: string[] = [];
        let nodes: any[] = [];
        for (let i = 0; i < 2; i++) {
          last = await sql.measure(async () => {
            nodes = gqlData(await gql(LIST, {}, t.apiKey)).outgoingMessages.nodes;
          });
        }
        return { last, nodes };
      };
      const a = await statements(small);
      const b = await statements(large);
      expect(a.nodes).toHaveLength(2);
      expect(b.nodes).toHaveLength(12);
      expect(b.nodes.map((n: any) => n.template.name).sort()).toEqual(Array.from({ length: 12 }, (_, i) => `Template ${i}`).sort());
      expect(b.nodes.every((n: any) => n.sender !== null)).toBe(true);
      expect(b.last.length, `2 rows:\n${a.last.join('\n')}\n\n12 rows:\n${b.last.join('\n')}`).toBe(a.last.length);
      expect(b.last.filter((q) => /OutgoingMessageTemplate/.test(q))).toHaveLength(1);
    });
  });
});
