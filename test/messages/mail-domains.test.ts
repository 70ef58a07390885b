// Mail domains over REST (/v1/message-senders/domains) and GraphQL (mailDomains, createMailDomain,
// verifyMailDomain, deleteMailDomain): domain names, the TXT record to publish, verification end to
// end against a local DNS server (right record, missing, wrong, dead server), deleting, the
// privileged tier and other teams' ids.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Env } from '../../src/app/config.ts';
import { operation } from '../../src/app/graphql/fragments.ts';
import { MAIL_DOMAIN } from '../../src/modules/messages/messages.fragments.ts';
import { mintSessionToken } from '../support/credentials-fixtures.ts';
import { silentDnsServer, startDnsServer, type LocalDnsServer } from '../support/dns-server.ts';
import { expectError, expectGqlError, expectOk, gqlData } from '../support/expect-envelope.ts';
import { addMember, createApiKey, createRole } from '../support/fixtures.ts';
import { restCaller } from '../support/rest-caller.ts';
import { useServer } from '../support/use-server.ts';

const PATH = '/v1/message-senders/domains';
const ID = /^mdm-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}$/;
const FIELDS = ['createdAt', 'domain', 'id', 'lastCheckError', 'lastCheckedAt', 'status', 'verification', 'verifiedAt'];

const GQL = {
  list: operation(['query($limit: Int, $offset: Int) { mailDomains(limit: $limit, offset: $offset) { nodes { ', ' } pagination { total limit offset hasMore } } }'], MAIL_DOMAIN),
  create: operation(['mutation($input: CreateMailDomainInput!) { createMailDomain(input: $input) { ', ' } }'], MAIL_DOMAIN),
  verify: operation(['mutation($id: String!) { verifyMailDomain(mailDomainSimplyId: $id) { mailDomainSimplyId ', ' } }'], MAIL_DOMAIN),
  delete: 'mutation($id: String!) { deleteMailDomain(mailDomainSimplyId: $id) }',
};

let n = 0;
const domainName = (label = 'd') => `${label}-${process.pid}-${Date.now().toString(36)}-${n++}.example`;

describe('mail domains', () => {
  // the server reads its env when it starts, after this file's DNS server is up
  const env: Partial<Env> = {};
  let dns: LocalDnsServer;
  beforeAll(async () => {
    dns = await startDnsServer();
    env.MAIL_DOMAIN_DNS_SERVERS = dns.address;
  });
  afterAll(() => dns?.close());
  const { server, teams: [team, other] } = useServer({ teams: 2, env });
  const call = restCaller(() => server, () => team.apiKey);
  const gql = (query: string, variables: Record<string, unknown> = {}, token = team.apiKey) => server.graphql(query, variables, { token });
  const create = async (domain: string, token?: string) => expectOk(await call('POST', PATH, { domain }, token), 201);
  const publish = (d: { verification: { recordName: string; recordValue: string } }, ...extra: string[]) => dns.txt.set(d.verification.recordName, [...extra, d.verification.recordValue]);

  describe('adding a domain', () => {
    it('answers it PENDING with the TXT record to publish; lists it', async () => {
      const name = domainName();
      const d = await create(name);
      expect(Object.keys(d).sort()).toEqual(FIELDS);
      expect(d).toMatchObject({ domain: name, status: 'PENDING', verifiedAt: null, lastCheckedAt: null, lastCheckError: null });
      expect(d.id).toMatch(ID);
      expect(d.verification).toEqual({ recordType: 'TXT', recordName: `_svc-verification.${name}`, recordValue: expect.stringMatching(/^svc-domain-verification=[A-Za-z0-9_-]{32}$/) });
      expect(expectOk(await call('GET', PATH)).find((x: { id: string }) => x.id === d.id)).toEqual(d);
      // every domain has its own token
      const again = await create(domainName());
      expect(again.verification.recordValue).not.toBe(d.verification.recordValue);
    });

    it('normalizes: lower case, no trailing dot, IDNA to punycode; the same domain twice is 409, another team may add it', async () => {
      const base = domainName('Mixed');
      expect((await create(`  ${base.toUpperCase()}.  `)).domain).toBe(base.toLowerCase());
      expectError(await call('POST', PATH, { domain: base.toLowerCase() }), 409, 'CONFLICT');
      expectGqlError(await gql(GQL.create, { input: { domain: base } }), 'CONFLICT', 409);
      expect((await create(base, other.apiKey)).domain).toBe(base.toLowerCase());

      const unicode = `bücher-${n++}-${process.pid}.example`;
      const d = await create(unicode);
      expect(d.domain).toMatch(/^xn--bcher-.*\.example$/);
      expect(d.verification.recordName).toBe(`_svc-verification.${d.domain}`);
      expectError(await call('POST', PATH, { domain: d.domain }), 409, 'CONFLICT');
    });

    it('refuses what is not a domain name with 400 naming domain', async () => {
      const bad: unknown[] = ['', '   ', 'localhost', '127.0.0.1', '10.0.0.1.', '[::1]', '::1', 'exa mple.org', '-bad.example', 'bad-.example', 'a..example', `${'a'.repeat(64)}.example`,
        `${Array.from({ length: 60 }, () => 'abcd').join('.')}.example`, 'example.123', 'user@example.org', 'https://example.org', 42, null];
      for (const domain of bad) {
        const error = expectError(await call('POST', PATH, { domain }), 400, 'VALIDATION_ERROR', JSON.stringify(domain));
        expect(error.details?.map((x) => x.field), JSON.stringify(domain)).toContain('domain');
      }
      expect(expectError(await call('POST', PATH, {}), 400, 'VALIDATION_ERROR').details?.[0]?.field).toBe('domain');
      expect(expectError(await call('POST', PATH, { domain: domainName(), status: 'VERIFIED' }), 400, 'VALIDATION_ERROR').details?.[0]?.field).toBe('status');
      expectGqlError(await gql(GQL.create, { input: { domain: '127.0.0.1' } }), 'VALIDATION_ERROR', 400);
      // the longest names are fine: 63-character labels, 253 characters in all
      const longest = `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(61)}`;
      expect(longest).toHaveLength(253);
      expect((await create(longest)).domain).toBe(longest);
      expectError(await call('POST', PATH, { domain: `${longest}e` }), 400, 'VALIDATION_ERROR');
    });
  });

  describe('verification against the DNS server', () => {
    it('the right record: VERIFIED with verifiedAt; over GraphQL too', async () => {
      const d = await create(domainName());
      publish(d, 'v=spf1 -all');
      const verified = expectOk(await call('POST', `${PATH}/${d.id}/verify`));
      expect(verified).toMatchObject({ id: d.id, status: 'VERIFIED', verifiedAt: expect.any(String), lastCheckedAt: expect.any(String), lastCheckError: null });
      expect(dns.questions.some((q) => q.name === d.verification.recordName && q.type === 16)).toBe(true);

      const g = await create(domainName());
      publish(g);
      expect(gqlData(await gql(GQL.verify, { id: g.id })).verifyMailDomain).toMatchObject({ mailDomainSimplyId: g.id, status: 'VERIFIED' });
      expect(gqlData(await gql(GQL.list, { limit: 100 })).mailDomains.nodes.find((x: { id: string }) => x.id === g.id).status).toBe('VERIFIED');
    });

    it('a value split into several strings counts as one (long TXT records are published that way)', async () => {
      const d = await create(domainName());
      const value: string = d.verification.recordValue;
      dns.txt.set(d.verification.recordName, []);
      // dns2 writes an array as the character-strings of one record
      dns.txt.set(d.verification.recordName, [[value.slice(0, 10), value.slice(10)] as unknown as string]);
      expect(expectOk(await call('POST', `${PATH}/${d.id}/verify`)).status).toBe('VERIFIED');
    });

    it('no record, or only other values: 200, still PENDING, lastCheckError says why; publishing later verifies', async () => {
      const d = await create(domainName());
      const missing = expectOk(await call('POST', `${PATH}/${d.id}/verify`));
      expect(missing).toMatchObject({ status: 'PENDING', verifiedAt: null, lastCheckedAt: expect.any(String), lastCheckError: `no TXT record found at ${d.verification.recordName}` });

      dns.txt.set(d.verification.recordName, ['svc-domain-verification=someone-elses-token', 'v=spf1 -all']);
      const wrong = expectOk(await call('POST', `${PATH}/${d.id}/verify`));
      expect(wrong.status).toBe('PENDING');
      expect(wrong.lastCheckError).toBe(`2 TXT records found at ${d.verification.recordName}, but none is ${d.verification.recordValue}`);

      // a record at the domain itself (not the verification name) is not the proof
      dns.txt.set(d.domain, [d.verification.recordValue]);
      dns.txt.delete(d.verification.recordName);
      expect(expectOk(await call('POST', `${PATH}/${d.id}/verify`))).toMatchObject({ status: 'PENDING', lastCheckError: expect.stringContaining('no TXT record') });

      publish(d);
      expect(expectOk(await call('POST', `${PATH}/${d.id}/verify`))).toMatchObject({ status: 'VERIFIED', lastCheckError: null });
    });

    it('a VERIFIED domain stays verified when a later check fails; the failure is recorded', async () => {
      const d = await create(domainName());
      publish(d);
      const first = expectOk(await call('POST', `${PATH}/${d.id}/verify`));
      dns.txt.delete(d.verification.recordName);
      const later = expectOk(await call('POST', `${PATH}/${d.id}/verify`));
      expect(later).toMatchObject({ status: 'VERIFIED', verifiedAt: first.verifiedAt, lastCheckError: expect.stringContaining('no TXT record') });
      publish(d);
      expect(expectOk(await call('POST', `${PATH}/${d.id}/verify`))).toMatchObject({ status: 'VERIFIED', verifiedAt: first.verifiedAt, lastCheckError: null });
    });
  });

  describe('delete', () => {
    it('removes the domain; again is 404; GraphQL answers true', async () => {
      const d = await create(domainName());
      expect(expectOk(await call('DELETE', `${PATH}/${d.id}`))).toEqual({ id: d.id, deleted: true });
      expect(expectOk(await call('GET', `${PATH}?limit=100`)).map((x: { id: string }) => x.id)).not.toContain(d.id);
      expectError(await call('DELETE', `${PATH}/${d.id}`), 404, 'NOT_FOUND');
      expectError(await call('POST', `${PATH}/${d.id}/verify`), 404, 'NOT_FOUND');
      // the name is free again
      const again = await create(d.domain);
      expect(gqlData(await gql(GQL.delete, { id: again.id }))).toEqual({ deleteMailDomain: true });
    });

    it('is refused (409) while an active sender uses it; allowed once the senders are archived', async () => {
      const d = await create(domainName());
      publish(d);
      expectOk(await call('POST', `${PATH}/${d.id}/verify`));
      const sender = expectOk(await call('POST', '/v1/message-senders', { name: 'News', emailAddress: `news@${d.domain}` }), 201);
      const refused = expectError(await call('DELETE', `${PATH}/${d.id}`), 409, 'CONFLICT');
      expect(refused.message).toContain('1 active sender');
      expectGqlError(await gql(GQL.delete, { id: d.id }), 'CONFLICT', 409);
      expectOk(await call('DELETE', `/v1/message-senders/${sender.id}`));
      expectOk(await call('DELETE', `${PATH}/${d.id}`));
      // the archived sender keeps its address
      const row = await server.app.services.prisma.messageSender.findFirstOrThrow({ where: { simplyId: sender.id } });
      expect(row).toMatchObject({ emailAddress: `news@${d.domain}`, domainId: null, archivedAt: expect.any(Date) });
    });
  });

  describe('teams and ids', () => {
    it("another team's domain is 404 on every route, like a missing one; malformed ids are 400", async () => {
      const theirs = await create(domainName(), other.apiKey);
      for (const id of [theirs.id, 'mdm-2222-2222-2222']) {
        expectError(await call('POST', `${PATH}/${id}/verify`), 404, 'NOT_FOUND', id);
        expectError(await call('DELETE', `${PATH}/${id}`), 404, 'NOT_FOUND', id);
        expectGqlError(await gql(GQL.verify, { id }), 'NOT_FOUND', 404);
        expectGqlError(await gql(GQL.delete, { id }), 'NOT_FOUND', 404);
      }
      expect(expectOk(await call('GET', `${PATH}?limit=100`)).map((x: { id: string }) => x.id)).not.toContain(theirs.id);
      expect(expectOk(await call('GET', `${PATH}?limit=100`, undefined, other.apiKey)).map((x: { id: string }) => x.id)).toContain(theirs.id);
      for (const id of ['123', 'msn-2222-2222-2222', 'mdm-2222-2222']) {
        expect(expectError(await call('POST', `${PATH}/${id}/verify`), 400, 'VALIDATION_ERROR', id).details?.[0]?.field).toBe('mailDomainSimplyId');
      }
    });
  });

  describe('permissions (privileged: OUTGOING_MESSAGES_SEND edit)', () => {
    it('API keys need the feature at edit level; session tokens are refused even with it; team admins pass', async () => {
      const d = await create(domainName());
      const role = await createRole(server, team, { name: `settings only ${Date.now()}`, featurePermissions: [{ name: 'TEAM_SETTINGS', level: 'VIEW' }] });
      const none = (await createApiKey(server, team, { name: 'no send', teamRoleSimplyId: role, featurePermissions: ['TEAM_SETTINGS:VIEW'] })).key;
      const viewOnly = (await createApiKey(server, team, { name: 'send view', featurePermissions: ['OUTGOING_MESSAGES_SEND:VIEW', 'OUTGOING_MESSAGES_VIEW'] })).key;
      const sender = (await createApiKey(server, team, { name: 'send edit', featurePermissions: ['OUTGOING_MESSAGES_SEND'] })).key;
      const session = (await mintSessionToken(server, team.apiKey)).token;
      const routes = [['GET', PATH, undefined], ['POST', PATH, { domain: domainName() }], ['POST', `${PATH}/${d.id}/verify`, undefined], ['DELETE', `${PATH}/${d.id}`, undefined]] as const;
      for (const token of [none, viewOnly, session]) {
        for (const [method, path, body] of routes) expectError(await call(method, path, body, token), 403, 'PERMISSION_DENIED', `${method} ${path}`);
        expectGqlError(await gql(GQL.list, {}, token), 'PERMISSION_DENIED', 403);
        expectGqlError(await gql(GQL.create, { input: { domain: domainName() } }, token), 'PERMISSION_DENIED', 403);
      }
      expect((await create(domainName(), sender)).status).toBe('PENDING');
      expectOk(await call('GET', PATH, undefined, sender));

      const plain = await addMember(server, team);
      expectError(await call('GET', PATH, undefined, plain.token, team.teamSimplyId), 403, 'PERMISSION_DENIED');
      expectOk(await call('GET', PATH, undefined, team.userToken, team.teamSimplyId));
      expectError(await call('GET', PATH, undefined, ''), 401, 'UNAUTHENTICATED');
    });
  });
});

describe('mail domains with a DNS server that never answers', () => {
  const env: Partial<Env> = {};
  let silent: Awaited<ReturnType<typeof silentDnsServer>>;
  beforeAll(async () => {
    silent = await silentDnsServer();
    env.MAIL_DOMAIN_DNS_SERVERS = silent.address;
  });
  afterAll(() => silent?.close());
  const { server, teams: [team] } = useServer({ teams: 1, env });

  it('answers within the bound: still PENDING, lastCheckError says the lookup timed out', async () => {
    const d = expectOk(await server.request('POST', PATH, { token: team.apiKey, body: { domain: domainName() } }), 201);
    const started = Date.now();
    const checked = expectOk(await server.request('POST', `${PATH}/${d.id}/verify`, { token: team.apiKey }));
    const took = Date.now() - started;
    expect(checked).toMatchObject({ status: 'PENDING', lastCheckError: expect.stringContaining('timed out') });
    expect(took).toBeGreaterThanOrEqual(1_500);
    expect(took).toBeLessThan(4_000);
  });
});
