// Message senders over REST (/v1/message-senders) and GraphQL (messageSenders, createMessageSender,
// updateMessageSender, deleteMessageSender): verified at once on a verified domain, PENDING on any
// other (the confirmation link: sender-verification.test.ts), one default per channel (also under concurrent switches), archiving, the read and management
// tiers, and other teams' ids.
import type { Env } from '../../src/app/config.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operation } from '../../src/app/graphql/fragments.ts';
import { MESSAGE_SENDER } from '../../src/modules/messages/messages.fragments.ts';
import { mintSessionToken } from '../support/credentials-fixtures.ts';
import { startDnsServer, type LocalDnsServer } from '../support/dns-server.ts';
import { expectError, expectGqlError, expectOk, gqlData } from '../support/expect-envelope.ts';
import { addMember, createApiKey, createRole, createTeam, type TeamFixture } from '../support/fixtures.ts';
import { restCaller } from '../support/rest-caller.ts';
import { useServer } from '../support/use-server.ts';

const PATH = '/v1/message-senders';
const DOMAINS = `${PATH}/domains`;
const ID = /^msn-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}$/;
const FIELDS = ['createdAt', 'deliveryMethod', 'emailAddress', 'id', 'isDefault', 'name', 'phoneNumber', 'updatedAt', 'verificationStatus', 'verifiedAt'];

const GQL = {
  list: operation(['query($deliveryMethod: String) { messageSenders(limit: 100, deliveryMethod: $deliveryMethod) { nodes { ', ' } pagination { total } } }'], MESSAGE_SENDER),
  create: operation(['mutation($input: CreateMessageSenderInput!) { createMessageSender(input: $input) { ', ' } }'], MESSAGE_SENDER),
  update: operation(['mutation($id: String!, $input: UpdateMessageSenderInput!) { updateMessageSender(messageSenderSimplyId: $id, input: $input) { messageSenderSimplyId ', ' } }'], MESSAGE_SENDER),
  delete: 'mutation($id: String!) { deleteMessageSender(messageSenderSimplyId: $id) }',
};

let n = 0;
const domainName = () => `s-${process.pid}-${Date.now().toString(36)}-${n++}.example`;
type Sender = { id: string; name: string; isDefault: boolean; emailAddress: string; verificationStatus: string };

describe('message senders', () => {
  const env: Partial<Env> = {};
  let dns: LocalDnsServer;
  beforeAll(async () => {
    dns = await startDnsServer();
    env.MAIL_DOMAIN_DNS_SERVERS = dns.address;
  });
  afterAll(() => dns?.close());
  const { server, teams: [team, other] } = useServer({ teams: 2, env });
  const call = restCaller(() => server, () => team.apiKey);
  const gql = (query: string, variables: Record<string, unknown> = {}, token = team.apiKey, teamId?: string) => server.graphql(query, variables, { token, teamId });

  /** a domain of the team, verified through the DNS server unless `verified` is false */
  async function domainOf(t: TeamFixture, verified = true): Promise<string> {
    const d = expectOk(await server.request('POST', DOMAINS, { token: t.apiKey, body: { domain: domainName() } }), 201);
    if (verified) {
      dns.txt.set(d.verification.recordName, [d.verification.recordValue]);
      expect(expectOk(await server.request('POST', `${DOMAINS}/${d.id}/verify`, { token: t.apiKey })).status).toBe('VERIFIED');
    }
    return d.domain;
  }
  const create = async (body: Record<string, unknown>, token?: string): Promise<Sender> => expectOk(await call('POST', PATH, body, token), 201);
  const list = async (t: TeamFixture = team): Promise<Sender[]> => expectOk(await call('GET', `${PATH}?limit=100`, undefined, t.apiKey));
  const defaults = async (t: TeamFixture) => (await list(t)).filter((s) => s.isDefault).map((s) => s.id);

  describe('create and list', () => {
    it('creates an EMAIL sender on a verified domain (case-insensitive); the first one is the default', async () => {
      const t = await createTeam(server);
      const domain = await domainOf(t);
      const first = await create({ name: ' Newsletter ', emailAddress: `News.Letter@${domain.toUpperCase()}` }, t.apiKey);
      expect(Object.keys(first).sort()).toEqual(FIELDS);
      expect(first).toMatchObject({ name: 'Newsletter', deliveryMethod: 'EMAIL', emailAddress: `News.Letter@${domain}`, phoneNumber: null, isDefault: true, verificationStatus: 'VERIFIED', verifiedAt: expect.any(String) });
      expect(first.id).toMatch(ID);
      const second = await create({ name: 'Support', emailAddress: `support@${domain}` }, t.apiKey);
      expect(second.isDefault).toBe(false);
      expect((await list(t)).map((s) => s.id)).toEqual([first.id, second.id]);
      // GraphQL reads the same
      const page = gqlData(await gql(GQL.list, { deliveryMethod: 'EMAIL' }, t.apiKey)).messageSenders;
      expect(page.nodes).toEqual(await list(t));
      expect(gqlData(await gql(GQL.list, { deliveryMethod: 'SMS' }, t.apiKey)).messageSenders.nodes).toEqual([]);
      expectError(await call('GET', `${PATH}?deliveryMethod=PIGEON`, undefined, t.apiKey), 400, 'VALIDATION_ERROR');
      // isDefault on create takes the default over
      const third = expectOk(await call('POST', PATH, { name: 'Boss', emailAddress: `boss@${domain}`, isDefault: true }, t.apiKey), 201);
      expect(await defaults(t)).toEqual([third.id]);
      const byGql = gqlData(await gql(GQL.create, { input: { name: 'gql', emailAddress: `gql@${domain}` } }, t.apiKey)).createMessageSender;
      expect(byGql).toMatchObject({ name: 'gql', isDefault: false, emailAddress: `gql@${domain}` });
    });

    it("an address of an unverified, unknown or other team's domain is created PENDING (its confirmation: sender-verification.test.ts)", async () => {
      const t = await createTeam(server);
      const pending = await domainOf(t, false);
      const theirs = await domainOf(other);
      for (const emailAddress of [`news@${pending}`, `news@${theirs}`, 'news@nobody-added-this.example', `news@sub.${theirs}`]) {
        expect(await create({ name: 'x', emailAddress }, t.apiKey), emailAddress).toMatchObject({ emailAddress, verificationStatus: 'PENDING', verifiedAt: null });
        const byGql = gqlData(await gql(GQL.create, { input: { name: 'x', emailAddress } }, t.apiKey)).createMessageSender;
        expect(byGql).toMatchObject({ emailAddress, verificationStatus: 'PENDING' });
      }
      expect((await list(t)).filter((s) => s.verificationStatus === 'PENDING')).toHaveLength(8);
    });

    it('refuses bad input and other channels with 400 naming the field', async () => {
      const domain = await domainOf(team);
      const cases: [Record<string, unknown>, string][] = [
        [{ emailAddress: `a@${domain}` }, 'name'],
        [{ name: '', emailAddress: `a@${domain}` }, 'name'],
        [{ name: 'x'.repeat(201), emailAddress: `a@${domain}` }, 'name'],
        [{ name: 'two\r\nBcc: x@example.test', emailAddress: `a@${domain}` }, 'name'],
        [{ name: 'ok' }, 'emailAddress'],
        [{ name: 'ok', emailAddress: 'not an address' }, 'emailAddress'],
        [{ name: 'ok', emailAddress: `@${domain}` }, 'emailAddress'],
        [{ name: 'ok', emailAddress: `a b@${domain}` }, 'emailAddress'],
        [{ name: 'ok', emailAddress: `${'a'.repeat(65)}@${domain}` }, 'emailAddress'],
        [{ name: 'ok', emailAddress: 'a@127.0.0.1' }, 'emailAddress'],
        [{ name: 'ok', emailAddress: `a@${domain}\r\nBcc: x@example.test` }, 'emailAddress'],
        [{ name: 'ok', emailAddress: `a@${domain}`, deliveryMethod: 'SMS' }, 'deliveryMethod'],
        [{ name: 'ok', emailAddress: `a@${domain}`, deliveryMethod: 'WHATSAPP' }, 'deliveryMethod'],
        [{ name: 'ok', emailAddress: `a@${domain}`, deliveryMethod: 'PIGEON' }, 'deliveryMethod'],
        [{ name: 'ok', emailAddress: `a@${domain}`, phoneNumber: '+15555550100' }, 'phoneNumber'],
        [{ name: 'ok', emailAddress: `a@${domain}`, isDefault: 'yes' }, 'isDefault'],
      ];
      for (const [body, field] of cases) {
        const error = expectError(await call('POST', PATH, body), 400, 'VALIDATION_ERROR', JSON.stringify(body));
        expect(error.details?.map((d) => d.field), JSON.stringify(body)).toContain(field);
      }
      const sms = expectError(await call('POST', PATH, { name: 'ok', emailAddress: `a@${domain}`, deliveryMethod: 'SMS' }), 400, 'VALIDATION_ERROR');
      expect(sms.details?.[0]?.message).toContain('only EMAIL senders');
      expectGqlError(await gql(GQL.create, { input: { name: 'ok', emailAddress: `a@${domain}`, deliveryMethod: 'FACEBOOK' } }), 'VALIDATION_ERROR', 400);
    });
  });

  describe('update, default and archive', () => {
    it('renames; isDefault true moves the default; false is refused; archived is 404', async () => {
      const t = await createTeam(server);
      const domain = await domainOf(t);
      const a = await create({ name: 'a', emailAddress: `a@${domain}` }, t.apiKey);
      const b = await create({ name: 'b', emailAddress: `b@${domain}` }, t.apiKey);
      const c = await create({ name: 'c', emailAddress: `c@${domain}` }, t.apiKey);
      expect(expectOk(await call('PUT', `${PATH}/${b.id}`, { name: 'B!' }, t.apiKey))).toMatchObject({ id: b.id, name: 'B!', isDefault: false });
      expect(expectOk(await call('PUT', `${PATH}/${b.id}`, { isDefault: true }, t.apiKey))).toMatchObject({ isDefault: true });
      expect(await defaults(t)).toEqual([b.id]);
      const viaGql = gqlData(await gql(GQL.update, { id: c.id, input: { isDefault: true, name: 'C' } }, t.apiKey)).updateMessageSender;
      expect(viaGql).toMatchObject({ messageSenderSimplyId: c.id, name: 'C', isDefault: true });
      expect(await defaults(t)).toEqual([c.id]);
      for (const body of [{ isDefault: false }, { name: '' }, { emailAddress: `x@${domain}` }]) {
        expectError(await call('PUT', `${PATH}/${a.id}`, body, t.apiKey), 400, 'VALIDATION_ERROR', JSON.stringify(body));
      }

      // archiving the default hands it to the oldest remaining sender
      expect(expectOk(await call('DELETE', `${PATH}/${c.id}`, undefined, t.apiKey))).toEqual({ id: c.id, deleted: true });
      expect(await defaults(t)).toEqual([a.id]);
      expect((await list(t)).map((s) => s.id)).toEqual([a.id, b.id]);
      expectError(await call('DELETE', `${PATH}/${c.id}`, undefined, t.apiKey), 404, 'NOT_FOUND');
      expectError(await call('PUT', `${PATH}/${c.id}`, { name: 'back' }, t.apiKey), 404, 'NOT_FOUND');
      expect(gqlData(await gql(GQL.delete, { id: b.id }, t.apiKey))).toEqual({ deleteMessageSender: true });
      expect(gqlData(await gql(GQL.delete, { id: a.id }, t.apiKey))).toEqual({ deleteMessageSender: true });
      expect(await list(t)).toEqual([]);
      // a new first sender is the default again
      expect((await create({ name: 'd', emailAddress: `d@${domain}` }, t.apiKey)).isDefault).toBe(true);
    });

    it('concurrent default switches and creates leave exactly one default', async () => {
      const t = await createTeam(server);
      const domain = await domainOf(t);
      // concurrent first senders: one becomes the default
      const made = await Promise.all(Array.from({ length: 6 }, (_, i) => create({ name: `s${i}`, emailAddress: `s${i}@${domain}` }, t.apiKey)));
      expect(made.filter((s) => s.isDefault)).toHaveLength(1);
      expect(await defaults(t)).toHaveLength(1);
      for (let round = 0; round < 3; round++) {
        const answers = await Promise.all(made.map((s) => call('PUT', `${PATH}/${s.id}`, { isDefault: true }, t.apiKey)));
        for (const r of answers) expect(r.status, r.text).toBe(200);
        expect(await defaults(t)).toHaveLength(1);
      }
      // switches racing archives of the default
      const current = (await defaults(t))[0]!;
      const others = made.filter((s) => s.id !== current);
      const raced = await Promise.all([call('DELETE', `${PATH}/${current}`, undefined, t.apiKey), ...others.map((s) => call('PUT', `${PATH}/${s.id}`, { isDefault: true }, t.apiKey))]);
      for (const r of raced) expect(r.status, r.text).toBe(200);
      expect(await defaults(t)).toHaveLength(1);
    });
  });

  describe('teams and ids', () => {
    it("another team's sender is 404 on every route and never listed; malformed ids are 400", async () => {
      const theirs = await create({ name: 'theirs', emailAddress: `x@${await domainOf(other)}` }, other.apiKey);
      for (const id of [theirs.id, 'msn-2222-2222-2222']) {
        expectError(await call('PUT', `${PATH}/${id}`, { isDefault: true }), 404, 'NOT_FOUND', id);
        expectError(await call('DELETE', `${PATH}/${id}`), 404, 'NOT_FOUND', id);
        expectError(await call('POST', `${PATH}/${id}/resend-verification`), 404, 'NOT_FOUND', id);
        expectGqlError(await gql(GQL.update, { id, input: { name: 'mine' } }), 'NOT_FOUND', 404);
        expectGqlError(await gql(GQL.delete, { id }), 'NOT_FOUND', 404);
      }
      expect((await list()).map((s) => s.id)).not.toContain(theirs.id);
      expect((await list(other)).find((s) => s.id === theirs.id)).toMatchObject({ name: 'theirs' });
      for (const id of ['123', 'mdm-2222-2222-2222', 'msn-2222-2222']) {
        expect(expectError(await call('DELETE', `${PATH}/${id}`), 400, 'VALIDATION_ERROR', id).details?.[0]?.field).toBe('messageSenderSimplyId');
      }
    });
  });

  describe('permissions', () => {
    let sender: Sender;
    let none: string;
    let view: string;
    let sendView: string;
    let sendEdit: string;
    beforeAll(async () => {
      sender = await create({ name: 'guarded', emailAddress: `g@${await domainOf(team)}` });
      const role = await createRole(server, team, { name: `settings only ${Date.now()}`, featurePermissions: [{ name: 'TEAM_SETTINGS', level: 'VIEW' }] });
      none = (await createApiKey(server, team, { name: 'none', teamRoleSimplyId: role, featurePermissions: ['TEAM_SETTINGS:VIEW'] })).key;
      view = (await createApiKey(server, team, { name: 'view', featurePermissions: ['OUTGOING_MESSAGES_VIEW:VIEW'] })).key;
      sendView = (await createApiKey(server, team, { name: 'send view', featurePermissions: ['OUTGOING_MESSAGES_SEND:VIEW'] })).key;
      sendEdit = (await createApiKey(server, team, { name: 'send edit', featurePermissions: ['OUTGOING_MESSAGES_SEND'] })).key;
    });
    const writes = () =>
      [
        ['POST', PATH, { name: 'denied', emailAddress: sender.emailAddress }],
        ['PUT', `${PATH}/${sender.id}`, { name: 'denied' }],
        ['DELETE', `${PATH}/${sender.id}`, undefined],
        ['POST', `${PATH}/${sender.id}/resend-verification`, undefined],
      ] as const;

    it('reading needs OUTGOING_MESSAGES_VIEW or OUTGOING_MESSAGES_SEND (either level); keys and session tokens may read', async () => {
      expectError(await call('GET', PATH, undefined, none), 403, 'PERMISSION_DENIED');
      expectGqlError(await gql(GQL.list, {}, none), 'PERMISSION_DENIED', 403);
      for (const token of [view, sendView, sendEdit]) expect((await list({ ...team, apiKey: token })).map((s) => s.id)).toContain(sender.id);
      const session = (await mintSessionToken(server, view)).token;
      expect(gqlData(await gql(GQL.list, {}, session)).messageSenders.nodes.map((s: Sender) => s.id)).toContain(sender.id);
      const plain = await addMember(server, team);
      expectError(await call('GET', PATH, undefined, plain.token, team.teamSimplyId), 403, 'PERMISSION_DENIED');
      expectError(await call('GET', PATH, undefined, ''), 401, 'UNAUTHENTICATED');
    });

    it('managing is privileged: OUTGOING_MESSAGES_SEND edit; session tokens refused even with it', async () => {
      for (const token of [none, view, sendView, (await mintSessionToken(server, team.apiKey)).token]) {
        for (const [method, path, body] of writes()) expectError(await call(method, path, body, token), 403, 'PERMISSION_DENIED', `${method} ${path}`);
        expectGqlError(await gql(GQL.update, { id: sender.id, input: { name: 'denied' } }, token), 'PERMISSION_DENIED', 403);
      }
      expect(expectOk(await call('PUT', `${PATH}/${sender.id}`, { name: 'renamed by key' }, sendEdit)).name).toBe('renamed by key');
      expect(expectOk(await call('PUT', `${PATH}/${sender.id}`, { name: 'renamed by admin' }, team.userToken, team.teamSimplyId)).name).toBe('renamed by admin');
      const editors = await createRole(server, team, { name: `senders ${Date.now()}`, featurePermissions: [{ name: 'OUTGOING_MESSAGES_SEND', level: 'EDIT' }] });
      const editor = await addMember(server, team, { teamRoleSimplyId: editors });
      expect(expectOk(await call('PUT', `${PATH}/${sender.id}`, { name: 'renamed by member' }, editor.token, team.teamSimplyId)).name).toBe('renamed by member');
    });
  });
});
