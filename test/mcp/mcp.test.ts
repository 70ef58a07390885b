// The hosted MCP server with the official MCP client: the 2026-07-28 revision (server/discover,
// stateless) and the 2025 `initialize` handshake on the same endpoint; tools over the team's
// collections and records answering exactly what REST answers (the team's records only, the
// caller's scopes); no credential or a token for /v1 is a 401 pointing at the protected resource
// metadata; two instances behind round robin serve one client with no sticky sessions.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Agent, fetch as undiciFetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCollection, type CollectionFixture } from '../support/data-fixtures.ts';
import { oauthToken } from '../support/oauth-fixtures.ts';
import { createRecord } from '../support/record-fixtures.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { useServer } from '../support/use-server.ts';

const { server, teams } = useServer({ teams: 2 });
const [team, other] = teams;

let dispatcher: Agent;
let people: CollectionFixture;
let annId: string;
let theirRecordId: string;
let second: TestServer;

const fetchVia = (bases: () => string): typeof fetch =>
  ((url: string | URL, init?: RequestInit) => {
    // round robin: each request may go to another instance, with nothing to tie it to the first
    const target = new URL(String(url));
    const base = new URL(bases());
    target.host = base.host;
    return undiciFetch(target, { ...(init as object), dispatcher });
  }) as unknown as typeof fetch;

async function connect(token: string, mode: 'auto' | 'legacy' = 'auto', bases: () => string = () => server.baseUrl, versions?: string[]): Promise<Client> {
  const client = new Client({ name: 'platform-test', version: '1.0.0' }, { versionNegotiation: { mode }, ...(versions ? { supportedProtocolVersions: versions } : {}) });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/mcp`), { fetch: fetchVia(bases), requestInit: { headers: { authorization: `Bearer ${token}` } } }),
  );
  return client;
}

const textOf = (result: { content: unknown }) => ((result.content as { type: string; text: string }[])[0]?.text ?? '');

beforeAll(async () => {
  dispatcher = new Agent({ connect: { ca: server.ca } });
  people = await createCollection(server, team, { name: 'People', fields: { name: 'PLAIN_TEXT', city: 'PLAIN_TEXT' } });
  annId = (await createRecord(server, team.apiKey, people.id, { [people.fields.name!]: 'Ann', [people.fields.city!]: 'Oslo' })).id;
  await createRecord(server, team.apiKey, people.id, { [people.fields.name!]: 'Bo', [people.fields.city!]: 'Bergen' });
  const theirs = await createCollection(server, other, { name: 'Theirs', fields: { name: 'PLAIN_TEXT' } });
  theirRecordId = (await createRecord(server, other.apiKey, theirs.id, { [theirs.fields.name!]: 'secret' })).id;
  // a second instance of the same platform (same database, same data folder)
  second = await startTestServer({ dataDir: server.dataDir });
});

afterAll(async () => {
  await second?.close();
  await dispatcher?.close();
});

describe('the MCP endpoint', () => {
  it('speaks the 2026-07-28 revision: tools described from the team\'s collections, searching, counting, reading and writing records', async () => {
    const client = await connect(team.apiKey, 'auto');
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['count_records', 'create_record', 'get_record', 'list_collections', 'search_records', 'update_record']);
    const search = tools.find((t) => t.name === 'search_records')!;
    expect(search.description).toContain(`People (${people.id}, 2 records)`);
    expect(search.description).toContain(`city ${people.fields.city} PLAIN_TEXT`);

    const found = await client.callTool({ name: 'search_records', arguments: { dataCollectionSimplyId: people.id, filters: [{ field: people.fields.city, operator: 'eq', value: 'Oslo' }] } });
    expect(found.isError).toBeFalsy();
    const page = found.structuredContent as { nodes: { dataRecordSimplyId: string; name: string }[]; totalCount: number };
    expect(page.nodes.map((n) => n.dataRecordSimplyId)).toEqual([annId]);
    expect(JSON.parse(textOf(found))).toEqual(page);

    const counted = await client.callTool({ name: 'count_records', arguments: { dataCollectionSimplyId: people.id } });
    expect(counted.structuredContent).toEqual({ totalCount: 2 });
    const filtered = await client.callTool({ name: 'count_records', arguments: { dataCollectionSimplyId: people.id, filters: [{ field: people.fields.city, operator: 'eq', value: 'Bergen' }] } });
    expect(filtered.structuredContent).toEqual({ totalCount: 1 });

    const created = await client.callTool({ name: 'create_record', arguments: { dataCollectionSimplyId: people.id, fields: { [people.fields.name!]: 'Cy' } } });
    const id = (created.structuredContent as { record: { dataRecordSimplyId: string } }).record.dataRecordSimplyId;
    await client.callTool({ name: 'update_record', arguments: { dataRecordSimplyId: id, fields: { [people.fields.city!]: 'Tromsø' } } });
    // what REST reads is what the tools wrote
    const viaRest = await server.request('GET', `/v1/data-records/${id}`, { token: team.apiKey });
    expect(viaRest.body.data.fields).toMatchObject({ [people.fields.name!]: 'Cy', [people.fields.city!]: 'Tromsø' });
    await client.callTool({ name: 'update_record', arguments: { dataRecordSimplyId: id, fields: {} } });
    await client.close();
  });

  it('speaks the 2025 initialize handshake on the same endpoint (2025-11-25 and 2025-06-18)', async () => {
    for (const version of ['2025-11-25', '2025-06-18']) {
      const client = await connect(team.apiKey, 'legacy', undefined, [version]);
      expect(client.getNegotiatedProtocolVersion()).toBe(version);
      const got = await client.callTool({ name: 'get_record', arguments: { dataRecordSimplyId: annId } });
      expect((got.structuredContent as { fields: Record<string, string> }).fields[people.fields.name!], version).toBe('Ann');
      await client.close();
    }
  });

  it('answers another team\'s ids as not found and refuses bad arguments, as REST does', async () => {
    const client = await connect(team.apiKey);
    const theirs = await client.callTool({ name: 'get_record', arguments: { dataRecordSimplyId: theirRecordId } });
    expect(theirs.isError).toBe(true);
    expect(textOf(theirs)).toMatch(/^NOT_FOUND \(404\)/);
    const unknownField = await client.callTool({ name: 'search_records', arguments: { dataCollectionSimplyId: people.id, limit: 1000 } });
    expect(unknownField.isError).toBe(true);
    await client.close();
  });

  it('without a credential: 401 with the protected resource metadata, which names the authorization server', async () => {
    const response = await server.request('POST', '/mcp', { body: { jsonrpc: '2.0', id: 1, method: 'tools/list' } });
    expect(response.status).toBe(401);
    const challenge = response.headers.get('www-authenticate')!;
    expect(challenge).toBe(`Bearer resource_metadata="${server.baseUrl}/.well-known/oauth-protected-resource/mcp"`);
    const metadata = await server.request('GET', '/.well-known/oauth-protected-resource/mcp');
    expect(metadata.body).toMatchObject({ resource: `${server.baseUrl}/mcp`, authorization_servers: [server.baseUrl] });
    expect(metadata.body.scopes_supported).toContain('records:read');
    expect((await server.request('GET', '/.well-known/oauth-protected-resource')).body.resource).toBe(`${server.baseUrl}/mcp`);
    const bad = await server.request('POST', '/mcp', { token: 'svc_live_nonsense', body: { jsonrpc: '2.0', id: 1, method: 'tools/list' } });
    expect(bad.status).toBe(401);
    expect(bad.headers.get('www-authenticate')).toContain('error="invalid_token"');
  });

  it('serves one client from two instances in turn, with no sticky sessions', async () => {
    let turn = 0;
    const client = await connect(team.apiKey, 'auto', () => (turn++ % 2 === 0 ? server.baseUrl : second.baseUrl));
    for (let i = 0; i < 10; i++) {
      const counted = await client.callTool({ name: 'count_records', arguments: { dataCollectionSimplyId: people.id } });
      expect(counted.isError).toBeFalsy();
    }
    expect(turn).toBeGreaterThanOrEqual(10);
    await client.close();
  });
});

describe('the rate limit at /mcp', () => {
  it('is the caller\'s one budget with /v1 and /graphql (RATE_LIMIT_PER_MINUTE)', async () => {
    const limited = await startTestServer({ dataDir: server.dataDir, env: { RATE_LIMIT_PER_MINUTE: 3 } });
    try {
      const list = () => limited.request('POST', '/mcp', { token: team.apiKey, body: { jsonrpc: '2.0', id: 1, method: 'tools/list' }, headers: { accept: 'application/json, text/event-stream' } });
      expect((await limited.request('GET', '/v1/data-collections', { token: team.apiKey })).status).toBe(200);
      await list();
      await list();
      const refused = await list();
      expect(refused.status).toBe(429);
      expect(refused.body.error.code).toBe('RATE_LIMIT_EXCEEDED');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
  });
});

describe('OAuth access tokens at /mcp', () => {
  const tokenFor = (scope: string, resource: string) => oauthToken(server, team, scope, resource);

  it('a token for /mcp with records:read gets the read tools only, and a write is refused', async () => {
    const token = await tokenFor('schema:read records:read', `${server.baseUrl}/mcp`);
    const client = await connect(token);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['count_records', 'get_record', 'list_collections', 'search_records']);
    const got = await client.callTool({ name: 'get_record', arguments: { dataRecordSimplyId: annId } });
    expect((got.structuredContent as { fields: Record<string, string> }).fields[people.fields.name!]).toBe('Ann');
    await expect(client.callTool({ name: 'create_record', arguments: { dataCollectionSimplyId: people.id, fields: {} } })).rejects.toThrow(/create_record/);
    await client.close();
  });

  it('a token for /v1 is refused at /mcp', async () => {
    const token = await tokenFor('records:read', `${server.baseUrl}/v1`);
    const response = await server.request('POST', '/mcp', { token, body: { jsonrpc: '2.0', id: 1, method: 'tools/list' } });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain('resource_metadata=');
  });
});
