// Action-tag resolver domains over REST (/v1/action-tags/domains) and GraphQL: the paid-plan gate
// and the allowance, the TXT record to publish, verification against a local DNS server (missing,
// right, a name another team holds), the certificate state, the host → team lookup the resolve
// path reads, removal, bad input and other teams' ids.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Env } from '../../src/app/config.ts';
import { setActionTagPlan } from '../../src/modules/action-tags/action-tag-plan.service.ts';
import { actionTagHosts } from '../../src/modules/action-tags/action-tag-domains.hosts.ts';
import { startDnsServer, type LocalDnsServer } from '../support/dns-server.ts';
import { expectError, expectGqlError, expectOk, gqlData } from '../support/expect-envelope.ts';
import { restCaller } from '../support/rest-caller.ts';
import { useServer } from '../support/use-server.ts';

const PATH = '/v1/action-tags/domains';
const ID = /^atdm-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}$/;

let n = 0;
const domainName = (label = 'go') => `${label}-${process.pid}-${Date.now().toString(36)}-${n++}.example`;

describe('action-tag domains', () => {
  // the server reads its env when it starts, after this file's DNS server is up
  const env: Partial<Env> = {};
  let dns: LocalDnsServer;
  beforeAll(async () => {
    dns = await startDnsServer();
    env.MAIL_DOMAIN_DNS_SERVERS = dns.address;
  });
  afterAll(() => dns?.close());
  const { server, teams: [team, other, standalone] } = useServer({ teams: 3, env });
  const call = restCaller(() => server, () => team.apiKey);
  beforeAll(async () => {
    await setActionTagPlan(server.app.services, team.teamSimplyId, { preset: 'paid-500', domainAllowance: 3 }, null);
    await setActionTagPlan(server.app.services, other.teamSimplyId, { preset: 'paid-500', domainAllowance: 3 }, null);
  });
  const create = async (domain: string, token?: string) => expectOk(await call('POST', PATH, { domain }, token), 201);
  const publish = (d: { verification: { recordName: string; recordValue: string } }) => dns.txt.set(d.verification.recordName, ['unrelated=1', d.verification.recordValue]);
  const hosts = () => actionTagHosts(server.app.services);

  it('needs a paid plan: a standalone team is refused every route', async () => {
    expectError(await call('GET', PATH, undefined, standalone.apiKey), 403, 'ACTION_TAG_PAID_PLAN_REQUIRED');
    expectError(await call('POST', PATH, { domain: domainName() }, standalone.apiKey), 403, 'ACTION_TAG_PAID_PLAN_REQUIRED');
  });

  it('adds a domain PENDING with the TXT record to publish, lists and reads it; the same name twice is 409', async () => {
    const name = domainName();
    const d = await create(`  ${name.toUpperCase()}. `);
    expect(d).toMatchObject({ domain: name, status: 'PENDING', verifiedAt: null, certificateStatus: 'UNCHECKED', lastCheckedAt: null, lastCheckError: null });
    expect(d.id).toMatch(ID);
    expect(d.verification).toEqual({ recordType: 'TXT', recordName: `_svc-verification.${name}`, recordValue: expect.stringMatching(/^svc-domain-verification=[A-Za-z0-9_-]{32}$/) });
    expect(expectOk(await call('GET', PATH)).find((x: { id: string }) => x.id === d.id)).toEqual(d);
    expect(expectOk(await call('GET', `${PATH}/${d.id}`))).toEqual(d);
    expectError(await call('POST', PATH, { domain: name }), 409, 'CONFLICT');
    await call('DELETE', `${PATH}/${d.id}`);
  });

  it('refuses what is not a host name with 400 naming domain', async () => {
    for (const domain of ['', 'localhost', '127.0.0.1', 'https://go.example.org', 'a..example', 42, null]) {
      const error = expectError(await call('POST', PATH, { domain }), 400, 'VALIDATION_ERROR', JSON.stringify(domain));
      expect(error.details?.map((x) => x.field)).toContain('domain');
    }
    expectError(await call('POST', PATH, { domain: domainName(), extra: 1 }), 400, 'VALIDATION_ERROR');
  });

  it('verifies on request: without the record it stays PENDING and says why; with it, VERIFIED and served by the host lookup', async () => {
    const d = await create(domainName());
    const missing = expectOk(await call('POST', `${PATH}/${d.id}/verify`));
    expect(missing).toMatchObject({ status: 'PENDING', verifiedAt: null, lastCheckError: `no TXT record found at ${d.verification.recordName}` });
    expect(missing.lastCheckedAt).not.toBeNull();
    // the local DNS server knows no address for the name: no certificate can be presented
    expect(missing).toMatchObject({ certificateStatus: 'MISSING', certificateExpiresAt: null, certificateError: expect.stringContaining('no address record') });

    publish(d);
    const verified = expectOk(await call('POST', `${PATH}/${d.id}/verify`));
    expect(verified).toMatchObject({ status: 'VERIFIED', lastCheckError: null });
    expect(verified.verifiedAt).not.toBeNull();
    expect(hosts().teamOfHost(`${d.domain.toUpperCase()}:443`)).toEqual({ teamId: team.teamId, teamSimplyId: team.teamSimplyId });
    expect(hosts().hostOfTeam(team.teamId)).toBe(d.domain);

    // a later failed check keeps it VERIFIED and records the failure
    dns.txt.delete(d.verification.recordName);
    const again = expectOk(await call('POST', `${PATH}/${d.id}/verify`));
    expect(again).toMatchObject({ status: 'VERIFIED', verifiedAt: verified.verifiedAt, lastCheckError: expect.stringContaining('no TXT record') });

    // another team may claim the name, but not hold it VERIFIED while this team does
    const theirs = await create(d.domain, other.apiKey);
    publish(theirs);
    expectError(await call('POST', `${PATH}/${theirs.id}/verify`, undefined, other.apiKey), 409, 'ACTION_TAG_DOMAIN_TAKEN');
    expect(hosts().teamOfHost(d.domain)?.teamSimplyId).toBe(team.teamSimplyId);

    // removed: the host serves nothing any more, and then the other team may verify it
    expect(expectOk(await call('DELETE', `${PATH}/${d.id}`))).toEqual({ id: d.id, deleted: true });
    expect(hosts().teamOfHost(d.domain)).toBeUndefined();
    expectError(await call('GET', `${PATH}/${d.id}`), 404, 'NOT_FOUND');
    expect(expectOk(await call('POST', `${PATH}/${theirs.id}/verify`, undefined, other.apiKey)).status).toBe('VERIFIED');
    expect(hosts().teamOfHost(d.domain)?.teamSimplyId).toBe(other.teamSimplyId);
    await call('DELETE', `${PATH}/${theirs.id}`, undefined, other.apiKey);
  });

  it("bounds the team's domains by the plan's allowance", async () => {
    await setActionTagPlan(server.app.services, other.teamSimplyId, { domainAllowance: 1 }, null);
    const first = await create(domainName(), other.apiKey);
    expectError(await call('POST', PATH, { domain: domainName() }, other.apiKey), 409, 'ACTION_TAG_DOMAIN_LIMIT_REACHED');
    await call('DELETE', `${PATH}/${first.id}`, undefined, other.apiKey);
    await create(domainName(), other.apiKey);
  });

  it("answers another team's ids 404 and a malformed id 400", async () => {
    const theirs = await create(domainName(), other.apiKey).catch(async () => expectOk(await call('GET', PATH, undefined, other.apiKey))[0]);
    for (const [method, suffix] of [['GET', ''], ['POST', '/verify'], ['DELETE', '']] as const) {
      expectError(await call(method, `${PATH}/${theirs.id}${suffix}`), 404, 'NOT_FOUND', `${method} ${suffix}`);
    }
    expect(expectError(await call('GET', `${PATH}/not-an-id`), 400, 'VALIDATION_ERROR').details?.[0]?.field).toBe('actionTagsDomainSimplyId');
  });

  it('has the same operations in GraphQL', async () => {
    const name = domainName('gql');
    const created = gqlData(await server.graphql('mutation($input: CreateActionTagDomainInput!) { createActionTagDomain(input: $input) { actionTagsDomainSimplyId domain status } }', { input: { domain: name } }, { token: team.apiKey }));
    expect(created.createActionTagDomain).toMatchObject({ domain: name, status: 'PENDING' });
    const id = created.createActionTagDomain.actionTagsDomainSimplyId;
    const list = gqlData(await server.graphql('{ actionTagDomains { nodes { actionTagsDomainSimplyId } pagination { total } } }', {}, { token: team.apiKey }));
    expect(list.actionTagDomains.nodes.map((d: { actionTagsDomainSimplyId: string }) => d.actionTagsDomainSimplyId)).toContain(id);
    expectGqlError(await server.graphql('mutation($id: String!) { verifyActionTagDomain(actionTagsDomainSimplyId: $id) { status } }', { id }, { token: other.apiKey }), 'NOT_FOUND', 404);
    expect(gqlData(await server.graphql('mutation($id: String!) { deleteActionTagDomain(actionTagsDomainSimplyId: $id) }', { id }, { token: team.apiKey })).deleteActionTagDomain).toBe(true);
  });
});
