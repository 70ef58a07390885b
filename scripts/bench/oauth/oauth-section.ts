// The OAuth and MCP section of `npm run bench`, on platform servers of its own (`svc start`) over a
// fresh database:
//   oauth-record-get     GET /v1/data-records/{id} with a warm OAuth access token against the same
//                        GET with an API key, alternating runs of 8 connections (throughput within
//                        5 % of the API key's)
//   oauth-code-exchange  the authorization-code exchange at the token endpoint (PKCE verified, a
//                        grant checked, an access and a refresh token issued), one flow at a time
//                        after a first-party consent (p95 < 50 ms)
//   mcp-search           an MCP tools/call of search_records against the same search through REST,
//                        one at a time (the MCP call adds p95 < 20 ms)
//   mcp-two-instances    1,000 MCP tool calls from one client spread round robin over two instances
//                        with no sticky sessions (0 errors)
import { createHash, randomBytes } from 'node:crypto';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Agent, fetch as undiciFetch } from 'undici';
import { ApiClient } from '../events/api-client.ts';
import { startPlatform, svcEnvironment, type PlatformProcess } from '../events/platform-process.ts';
import { judged } from '../events/results.ts';
import { summarizeLatencies } from '../events/stats.ts';
import { defineBenchSection } from '../bench-section.ts';
import { LoadGenerator } from '../load-generator.ts';
import { runSection, type BootstrappedTeam, type SectionBed } from '../section-bed.ts';

export const OAUTH_SCENARIOS = ['oauth-record-get', 'oauth-code-exchange', 'mcp-search', 'mcp-two-instances'] as const;
export type OAuthScenario = (typeof OAUTH_SCENARIOS)[number];

const REDIRECT = 'http://127.0.0.1:4997/callback';
const GET_CONNECTIONS = 8;
const GET_SECONDS = 5;
const GET_ROUNDS = 3;
const EXCHANGES = 100;
const SEARCHES = 200;
const SPREAD_CALLS = 1000;

const p95 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.ceil(0.95 * values.length) - 1]!;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

interface World {
  platform: PlatformProcess;
  boot: BootstrappedTeam;
  dispatcher: Agent;
  collectionId: string;
  nameField: string;
  recordId: string;
  clientId: string;
}

async function call(world: World, method: string, path: string, init: { token?: string; form?: Record<string, string>; json?: unknown; team?: boolean } = {}) {
  const headers: Record<string, string> = {};
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  if (init.team) headers['x-team-id'] = world.boot.teamSimplyId;
  let body: string | undefined;
  if (init.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(init.form).toString();
  } else if (init.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(init.json);
  }
  const started = performance.now();
  const response = await undiciFetch(`${world.platform.baseUrl}${path}`, { method, headers, body, dispatcher: world.dispatcher, redirect: 'manual' });
  const text = await response.text();
  return { status: response.status, location: response.headers.get('location'), body: text ? JSON.parse(text) : null, ms: performance.now() - started };
}

/** A first-party consent, then the code exchange; the exchange's latency and the tokens. */
async function codeFlow(world: World, scope: string, resource: string) {
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const consent = await call(world, 'POST', '/oauth/authorize', {
    token: world.boot.userToken,
    team: true,
    form: { response_type: 'code', client_id: world.clientId, redirect_uri: REDIRECT, scope, resource, code_challenge: challenge, code_challenge_method: 'S256', decision: 'approve' },
  });
  const code = consent.location && new URL(consent.location).searchParams.get('code');
  if (consent.status !== 302 || !code) throw new Error(`consent answered ${consent.status}: ${JSON.stringify(consent.body)}`);
  const exchange = await call(world, 'POST', '/oauth/token', { form: { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: world.clientId, code_verifier: verifier, resource } });
  if (exchange.status !== 200) throw new Error(`the code exchange answered ${exchange.status}: ${JSON.stringify(exchange.body)}`);
  return { ms: exchange.ms, accessToken: exchange.body.access_token as string };
}

async function mcpClient(world: World, bases: () => string): Promise<Client> {
  const client = new Client({ name: 'bench', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
  const fetchVia = ((url: string | URL, init?: RequestInit) => {
    const target = new URL(String(url));
    target.host = new URL(bases()).host;
    return undiciFetch(target, { ...(init as object), dispatcher: world.dispatcher });
  }) as unknown as typeof fetch;
  await client.connect(new StreamableHTTPClientTransport(new URL(`${world.platform.baseUrl}/mcp`), { fetch: fetchVia, requestInit: { headers: { authorization: `Bearer ${world.boot.apiKey}` } } }));
  return client;
}

async function recordGet(world: World, { lines, targets, summary, progress }: SectionBed<OAuthScenario>): Promise<void> {
  progress('oauth: record GET with an OAuth token and with an API key');
  const { accessToken } = await codeFlow(world, 'schema:read records:read', `${world.platform.baseUrl}/v1`);
  const loader = new LoadGenerator();
  try {
    await loader.ready;
    const load = (token: string, duration: number, record: boolean) =>
      loader.run({ title: 'record get', url: `${world.platform.baseUrl}/v1/data-records/${world.recordId}`, method: 'GET', headers: { authorization: `Bearer ${token}` }, connections: GET_CONNECTIONS, duration, record });
    await load(world.boot.apiKey, 2, false);
    await load(accessToken, 2, false);
    const apiKey: number[] = [];
    const oauthRuns: number[] = [];
    let failures = 0;
    for (let round = 0; round < GET_ROUNDS; round++) {
      for (const [token, into] of [[world.boot.apiKey, apiKey], [accessToken, oauthRuns]] as const) {
        const result = await load(token, GET_SECONDS, false);
        failures += result.non2xx + result.errors;
        into.push(result.requestsPerSecond);
      }
    }
    const ratio = median(oauthRuns) / median(apiKey);
    summary.recordGet = { connections: GET_CONNECTIONS, seconds: GET_SECONDS, rounds: GET_ROUNDS, apiKeyPerSecond: apiKey, oauthPerSecond: oauthRuns, ratio, failures };
    lines.push(
      '',
      `oauth-record-get: GET /v1/data-records/{id}, ${GET_CONNECTIONS} connections, ${GET_ROUNDS} alternating rounds of ${GET_SECONDS} s`,
      `  API key: ${apiKey.map((r) => r.toFixed(0)).join(', ')} req/s; OAuth token: ${oauthRuns.map((r) => r.toFixed(0)).join(', ')} req/s; median ratio ${ratio.toFixed(3)}; failed ${failures}`,
    );
    targets.push(judged('record GET with a warm OAuth token within 5 % of the API key (median req/s)', `${(ratio * 100).toFixed(1)} %`, ratio >= 0.95 && failures === 0));
  } finally {
    await loader.close();
  }
}

async function codeExchange(world: World, { lines, targets, summary, progress }: SectionBed<OAuthScenario>): Promise<void> {
  progress('oauth: authorization-code exchanges');
  for (let i = 0; i < 10; i++) await codeFlow(world, 'records:read', `${world.platform.baseUrl}/v1`);
  const measured: number[] = [];
  for (let i = 0; i < EXCHANGES; i++) measured.push((await codeFlow(world, 'records:read', `${world.platform.baseUrl}/v1`)).ms);
  const s = summarizeLatencies(measured);
  const value = p95(measured);
  summary.codeExchange = { exchanges: EXCHANGES, p50: s.p50, p95: value, max: s.max };
  lines.push('', `oauth-code-exchange: ${EXCHANGES} exchanges at the token endpoint, one at a time`, `  p50 ${s.p50.toFixed(1)} ms, p95 ${value.toFixed(1)} ms, max ${s.max.toFixed(1)} ms`);
  targets.push(judged('authorization-code exchange p95 < 50 ms', `${value.toFixed(1)} ms`, value < 50));
}

async function mcpSearch(world: World, { lines, targets, summary, progress }: SectionBed<OAuthScenario>): Promise<void> {
  progress('mcp: search_records against the same search through REST');
  const client = await mcpClient(world, () => world.platform.baseUrl);
  const api = new ApiClient({ baseUrl: world.platform.baseUrl, ca: world.platform.ca, apiKey: world.boot.apiKey, sockets: 1 });
  const input = { dataCollectionSimplyId: world.collectionId, query: 'Person 1', limit: 25 };
  const viaRest: number[] = [];
  const viaMcp: number[] = [];
  try {
    for (let i = 0; i < SEARCHES + 20; i++) {
      const rest = await api.request('POST', '/v1/data-records/search', input);
      if (rest.status !== 200) throw new Error(`REST search answered ${rest.status}`);
      const started = performance.now();
      const result = await client.callTool({ name: 'search_records', arguments: input });
      const ms = performance.now() - started;
      if (result.isError) throw new Error(`search_records failed: ${JSON.stringify(result.content)}`);
      if (i >= 20) {
        viaRest.push(rest.doneAt - rest.sentAt);
        viaMcp.push(ms);
      }
    }
  } finally {
    await client.close();
  }
  const added = p95(viaMcp) - p95(viaRest);
  summary.mcpSearch = { calls: SEARCHES, restP50: summarizeLatencies(viaRest).p50, restP95: p95(viaRest), mcpP50: summarizeLatencies(viaMcp).p50, mcpP95: p95(viaMcp), addedP95: added };
  lines.push(
    '',
    `mcp-search: ${SEARCHES} searches of 25 records, one at a time, through REST and through MCP (2026-07-28, an API key)`,
    `  REST: p50 ${summarizeLatencies(viaRest).p50.toFixed(1)} ms, p95 ${p95(viaRest).toFixed(1)} ms; MCP tools/call: p50 ${summarizeLatencies(viaMcp).p50.toFixed(1)} ms, p95 ${p95(viaMcp).toFixed(1)} ms`,
  );
  targets.push(judged('MCP search_records adds p95 < 20 ms over the same REST search', `${added.toFixed(1)} ms`, added < 20));
}

async function twoInstances(world: World, bed: SectionBed<OAuthScenario>): Promise<void> {
  const { lines, targets, summary, progress } = bed;
  progress('mcp: 1,000 calls over two instances');
  const second = await startPlatform(svcEnvironment({ ...bed.env, PORT: '0', RATE_LIMIT_PER_MINUTE: '1000000' }));
  bed.onCleanup(() => second.stop());
  let turn = 0;
  const served = [0, 0];
  const client = await mcpClient(world, () => {
    const index = turn++ % 2;
    served[index]!++;
    return index === 0 ? world.platform.baseUrl : second.baseUrl;
  });
  let errors = 0;
  const started = performance.now();
  try {
    for (let i = 0; i < SPREAD_CALLS; i++) {
      const result = await client
        .callTool(i % 2 === 0 ? { name: 'count_records', arguments: { dataCollectionSimplyId: world.collectionId } } : { name: 'get_record', arguments: { dataRecordSimplyId: world.recordId } })
        .catch(() => ({ isError: true }));
      if (result.isError) errors++;
    }
  } finally {
    await client.close();
  }
  const seconds = (performance.now() - started) / 1000;
  summary.mcpTwoInstances = { calls: SPREAD_CALLS, errors, requestsPerInstance: served, seconds };
  lines.push('', `mcp-two-instances: ${SPREAD_CALLS} tool calls from one client, round robin over two instances (${served.join(' + ')} HTTP requests), ${seconds.toFixed(1)} s`, `  errors: ${errors}`);
  targets.push(judged(`${SPREAD_CALLS} MCP calls over two instances without sticky sessions: 0 errors`, String(errors), errors === 0 && served[0]! > 0 && served[1]! > 0));
}

export const runOAuthSection = (scenarios: readonly OAuthScenario[], progress: (line: string) => void) =>
  runSection('oauth', scenarios, progress, async (bed) => {
    const boot = await bed.bootstrap('Bench OAuth');
    const platform = await startPlatform(svcEnvironment({ ...bed.env, PORT: '0', RATE_LIMIT_PER_MINUTE: '1000000' }));
    bed.onCleanup(() => platform.stop());
    const dispatcher = new Agent({ connect: { ca: platform.ca } });
    bed.onCleanup(() => dispatcher.close());
    const api = new ApiClient({ baseUrl: platform.baseUrl, ca: platform.ca, apiKey: boot.apiKey, sockets: 1 });
    const collection = (await api.request('POST', '/v1/data-collections', { name: 'People', fields: [{ title: 'Name', columnName: 'name', dataType: 'PLAIN_TEXT' }] })).body.data;
    const nameField = (collection.fields as { id: string }[])[0]!.id;
    let recordId = '';
    for (let i = 0; i < 200; i++) {
      const created = await api.request('POST', '/v1/data-records', { dataCollectionSimplyId: collection.id, fields: { [nameField]: `Person ${i}` } });
      if (created.status !== 201) throw new Error(`creating a record answered ${created.status}`);
      recordId ||= created.body.data.id;
    }
    const world: World = { platform, boot, dispatcher, collectionId: collection.id, nameField, recordId, clientId: '' };
    const registered = await call(world, 'POST', '/oauth/register', { json: { redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none', client_name: 'Bench' } });
    if (registered.status !== 201) throw new Error(`registration answered ${registered.status}`);
    world.clientId = registered.body.client_id;
    await bed.scenario('oauth-record-get', () => recordGet(world, bed));
    await bed.scenario('oauth-code-exchange', () => codeExchange(world, bed));
    await bed.scenario('mcp-search', () => mcpSearch(world, bed));
    await bed.scenario('mcp-two-instances', () => twoInstances(world, bed));
  });

export const benchSection = defineBenchSection('oauth', OAUTH_SCENARIOS, runOAuthSection);
