// The fuzz engine, shared by the test (fuzz.test.ts) and `npm run fuzz` (scripts/fuzz.ts). It builds
// three worlds (one the fuzz changes, one it may destroy, one of another team), sends every route's
// generated requests with both credentials of the first team, and collects every answer that
// breaks the contract: a 5xx or no answer at all, an answer without the documented envelope, and,
// once the fuzz is over, a GET that answered 2xx before and no longer does (stored damage).
import https from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import fc from 'fast-check';
import type { RestRoute } from '../../rest-adapter/route.ts';
import { envelopeProblem } from '../support/envelope-problems.ts';
import type { TeamFixture } from '../support/fixtures.ts';
import { buildRouteWorld, fillPath, servedRoutes, type RouteWorld } from '../support/route-world.ts';
import type { TestServer } from '../support/server.ts';
import { ALLOWED_TYPES } from '../../src/modules/files/files.allowlist.ts';
import { heavyRequests, inputJsonSchema, poolValues, routeRequests, type CredentialTwist, type FuzzRequest, type ValuePool } from './inputs.ts';

// ---------------------------------------------------------------------------------------------
// HTTP: requests sent exactly as generated (fetch would resolve `..` and refuse odd bodies).

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

export interface SentRequest extends FuzzRequest {
  headers: Record<string, string>;
}

export interface HttpClient {
  baseUrl: string;
  send(request: SentRequest, timeoutMs?: number): Promise<Answer>;
  close(): void;
}

export function httpClient(baseUrl: string, ca: string, sockets: number): HttpClient {
  const url = new URL(baseUrl);
  const agent = new https.Agent({ keepAlive: true, maxSockets: sockets, ca });
  const once = (r: SentRequest, timeoutMs: number) =>
    new Promise<Answer>((resolve, reject) => {
      const headers: Record<string, string | number> = { ...r.headers };
      if (r.contentType !== undefined) headers['content-type'] = r.contentType;
      if (r.body !== undefined) headers['content-length'] = Buffer.byteLength(r.body);
      const req = https.request({ host: url.hostname, port: url.port, method: r.method, path: r.path, headers, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      });
      req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
      req.on('error', (error: NodeJS.ErrnoException) => reject(Object.assign(error, { reusedSocket: req.reusedSocket })));
      req.end(r.body);
    });
  return {
    baseUrl,
    async send(r, timeoutMs = 20_000) {
      try {
        return await once(r, timeoutMs);
      } catch (error) {
        // a kept-alive connection the server closed just as the request left: Node's documented race, not an answer
        const e = error as NodeJS.ErrnoException & { reusedSocket?: boolean };
        if (e.reusedSocket && (e.code === 'ECONNRESET' || e.code === 'EPIPE')) return once(r, timeoutMs);
        throw error;
      }
    },
    close: () => agent.destroy(),
  };
}

/** The suites' TestServer.request on top of an HttpClient: the script's child server has no other. */
export function requestThrough(client: HttpClient): TestServer['request'] {
  return async (method, path, o = {}) => {
    const headers: Record<string, string> = { ...o.headers };
    if (o.token) headers.authorization = `Bearer ${o.token}`;
    if (o.teamId) headers['x-team-id'] = o.teamId;
    const body = o.body !== undefined ? JSON.stringify(o.body) : o.rawBody;
    const answer = await client.send({ method, path, headers, body, contentType: o.body !== undefined ? 'application/json' : undefined, intent: '' });
    const responseHeaders = new Headers();
    for (const [k, v] of Object.entries(answer.headers)) if (v !== undefined) responseHeaders.set(k, Array.isArray(v) ? v.join(', ') : v);
    return { status: answer.status, headers: responseHeaders, text: answer.text, body: parseJson(answer.text) };
  };
}

function parseJson(text: string): any {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------------------------------------
// Setup: worlds, credentials, value pools.

export interface FuzzCredential {
  name: string;
  headers: Record<string, string>;
}

export interface FuzzSetup {
  /** fuzzed by every route but the destroying ones; its GETs must all still answer afterwards */
  main: RouteWorld;
  /** the same team's second world: the only one DELETE and archive routes are given */
  destructive: RouteWorld;
  /** another team's world: "someone else's ids"; its GETs must still answer too */
  foreign: RouteWorld;
  /** the first team's: its full-access API key and its team-admin user's JWT */
  credentials: FuzzCredential[];
  foreignCredential: FuzzCredential;
  pools: { main: ValuePool; destructive: ValuePool; foreign: ValuePool };
}

/** Routes whose success may make a world's GET fail for good reason: they only see the destructive world. */
const destroys = (route: RestRoute): boolean => route.method === 'DELETE' || /\/(archive|bulk-delete)$/.test(route.path);

const routeKey = (route: RestRoute) => `${route.method} ${route.path}`;

const apiKeyOf = (team: TeamFixture): FuzzCredential => ({ name: 'api key', headers: { authorization: `Bearer ${team.apiKey}` } });

export async function prepareFuzz(server: TestServer, team: TeamFixture, other: TeamFixture): Promise<FuzzSetup> {
  const foreignWorld = buildRouteWorld(server, other);
  const main = await buildRouteWorld(server, team);
  const destructive = await buildRouteWorld(server, team);
  const foreign = await foreignWorld;
  // refresh tokens the fuzz may spend on refresh and logout: never those of the credentials in use
  const password = team.password ?? 'correct horse battery staple';
  const refreshTokens: string[] = [];
  for (let i = 0; i < 3; i++) {
    const login = await server.request('POST', '/v1/auth/login', { body: { email: team.email, password } });
    if (login.status !== 200) throw new Error(`fuzz setup: login answered ${login.status} ${login.text}`);
    refreshTokens.push(login.body.data.refreshToken);
  }
  const pool = (world: RouteWorld, extra: ValuePool = {}): ValuePool => ({
    ...Object.fromEntries(Object.entries(world.ids).map(([name, id]) => [name, [id]])),
    teamSimplyId: [world.team.teamSimplyId],
    // a free string the service checks against its allowlist: valid-shaped intents need one of it
    contentType: Object.keys(ALLOWED_TYPES),
    ...extra,
  });
  const secrets = { refreshToken: refreshTokens, email: [team.email], password: [password] };
  return {
    main,
    destructive,
    foreign,
    credentials: [apiKeyOf(team), { name: 'user JWT', headers: { authorization: `Bearer ${team.userToken}`, 'x-team-id': team.teamSimplyId } }],
    foreignCredential: apiKeyOf(other),
    pools: { main: pool(main, secrets), destructive: pool(destructive, secrets), foreign: pool(foreign) },
  };
}

/** The credential's headers as a twisted case sends them. */
function twistedHeaders(headers: Record<string, string>, twist: CredentialTwist | undefined, otherTeam: string): Record<string, string> {
  if (!twist) return headers;
  const token = (headers.authorization ?? '').replace(/^Bearer /, '');
  const withToken = (authorization: string) => ({ ...headers, authorization });
  switch (twist) {
    case 'another team selected':
      return { ...headers, 'x-team-id': otherTeam };
    case 'malformed team selector':
      return { ...headers, 'x-team-id': "tm-' OR 1=1 --" };
    case 'a 5 KB team selector':
      return { ...headers, 'x-team-id': `tm-${'A'.repeat(5_000)}` };
    case 'token truncated':
      return withToken(`Bearer ${token.slice(0, -4)}`);
    case 'token with a character appended':
      return withToken(`Bearer ${token}A`);
    case 'token without the Bearer scheme':
      return withToken(token);
    case 'Basic scheme':
      return withToken(`Basic ${Buffer.from(`user:${token}`).toString('base64')}`);
    case 'an 8 KB token':
      return withToken(`Bearer ${'a'.repeat(8_000)}`);
    case 'JWT signed with alg none': {
      const payload = token.split('.')[1] ?? Buffer.from('{"sub":"usr-AAAA-AAAA-AAAA"}').toString('base64url');
      return withToken(`Bearer ${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${payload}.`);
    }
    case 'two tokens':
      return withToken(`Bearer ${token} ${token}`);
    case 'no credential': {
      const { authorization: _, ...rest } = headers;
      return rest;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The checks.

export interface Failure {
  route: string;
  credential: string;
  /** "status 500", "no answer: …", "envelope: …", "stored damage: …" */
  problem: string;
  intent: string;
  request: SentRequest;
  /** what reproduces it: the run's seed and the case's index in its route's sequence */
  seed?: number;
  index?: number;
  status?: number;
  response?: string;
  requestId?: string;
  /** what the server logged for the request (the script reads the child server's log) */
  serverLog?: string;
}

/** What is wrong with an answer, or null. The envelope is docs/api/conventions.md's. */
function answerProblem(answer: Answer): string | null {
  if (answer.status >= 500) return `status ${answer.status}`;
  return envelopeProblem({
    status: answer.status,
    body: parseJson(answer.text),
    requestIdHeader: answer.headers['x-request-id'] as string | undefined,
    // a file a route answers (a CSV download, an image) is judged as a file, not as an envelope
    contentType: answer.headers['content-type'] as string | undefined,
  });
}

const excerpt = (text: string, max = 300) => (text.length > max ? `${text.slice(0, max)}… (${text.length} characters)` : text);

export function bodyExcerpt(body: string | Uint8Array | undefined, max = 300): string {
  if (body === undefined) return '(none)';
  if (typeof body !== 'string') return `bytes ${Buffer.from(body).toString('hex')}`;
  return JSON.stringify(excerpt(body, max));
}

// ---------------------------------------------------------------------------------------------
// The run.

export interface FuzzOptions {
  seed: number;
  /** requests per route and credential */
  count: number;
  /** only routes whose "METHOD /path" contains this */
  route?: string;
  /** only this case of each route's sequence */
  caseIndex?: number;
  concurrency: number;
  timeoutMs?: number;
  /** sees every case and its answer (the script's --show) */
  onAnswer?: (c: { route: string; credential: string; index: number; request: FuzzRequest }, answer: Answer | null) => void;
}

export interface FuzzReport {
  sent: number;
  /** answers by status */
  statuses: Record<number, number>;
  /** answers by route and status: a route that never answered 2xx shows where the generators stop short */
  routeStatuses: Record<string, Record<number, number>>;
  failures: Failure[];
  /** GETs checked for stored damage (those that answered 2xx before the fuzz), and how many did */
  probes: { before2xx: number; total: number };
  ms: number;
}

/** A route's sequence depends on the run's seed, the route and the credential only: adding a route changes no other's. */
function caseSeed(seed: number, key: string): number {
  let hash = 0x811c9dc5 ^ seed;
  for (const char of key) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193);
  return hash | 0;
}

interface Case {
  key: string;
  credential: FuzzCredential;
  index: number;
  request: FuzzRequest;
}

async function eachConcurrently<T>(items: readonly T[], limit: number, run: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await run(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

function selectedRoutes(route?: string): RestRoute[] {
  return servedRoutes.filter((r) => !route || routeKey(r).includes(route));
}

interface Probe {
  key: string;
  credential: FuzzCredential;
  path: string;
}

/** Every GET route of a world as a client would call it: real ids, the required query parameters, and a full page of lists. */
function probesOf(world: RouteWorld, pool: ValuePool, credentials: FuzzCredential[]): Probe[] {
  const out: Probe[] = [];
  for (const route of servedRoutes.filter((r) => r.method === 'GET')) {
    let path: string;
    try {
      path = fillPath(route, world.ids);
    } catch {
      continue; // reported as a missing builder by the fuzz itself
    }
    const schema = route.query ? inputJsonSchema(route.query) : {};
    const required = ((schema.required ?? []) as string[]).map((name) => `${name}=${encodeURIComponent(poolValues(pool, name, schema.properties?.[name]?.description)[0] ?? '0')}`);
    const variants = [required, ...(schema.properties?.limit ? [[...required, 'limit=100']] : [])];
    for (const query of variants) for (const credential of credentials) out.push({ key: routeKey(route), credential, path: query.length ? `${path}?${query.join('&')}` : path });
  }
  return out;
}

async function probe(client: HttpClient, probes: Probe[], concurrency: number): Promise<Answer[]> {
  const answers: Answer[] = new Array(probes.length);
  await eachConcurrently(
    probes.map((p, i) => [p, i] as const),
    concurrency,
    async ([p, i]) => {
      answers[i] = await client.send({ method: 'GET', path: p.path, headers: p.credential.headers, intent: 'probe' }).catch((e: Error) => ({ status: 0, headers: {}, text: String(e.message) }));
    },
  );
  return answers;
}

/** The main world's GETs with both credentials, and the other team's world's GETs as that team. */
const worldProbes = (setup: FuzzSetup): Probe[] => [
  ...probesOf(setup.main, setup.pools.main, setup.credentials),
  ...probesOf(setup.foreign, setup.pools.foreign, [setup.foreignCredential]),
];

/** Valid traffic only: every GET probe of the worlds, `rounds` times (the script's warm-up before it reads the server's memory). */
export async function warmUp(client: HttpClient, setup: FuzzSetup, rounds: number): Promise<void> {
  const probes = worldProbes(setup);
  for (let round = 0; round < rounds; round++) await probe(client, probes, 4);
}

export async function runFuzz(client: HttpClient, setup: FuzzSetup, options: FuzzOptions): Promise<FuzzReport> {
  const started = Date.now();
  const failures: Failure[] = [];
  const statuses: Record<number, number> = {};
  const routeStatuses: Record<string, Record<number, number>> = {};
  const probes = worldProbes(setup);
  const before = await probe(client, probes, options.concurrency);

  const cases: Case[] = [];
  for (const route of selectedRoutes(options.route)) {
    const key = routeKey(route);
    let requests: fc.Arbitrary<FuzzRequest>;
    try {
      requests = routeRequests(route, destroys(route) ? setup.pools.destructive : setup.pools.main, setup.pools.foreign);
    } catch (error) {
      failures.push({ route: key, credential: '-', problem: (error as Error).message, intent: '', request: { method: route.method, path: route.path, headers: {}, intent: '' } });
      continue;
    }
    const numRuns = options.caseIndex === undefined ? options.count : options.caseIndex + 1;
    for (const credential of setup.credentials) {
      const sample = fc.sample(requests, { seed: caseSeed(options.seed, `${key} ${credential.name}`), numRuns });
      sample.forEach((request, index) => {
        if (options.caseIndex === undefined || index === options.caseIndex) cases.push({ key, credential, index, request });
      });
    }
  }

  await eachConcurrently(cases, options.concurrency, async (c) => {
    const request: SentRequest = { ...c.request, headers: twistedHeaders(c.credential.headers, c.request.twist, setup.foreign.team.teamSimplyId) };
    const failure = (problem: string, answer?: Answer): Failure => ({
      route: c.key,
      credential: c.credential.name,
      problem,
      intent: c.request.intent,
      request,
      seed: options.seed,
      index: c.index,
      status: answer?.status,
      response: answer && excerpt(answer.text),
      requestId: answer?.headers['x-request-id'] as string | undefined,
    });
    let answer: Answer;
    try {
      answer = await client.send(request, options.timeoutMs);
    } catch (error) {
      options.onAnswer?.({ route: c.key, credential: c.credential.name, index: c.index, request: c.request }, null);
      failures.push(failure(`no answer: ${(error as Error).message}`));
      return;
    }
    options.onAnswer?.({ route: c.key, credential: c.credential.name, index: c.index, request: c.request }, answer);
    statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
    const perRoute = (routeStatuses[c.key] ??= {});
    perRoute[answer.status] = (perRoute[answer.status] ?? 0) + 1;
    const problem = answerProblem(answer);
    if (problem) failures.push(failure(problem, answer));
  });

  const after = await probe(client, probes, options.concurrency);
  let before2xx = 0;
  probes.forEach((p, i) => {
    const was = before[i]!;
    const now = after[i]!;
    if (was.status < 200 || was.status >= 300) return;
    before2xx++;
    if (now.status >= 200 && now.status < 300) return;
    failures.push({
      route: p.key,
      credential: p.credential.name,
      problem: `stored damage: answered ${was.status} before the fuzz, ${now.status} after`,
      intent: 'the same GET before and after the fuzz',
      request: { method: 'GET', path: p.path, headers: p.credential.headers, intent: '' },
      status: now.status,
      response: excerpt(now.text),
      requestId: now.headers['x-request-id'] as string | undefined,
    });
  });
  return { sent: cases.length, statuses, routeStatuses, failures, probes: { before2xx, total: probes.length }, ms: Date.now() - started };
}

/** Memory abuse for the script: valid-shaped bodies with one huge value (or over the limit), as the API key. */
export async function runHeavy(client: HttpClient, setup: FuzzSetup, options: { seed: number; count: number; concurrency: number }): Promise<{ sent: number; failures: Failure[] }> {
  const credential = setup.credentials[0]!;
  const generators = servedRoutes
    .filter((r) => !destroys(r))
    .map((r) => ({ key: routeKey(r), requests: heavyRequests(r, setup.pools.main, setup.pools.foreign) }))
    .filter((g): g is { key: string; requests: fc.Arbitrary<FuzzRequest> } => g.requests !== null);
  const all = fc.sample(fc.constantFrom(...generators).chain((g) => g.requests.map((request) => ({ key: g.key, request }))), { seed: options.seed, numRuns: options.count });
  const failures: Failure[] = [];
  await eachConcurrently(
    all.map((c, index) => ({ ...c, index })),
    options.concurrency,
    async (c) => {
      const request: SentRequest = { ...c.request, headers: credential.headers };
      const answer = await client.send(request, 60_000).catch((e: Error) => e);
      const problem = answer instanceof Error ? `no answer: ${answer.message}` : answerProblem(answer);
      if (!problem) return;
      const a = answer instanceof Error ? undefined : answer;
      failures.push({ route: c.key, credential: credential.name, problem, intent: c.request.intent, request, seed: options.seed, index: c.index, status: a?.status, response: a && excerpt(a.text), requestId: a?.headers['x-request-id'] as string | undefined });
    },
  );
  return { sent: all.length, failures };
}

// ---------------------------------------------------------------------------------------------
// The report.

/**
 * Failures grouped by kind (problem, status and error code): a defect usually shows on many routes.
 * Each group shows its first case in full, with the command that replays it, then every route it
 * hit with one case each.
 */
export function formatFailures(failures: Failure[], options: { maxGroups?: number; command?: string } = {}): string {
  const { maxGroups = 30, command = 'npm run fuzz --' } = options;
  const groups = new Map<string, Failure[]>();
  for (const f of failures) {
    const code = parseJson(f.response ?? '')?.error?.code;
    const signature = f.problem.startsWith('stored damage') ? `${f.problem} on ${f.route}` : `${f.problem}${f.status ? ` (${f.status}${code ? ` ${code}` : ''})` : ''}`;
    groups.set(signature, [...(groups.get(signature) ?? []), f]);
  }
  const lines = [`${failures.length} failure(s) of ${groups.size} kind(s):`];
  for (const [signature, group] of [...groups].slice(0, maxGroups)) {
    const f = group[0]!;
    const routes = new Map<string, Failure>();
    for (const g of group) if (!routes.has(g.route)) routes.set(g.route, g);
    lines.push('', `■ ${signature}: ${group.length}× on ${routes.size} route(s)`);
    lines.push(`  route:    ${f.route} as ${f.credential}`);
    if (f.intent) lines.push(`  case:     ${excerpt(f.intent, 300)}`);
    lines.push(`  request:  ${f.request.method} ${excerpt(f.request.path, 200)}`);
    if (f.request.body !== undefined) lines.push(`  body:     ${f.request.contentType ?? '(no content-type)'} ${bodyExcerpt(f.request.body)}`);
    if (f.status !== undefined) lines.push(`  answer:   ${f.status} ${f.response || '(empty body)'}`);
    if (f.serverLog) lines.push(`  logged:   ${f.serverLog}`);
    if (f.index !== undefined) lines.push(`  replay:   ${command} --seed ${f.seed} --route '${f.route}' --case ${f.index}`);
    for (const [route, other] of [...routes].slice(1, 12)) {
      lines.push(`  also:     ${route} as ${other.credential}: ${other.request.method} ${excerpt(other.request.path, 100)}${other.request.body !== undefined ? ` ${bodyExcerpt(other.request.body, 100)}` : ''}`);
    }
    if (routes.size > 12) lines.push(`  … and ${routes.size - 12} more route(s)`);
  }
  if (groups.size > maxGroups) lines.push('', `… and ${groups.size - maxGroups} more kind(s)`);
  return lines.join('\n');
}

const statusList = (statuses: Record<number, number>) =>
  Object.entries(statuses)
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([status, n]) => `${status}×${n}`)
    .join(' ');

/** Routes none of whose fuzzed requests succeeded: their valid-shaped inputs never got through (a hint, not a failure). */
export function formatNeverSucceeded(report: FuzzReport): string {
  const routes = Object.entries(report.routeStatuses).filter(([, s]) => !Object.keys(s).some((status) => Number(status) < 300));
  return routes.map(([route, s]) => `  ${route}: ${statusList(s)}`).join('\n');
}

export function formatStatuses(report: FuzzReport): string {
  const byStatus = statusList(report.statuses);
  return `${report.sent} requests in ${(report.ms / 1000).toFixed(1)} s: ${byStatus}; ${report.probes.before2xx}/${report.probes.total} GET probes answered 2xx before the fuzz`;
}
