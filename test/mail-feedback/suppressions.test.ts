// The suppression list over REST (/v1/message-suppressions) and GraphQL (messageSuppressions,
// createMessageSuppression, deleteMessageSuppression): adding (new, already listed, bad
// addresses), the list's paging and filters, taking an address off, other teams, the privileged
// OUTGOING_MESSAGES_SEND tier, and the list end to end: a composed message bounces over the inbound
// listener, the address shows with its reason and message, the next message skips it, and once it
// is taken off the composer mails it again. A database of the file's own keeps other files' workers
// off its jobs.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Env } from '../../src/app/config.ts';
import { operation } from '../../src/app/graphql/fragments.ts';
import { suppress } from '../../src/modules/mail-feedback/feedback.sql.ts';
import { MESSAGE_SUPPRESSION } from '../../src/modules/mail-feedback/suppressions.fragments.ts';
import { mintSessionToken } from '../support/credentials-fixtures.ts';
import { expectError, expectGqlError, expectOk, gqlData } from '../support/expect-envelope.ts';
import { addMember, createApiKey, createRole, createTeam, type TeamFixture } from '../support/fixtures.ts';
import { restCaller } from '../support/rest-caller.ts';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.ts';
import { untilWith } from '../support/until.ts';
import { useServer } from '../support/use-server.ts';
import { addPeople, addSender, createDraft, createPeople, draftBody, move, PATH as OUTGOING } from '../outgoing-messages/message-fixtures.ts';
import { deliveryStatusNotification, sendToListener } from './report-messages.ts';

const PATH = '/v1/message-suppressions';
const FIELDS = ['address', 'createdAt', 'mailSimplyId', 'outgoingMessageSimplyId', 'reason'];
const until = untilWith({ timeoutMs: 30_000, everyMs: 100 });
const fresh = (label = 'person') => `${label}-${randomBytes(4).toString('hex')}@receiver.example`;
const one = (address: string) => `${PATH}/${encodeURIComponent(address)}`;

const GQL = {
  list: operation(
    ['query($limit: Int, $offset: Int, $search: String, $reason: String) { messageSuppressions(limit: $limit, offset: $offset, search: $search, reason: $reason) { nodes { ', ' } pagination { total limit offset hasMore } } }'],
    MESSAGE_SUPPRESSION,
  ),
  create: operation(['mutation($input: CreateMessageSuppressionInput!) { createMessageSuppression(input: $input) { created suppression { ', ' } } }'], MESSAGE_SUPPRESSION),
  delete: 'mutation($address: String!) { deleteMessageSuppression(address: $address) }',
};

describe('message suppressions', () => {
  const env: Partial<Env> = { MESSAGE_SEND_RATE: 1000, INBOUND_SMTP_PORT: 0, INBOUND_SMTP_HOST: '127.0.0.1', MAIL_BOUNCE_DOMAIN: 'bounces.example.org' };
  let sink: SmtpSink;
  beforeAll(async () => {
    sink = await startSmtpSink();
    env.SMTP_URL = sink.url;
  });
  afterAll(() => sink?.close());
  const { server, teams: [team, other] } = useServer({ ownDatabase: 'mail_suppressions', runJobs: true, env, teams: 2 });
  const call = restCaller(() => server, () => team.apiKey);
  const gql = (query: string, variables: Record<string, unknown> = {}, token = team.apiKey, teamId?: string) => server.graphql(query, variables, { token, teamId });
  const add = async (address: string, token?: string, status = 201) => expectOk(await call('POST', PATH, { address }, token), status);
  const list = async (query = '', token?: string) => expectOk(await call('GET', `${PATH}${query}`, undefined, token));
  const addresses = (rows: { address: string }[]) => rows.map((r) => r.address);
  const rowsOf = (teamId: bigint, address: string) => server.app.services.prisma.mailSuppression.findMany({ where: { teamId, address } });

  /** a system mail to `address`, as feedback would have been about (answers its ids) */
  async function mailTo(owner: TeamFixture, address: string) {
    return server.app.services.mail.enqueue({ teamId: owner.teamId, to: [address], subject: 'Hello', text: 'Hello.', source: 'SYSTEM' });
  }

  describe('add', () => {
    it('adds with reason MANUAL, lower-cased: 201; the same address again (any case) answers 200 with the row as it was; one row', async () => {
      const created = await add('  Ada.Lovelace+News@Example.ORG ');
      expect(Object.keys(created).sort()).toEqual([...FIELDS, 'created'].sort());
      expect(created).toMatchObject({ address: 'ada.lovelace+news@example.org', reason: 'MANUAL', mailSimplyId: null, outgoingMessageSimplyId: null, created: true });
      expect(Date.parse(created.createdAt)).toBeGreaterThan(Date.now() - 60_000);
      const again = await add('ADA.LOVELACE+NEWS@example.org', undefined, 200);
      expect(again).toEqual({ ...created, created: false });
      expect(await rowsOf(team.teamId, 'ada.lovelace+news@example.org')).toHaveLength(1);

      // GraphQL: the same answer, created false
      const viaGql = gqlData(await gql(GQL.create, { input: { address: 'ada.lovelace+news@EXAMPLE.org' } })).createMessageSuppression;
      const { created: _flag, ...row } = created;
      expect(viaGql).toEqual({ created: false, suppression: row });
      const newViaGql = gqlData(await gql(GQL.create, { input: { address: 'Grace@Example.org' } })).createMessageSuppression;
      expect(newViaGql).toMatchObject({ created: true, suppression: { address: 'grace@example.org', reason: 'MANUAL' } });
    });

    it('keeps an internationalized domain in its Unicode form (as record email fields store it): the xn-- form is the same address', async () => {
      const created = await add('Zoë@Bücher.DE');
      expect(created.address).toBe('zoë@bücher.de');
      expect(await add('zoë@xn--bcher-kva.de', undefined, 200)).toMatchObject({ address: 'zoë@bücher.de', created: false });
    });

    it('an address already suppressed by feedback stays as it is (its reason and message), answered 200', async () => {
      const address = fresh('complained');
      const mail = await mailTo(team, address);
      await suppress(server.app.services.pool, team.teamId.toString(), address, 'COMPLAINT', mail.id);
      const answer = await add(address.toUpperCase(), undefined, 200);
      expect(answer).toMatchObject({ address, reason: 'COMPLAINT', mailSimplyId: mail.simplyId, created: false });
    });

    it('refuses what is no email address, a missing one and unknown fields with 400 VALIDATION_ERROR naming the field; nothing stored', async () => {
      const before = await server.app.services.prisma.mailSuppression.count({ where: { teamId: team.teamId } });
      const cases: [unknown, string][] = [
        [{}, 'address'],
        [{ address: '' }, 'address'],
        [{ address: '   ' }, 'address'],
        [{ address: null }, 'address'],
        [{ address: 42 }, 'address'],
        [{ address: 'not-an-address' }, 'address'],
        [{ address: 'nobody@localhost' }, 'address'],
        [{ address: 'two@@example.org' }, 'address'],
        [{ address: 'with space@example.org' }, 'address'],
        [{ address: 'Name <name@example.org>' }, 'address'],
        [{ address: 'line\nbreak@example.org' }, 'address'],
        [{ address: `${'x'.repeat(65)}@example.org` }, 'address'],
        [{ address: `a@${Array.from({ length: 5 }, () => 'd'.repeat(60)).join('.')}.org` }, 'address'],
        [{ address: ['a@example.org'] }, 'address'],
        [{ address: 'ok@example.org', reason: 'COMPLAINT' }, 'reason'],
      ];
      for (const [body, field] of cases) {
        const error = expectError(await call('POST', PATH, body), 400, 'VALIDATION_ERROR', JSON.stringify(body).slice(0, 80));
        expect(error.details?.map((d) => d.field), JSON.stringify(body).slice(0, 80)).toContain(field);
      }
      for (const address of ['not-an-address', '', 'two@@example.org']) expectGqlError(await gql(GQL.create, { input: { address } }), 'VALIDATION_ERROR', 400);
      expect(await server.app.services.prisma.mailSuppression.count({ where: { teamId: team.teamId } })).toBe(before);
    });
  });

  describe('list', () => {
    let own: TeamFixture;
    let complaint: { address: string; mailSimplyId: string };
    beforeAll(async () => {
      own = await createTeam(server);
      for (const address of ['first@alpha.example', 'second@beta.example', 'odd%_name@alpha.example']) await add(address, own.apiKey);
      const address = 'complained@gamma.example';
      const mail = await mailTo(own, address);
      await suppress(server.app.services.pool, own.teamId.toString(), address, 'COMPLAINT', mail.id);
      complaint = { address, mailSimplyId: mail.simplyId };
      await add('last@Alpha.example', own.apiKey);
    });
    it('newest first with the paging of every list; a feedback row shows its reason and mail', async () => {
      const all = await call('GET', PATH, undefined, own.apiKey);
      expect(addresses(expectOk(all))).toEqual(['last@alpha.example', 'complained@gamma.example', 'odd%_name@alpha.example', 'second@beta.example', 'first@alpha.example']);
      expect(all.body.meta.pagination).toEqual({ total: 5, limit: 25, offset: 0, hasMore: false });
      for (const row of all.body.data) expect(Object.keys(row).sort()).toEqual(FIELDS);
      expect(all.body.data[1]).toEqual({ address: complaint.address, reason: 'COMPLAINT', createdAt: expect.any(String), mailSimplyId: complaint.mailSimplyId, outgoingMessageSimplyId: null });
      expect(all.body.data.filter((r: { reason: string }) => r.reason === 'MANUAL')).toHaveLength(4);

      const page = await call('GET', `${PATH}?limit=2&offset=1`, undefined, own.apiKey);
      expect(addresses(expectOk(page))).toEqual(['complained@gamma.example', 'odd%_name@alpha.example']);
      expect(page.body.meta.pagination).toEqual({ total: 5, limit: 2, offset: 1, hasMore: true });
      const past = await call('GET', `${PATH}?offset=10`, undefined, own.apiKey);
      expect(expectOk(past)).toEqual([]);
      expect(past.body.meta.pagination).toEqual({ total: 5, limit: 25, offset: 10, hasMore: false });
    });

    it('search matches part of the address without case (% and _ literally); reason filters; both together', async () => {
      expect(addresses(await list('?search=ALPHA', own.apiKey))).toEqual(['last@alpha.example', 'odd%_name@alpha.example', 'first@alpha.example']);
      expect(addresses(await list(`?search=${encodeURIComponent('%_')}`, own.apiKey))).toEqual(['odd%_name@alpha.example']);
      expect(addresses(await list(`?search=${encodeURIComponent('_')}`, own.apiKey))).toEqual(['odd%_name@alpha.example']);
      expect(addresses(await list('?search=nobody', own.apiKey))).toEqual([]);
      expect(addresses(await list('?reason=COMPLAINT', own.apiKey))).toEqual(['complained@gamma.example']);
      expect(addresses(await list('?reason=HARD_BOUNCE', own.apiKey))).toEqual([]);
      const both = await call('GET', `${PATH}?reason=MANUAL&search=alpha&limit=1&offset=1`, undefined, own.apiKey);
      expect(addresses(expectOk(both))).toEqual(['odd%_name@alpha.example']);
      expect(both.body.meta.pagination).toEqual({ total: 3, limit: 1, offset: 1, hasMore: true });

      const page = gqlData(await gql(GQL.list, { search: 'Gamma', reason: 'COMPLAINT' }, own.apiKey)).messageSuppressions;
      expect(page).toEqual({ nodes: [expect.objectContaining({ address: complaint.address, mailSimplyId: complaint.mailSimplyId })], pagination: { total: 1, limit: 25, offset: 0, hasMore: false } });
    });

    it('refuses bad paging and filters with 400 naming the parameter', async () => {
      for (const [query, field] of [
        ['limit=0', 'limit'],
        ['limit=101', 'limit'],
        ['offset=-1', 'offset'],
        ['limit=x', 'limit'],
        ['reason=PIGEON', 'reason'],
        ['reason=manual', 'reason'],
        [`search=${'x'.repeat(255)}`, 'search'],
      ]) {
        const error = expectError(await call('GET', `${PATH}?${query}`, undefined, own.apiKey), 400, 'VALIDATION_ERROR', query);
        expect(error.details?.map((d) => d.field), query).toContain(field);
      }
      expectGqlError(await gql(GQL.list, { reason: 'PIGEON' }, own.apiKey), 'VALIDATION_ERROR', 400);
      expectGqlError(await gql(GQL.list, { limit: 101 }, own.apiKey), 'VALIDATION_ERROR', 400);
    });
  });

  describe('delete', () => {
    it('takes the address off (URL-encoded, any case): 200 { id, deleted }; again 404; it can be added anew', async () => {
      const address = 'o/brien+list@example.org';
      await add(address);
      expect(expectOk(await call('DELETE', one('O/Brien+List@Example.org')))).toEqual({ id: 'O/Brien+List@Example.org', deleted: true });
      expect(await rowsOf(team.teamId, address)).toHaveLength(0);
      expect(addresses(await list(`?search=${encodeURIComponent('brien')}`))).toEqual([]);
      expectError(await call('DELETE', one(address)), 404, 'NOT_FOUND');
      expectGqlError(await gql(GQL.delete, { address }), 'NOT_FOUND', 404);
      expect(await add(address)).toMatchObject({ address, reason: 'MANUAL', created: true });
    });

    it('GraphQL deleteMessageSuppression answers true; an xn-- domain names the Unicode row; a feedback row can be taken off too', async () => {
      await add('jürgen@straße.example');
      expect(gqlData(await gql(GQL.delete, { address: 'Jürgen@xn--strae-oqa.example' }))).toEqual({ deleteMessageSuppression: true });
      expect(await rowsOf(team.teamId, 'jürgen@straße.example')).toHaveLength(0);

      const bounced = fresh('bounced');
      await suppress(server.app.services.pool, team.teamId.toString(), bounced, 'HARD_BOUNCE', (await mailTo(team, bounced)).id);
      expect(expectOk(await call('DELETE', one(bounced)))).toEqual({ id: bounced, deleted: true });
      expect(await rowsOf(team.teamId, bounced)).toHaveLength(0);
    });

    it('an address never listed is 404; an empty one over GraphQL is 400', async () => {
      for (const address of [fresh('never'), 'not even an address', '%zz']) expectError(await call('DELETE', one(address)), 404, 'NOT_FOUND', address);
      expectGqlError(await gql(GQL.delete, { address: '  ' }), 'VALIDATION_ERROR', 400);
    });
  });

  describe('teams', () => {
    it("another team's address is absent from the list and 404 on delete, indistinguishable from a missing one; each team's list is its own", async () => {
      const theirs = fresh('theirs');
      await add(theirs, other.apiKey);
      expect(addresses(await list(`?search=${encodeURIComponent(theirs)}`))).toEqual([]);
      expect(addresses(await list('?limit=100'))).not.toContain(theirs);
      expect(gqlData(await gql(GQL.list, { search: theirs })).messageSuppressions.nodes).toEqual([]);
      const missing = expectError(await call('DELETE', one(fresh('missing'))), 404, 'NOT_FOUND');
      const foreign = expectError(await call('DELETE', one(theirs)), 404, 'NOT_FOUND');
      expect(foreign.message.replace(theirs, 'X')).toBe(missing.message.replace(/\S+@receiver\.example/, 'X'));
      expectGqlError(await gql(GQL.delete, { address: theirs }), 'NOT_FOUND', 404);
      expect(await rowsOf(other.teamId, theirs)).toHaveLength(1);

      // the same address on our list is a row of our own: 201, and deleting ours leaves theirs
      expect(await add(theirs)).toMatchObject({ address: theirs, created: true });
      expectOk(await call('DELETE', one(theirs)));
      expect(addresses(await list(`?search=${encodeURIComponent(theirs)}`, other.apiKey))).toEqual([theirs]);
    });
  });

  describe('permissions (privileged, OUTGOING_MESSAGES_SEND)', () => {
    const listed = 'guarded@example.org';
    let noFeatureKey: string;
    let viewKey: string;
    let editKey: string;
    beforeAll(async () => {
      await add(listed);
      noFeatureKey = (await createApiKey(server, team, { name: 'no sending', featurePermissions: ['TEAM_SETTINGS:VIEW', 'OUTGOING_MESSAGES_VIEW'] })).key;
      viewKey = (await createApiKey(server, team, { name: 'send view', featurePermissions: ['OUTGOING_MESSAGES_SEND:VIEW'] })).key;
      editKey = (await createApiKey(server, team, { name: 'send edit', featurePermissions: ['OUTGOING_MESSAGES_SEND'] })).key;
    });
    const writes = () => [['POST', PATH, { address: 'denied@example.org' }], ['DELETE', one(listed), undefined]] as const;

    it('without OUTGOING_MESSAGES_SEND (OUTGOING_MESSAGES_VIEW is not enough): 403 on every route, REST and GraphQL', async () => {
      for (const [method, path, body] of [['GET', PATH, undefined], ...writes()] as const) {
        expectError(await call(method, path, body, noFeatureKey), 403, 'PERMISSION_DENIED', `${method} ${path}`);
      }
      expectGqlError(await gql(GQL.list, {}, noFeatureKey), 'PERMISSION_DENIED', 403);
      expectGqlError(await gql(GQL.create, { input: { address: 'denied@example.org' } }, noFeatureKey), 'PERMISSION_DENIED', 403);
      expectGqlError(await gql(GQL.delete, { address: listed }, noFeatureKey), 'PERMISSION_DENIED', 403);
    });

    it('view level reads but cannot change the list; edit level can', async () => {
      expect(addresses(await list('?limit=100', viewKey))).toContain(listed);
      for (const [method, path, body] of writes()) expectError(await call(method, path, body, viewKey), 403, 'PERMISSION_DENIED', `${method} ${path}`);
      expectGqlError(await gql(GQL.delete, { address: listed }, viewKey), 'PERMISSION_DENIED', 403);
      expect(await rowsOf(team.teamId, listed)).toHaveLength(1);
      expect(await rowsOf(team.teamId, 'denied@example.org')).toHaveLength(0);

      const address = fresh('by-edit-key');
      await add(address, editKey);
      expectOk(await call('DELETE', one(address), undefined, editKey));
    });

    it('privileged: a session token is refused even with the feature', async () => {
      const token = (await mintSessionToken(server, editKey)).token;
      expectError(await call('GET', PATH, undefined, token), 403, 'PERMISSION_DENIED');
      expectError(await call('POST', PATH, { address: 'denied@example.org' }, token), 403, 'PERMISSION_DENIED');
      expectGqlError(await gql(GQL.list, {}, token), 'PERMISSION_DENIED', 403);
    });

    it('users: a member whose role has the feature may change the list, one without it gets 403', async () => {
      const senders = await createRole(server, team, { name: `senders ${Date.now()}`, featurePermissions: [{ name: 'OUTGOING_MESSAGES_SEND', level: 'EDIT' }] });
      const sender = await addMember(server, team, { teamRoleSimplyId: senders });
      const plain = await addMember(server, team);
      const address = fresh('by-member');
      expect(expectOk(await call('POST', PATH, { address }, sender.token, team.teamSimplyId), 201)).toMatchObject({ address, created: true });
      expectOk(await call('DELETE', one(address), undefined, sender.token, team.teamSimplyId));
      expectError(await call('GET', PATH, undefined, plain.token, team.teamSimplyId), 403, 'PERMISSION_DENIED');
      expectError(await call('DELETE', one(listed), undefined, plain.token, team.teamSimplyId), 403, 'PERMISSION_DENIED');
      expectGqlError(await gql(GQL.list, {}, plain.token, team.teamSimplyId), 'PERMISSION_DENIED', 403);
      expectError(await call('GET', PATH, undefined, ''), 401, 'UNAUTHENTICATED');
    });
  });

  describe('with the composer and the inbound listener', () => {
    it('a hard bounce lists the address with its mail and message; the next message skips it; taken off, it is mailed again', async () => {
      const t = await createTeam(server);
      const sender = await addSender(server, t);
      const people = await createPeople(server, t);
      const ada = fresh('ada');
      const bob = fresh('bob');
      // the record keeps the local part's case; the list holds the address lower-cased
      const bobInRecord = `B${bob.slice(1)}`;
      await addPeople(server, t, people, [{ first_name: 'Ada', email: ada, city: 'Ayr' }, { first_name: 'Bob', email: bobInRecord, city: 'Bath' }]);
      const { prisma } = server.app.services;
      const get = async (path: string) => expectOk(await server.request('GET', path, { token: t.apiKey }));
      const mailsTo = (address: string, subject: string) =>
        sink.received.filter((m) => m.rcptTo.some((a) => a.toLowerCase() === address) && m.headers.get('subject') === subject && (m.headers.get('from') ?? '').includes(sender.domain));
      const bobIn = async (messageSimplyId: string) => {
        const message = await prisma.outgoingMessage.findFirstOrThrow({ where: { teamId: t.teamId, simplyId: messageSimplyId } });
        return prisma.outgoingMessageRecipient.findFirstOrThrow({ where: { teamId: t.teamId, outgoingMessageId: message.id, address: bobInRecord } });
      };
      const sendAll = async (subject: string) => {
        const m = await createDraft(server, t.apiKey, draftBody(people, { subjectLine: subject }));
        await move(server, t.apiKey, m.id, 'SENDING');
        await until(`${subject} to be SENT`, async () => (await get(`${OUTGOING}/${m.id}`)).status === 'SENT');
        return m;
      };

      // 1. both get the first message; Bob's server reports a permanent failure to its return path
      const first = await sendAll('First');
      const bobsMail = await until('Bob to receive First', () => mailsTo(bob, 'First')[0]);
      await until('Ada to receive First', () => mailsTo(ada, 'First').length === 1);
      const dsn = deliveryStatusNotification({ returnPath: bobsMail.mailFrom, recipients: [{ action: 'failed', status: '5.1.1', finalRecipient: bobInRecord }], original: bobsMail.raw });
      expect((await sendToListener(server.app.services.inboundSmtp.address!.port, bobsMail.mailFrom, dsn)).response).toMatch(/^250/);

      // 2. the list shows why, with the mail and the composed message (by simplyId)
      const mail = await prisma.mailMessage.findUniqueOrThrow({ where: { id: (await bobIn(first.id)).mailMessageId! } });
      const [row] = expectOk(await server.request('GET', `${PATH}?reason=HARD_BOUNCE`, { token: t.apiKey }));
      expect(row).toEqual({ address: bob, reason: 'HARD_BOUNCE', createdAt: expect.any(String), mailSimplyId: mail.simplyId, outgoingMessageSimplyId: first.id });
      expect(gqlData(await gql(GQL.list, { search: bob.slice(0, 8).toUpperCase() }, t.apiKey)).messageSuppressions.nodes).toEqual([row]);

      // 3. the next message leaves Bob out
      const probe = await createDraft(server, t.apiKey, draftBody(people, { subjectLine: 'Probe' }));
      const before = await get(`${OUTGOING}/${probe.id}/send-readiness`);
      expect(before).toMatchObject({ ready: true, estimatedRecipients: 1 });
      expect(before.warnings.map((w: { code: string }) => w.code)).toContain('SUPPRESSED_RECIPIENTS');
      const second = await sendAll('Second');
      await until('Ada to receive Second', () => mailsTo(ada, 'Second').length === 1);
      expect(await bobIn(second.id)).toMatchObject({ state: 'SUPPRESSED', mailMessageId: null });

      // 4. taken off the list (named as the record holds it), Bob is counted and mailed again
      expect(expectOk(await server.request('DELETE', one(bobInRecord), { token: t.apiKey }))).toEqual({ id: bobInRecord, deleted: true });
      const after = await get(`${OUTGOING}/${probe.id}/send-readiness`);
      expect(after).toMatchObject({ ready: true, estimatedRecipients: 2 });
      expect(after.warnings.map((w: { code: string }) => w.code)).not.toContain('SUPPRESSED_RECIPIENTS');
      const third = await sendAll('Third');
      await until('Bob to receive Third', () => mailsTo(bob, 'Third').length === 1);
      expect((await bobIn(third.id)).state).not.toBe('SUPPRESSED');
      expect(mailsTo(bob, 'Second')).toEqual([]);
      expect(expectOk(await server.request('GET', PATH, { token: t.apiKey }))).toEqual([]);
    });
  });
});
