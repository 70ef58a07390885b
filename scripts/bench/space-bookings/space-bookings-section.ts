// The space-bookings section of `npm run bench`, on platform servers of its own (`svc start`) over a
// fresh database, with a channel of 50 rooms (Europe/Berlin, weekdays 08:00-20:00, 30-minute steps):
//   spaces-slot-grid      POST …/booking-links/{id}/slot-grid for a 31-day month, anonymously through
//                         a public link, one at a time (p95 < 50 ms)
//   spaces-availability   POST …/source-connections/{id}/booking-availability for all 50 spaces with
//                         the spaces app's OAuth token, one at a time (p95 < 30 ms)
//   spaces-run-race       1,000 concurrent booking runs for overlapping times on one space, spread
//                         over two instances, over connections a warm-up opened and then over new
//                         ones: exactly one booking, every other run refused with 409, 0 errors,
//                         p99 < 1 s (judged over open connections; new ones add 400 TLS handshakes)
import { createHash, randomBytes } from 'node:crypto';
import { Temporal } from 'temporal-polyfill';
import { Agent, fetch as undiciFetch, request } from 'undici';
import { startBaselineBeside } from '../baseline-process.ts';
import { defineBenchSection } from '../bench-section.ts';
import { startPlatform, runSvc, svcEnvironment, type PlatformProcess } from '../events/platform-process.ts';
import { judged } from '../events/results.ts';
import { summarizeLatencies } from '../events/stats.ts';
import { runSection, type BootstrappedTeam, type SectionBed } from '../section-bed.ts';

export const SPACE_BOOKING_SCENARIOS = ['spaces-slot-grid', 'spaces-availability', 'spaces-run-race'] as const;
export type SpaceBookingScenario = (typeof SPACE_BOOKING_SCENARIOS)[number];

const REDIRECT = 'http://127.0.0.1:4996/callback';
const SPACES = 50;
const READS = 200;
const RUNS = 1000;
/** requests of the burst that warms both instances before the race (and both bare servers before the floor) */
const WARM_UP = 400;
const ZONE = 'Europe/Berlin';

const percentile = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.ceil(q * values.length) - 1]!;

interface World {
  platform: PlatformProcess;
  boot: BootstrappedTeam;
  dispatcher: Agent;
  spacesToken: string;
  connection: string;
  channel: string;
  link: { bookingLinkSimplyId: string; publicAccessToken: string };
  roomIds: string[];
}

async function call(base: string, dispatcher: Agent, method: string, path: string, init: { token?: string; json?: unknown; form?: Record<string, string>; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { ...init.headers };
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  let body: string | undefined;
  if (init.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(init.form).toString();
  } else if (init.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(init.json);
  }
  const started = performance.now();
  const response = await undiciFetch(`${base}${path}`, { method, headers, body, dispatcher, redirect: 'manual' });
  const text = await response.text();
  return { status: response.status, location: response.headers.get('location'), body: text ? JSON.parse(text) : null, ms: performance.now() - started };
}

/** the spaces app's token for the team admin: a first-party consent and the code exchange */
async function spacesToken(base: string, dispatcher: Agent, boot: BootstrappedTeam, clientId: string): Promise<string> {
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const resource = `${base}/v1`;
  const consent = await call(base, dispatcher, 'POST', '/oauth/authorize', {
    token: boot.userToken,
    headers: { 'x-team-id': boot.teamSimplyId },
    form: { response_type: 'code', client_id: clientId, redirect_uri: REDIRECT, scope: 'records:read records:write', resource, code_challenge: challenge, code_challenge_method: 'S256', decision: 'approve' },
  });
  const code = consent.location && new URL(consent.location).searchParams.get('code');
  if (consent.status !== 302 || !code) throw new Error(`consent answered ${consent.status}: ${JSON.stringify(consent.body)}`);
  const exchange = await call(base, dispatcher, 'POST', '/oauth/token', { form: { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: clientId, code_verifier: verifier, resource } });
  if (exchange.status !== 200) throw new Error(`the code exchange answered ${exchange.status}: ${JSON.stringify(exchange.body)}`);
  return exchange.body.access_token as string;
}

/** a Monday a few weeks ahead, and an instant of it in the channel's zone */
const monday = () => {
  const today = Temporal.Now.plainDateISO(ZONE);
  return today.add({ days: 8 - today.dayOfWeek + 14 });
};
const at = (date: Temporal.PlainDate, time: string) => date.toZonedDateTime({ timeZone: ZONE, plainTime: Temporal.PlainTime.from(time) }).toString({ timeZoneName: 'never' });

async function setUp(bed: SectionBed<SpaceBookingScenario>, platform: PlatformProcess, dispatcher: Agent): Promise<World> {
  const boot = await bed.bootstrap('Bench spaces');
  const base = platform.baseUrl;
  const key = (method: string, path: string, json?: unknown) => call(base, dispatcher, method, path, { token: boot.apiKey, json });
  const ok = (r: { status: number; body: any }, what: string) => {
    if (r.status >= 300) throw new Error(`${what} answered ${r.status}: ${JSON.stringify(r.body)}`);
    return r.body.data;
  };
  const rooms = ok(await key('POST', '/v1/data-collections', { name: 'Rooms', fields: [{ title: 'Name', columnName: 'name', dataType: 'PLAIN_TEXT' }] }), 'rooms');
  const bookings = ok(
    await key('POST', '/v1/data-collections', {
      name: 'Bookings',
      fields: [
        { title: 'Title', columnName: 'title', dataType: 'PLAIN_TEXT' },
        { title: 'Starts', columnName: 'starts', dataType: 'DATE_TIME' },
        { title: 'Ends', columnName: 'ends', dataType: 'DATE_TIME' },
        { title: 'Spaces', columnName: 'spaces', dataType: 'MULTI_DATA_RECORD', config: { targetDataCollectionSimplyId: rooms.id } },
        { title: 'Status', columnName: 'status', dataType: 'PLAIN_TEXT' },
      ],
    }),
    'bookings',
  );
  const field = (c: { fields: { columnName: string; id: string }[] }, name: string) => c.fields.find((f) => f.columnName === name)!.id;
  const roomIds: string[] = [];
  for (let i = 0; i < SPACES; i++) roomIds.push(ok(await key('POST', '/v1/data-records', { dataCollectionSimplyId: rooms.id, fields: { [field(rooms, 'name')]: `Room ${i + 1}` } }), 'room').id);
  const client = JSON.parse((await runSvc(['oauth-clients', 'create', '--name', 'Bench spaces', '--redirect-uri', REDIRECT, '--first-party', '--allow', 'svc-spaces'], svcEnvironment(bed.env))).trim().split('\n').at(-1)!);
  const token = await spacesToken(base, dispatcher, boot, client.clientId);
  const mapping = {
    spaces: { dataCollectionSimplyId: rooms.id, displayNameFieldSimplyId: field(rooms, 'name') },
    bookings: {
      dataCollectionSimplyId: bookings.id,
      startsAtFieldSimplyId: field(bookings, 'starts'),
      endsAtFieldSimplyId: field(bookings, 'ends'),
      spacesFieldSimplyId: field(bookings, 'spaces'),
      titleFieldSimplyId: field(bookings, 'title'),
      statusFieldSimplyId: field(bookings, 'status'),
    },
  };
  const connection = ok(await call(base, dispatcher, 'POST', '/v1/svc-spaces/source-connections', { token, json: { name: 'Rooms', mapping } }), 'connection').sourceConnectionSimplyId;
  const provisioned = ok(
    await call(base, dispatcher, 'POST', `/v1/svc-spaces/source-connections/${connection}/booking-channels/provision`, {
      token,
      json: {
        bookingChannel: {
          name: 'Rooms',
          spaceRecordSimplyIds: roomIds,
          availabilityPolicy: {
            timeZone: ZONE,
            weeklyWindows: ['MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY'].map((dayOfWeek) => ({ dayOfWeek, start: '08:00', end: '20:00' })),
            slotIncrementMinutes: 30,
            minimumDurationMinutes: 30,
            maximumDurationMinutes: 240,
            defaultDurationMinutes: 60,
            maximumAdvanceDays: 365,
          },
          pricing: { mode: 'PER_HOUR', currencyCode: 'EUR', amountMinorUnits: 2500 },
          bookingLinks: [{ name: 'Public', audience: 'PUBLIC', allowAnonymousAvailability: true }],
        },
      },
    }),
    'provision',
  );
  // some bookings, so availability and grids have claims to weigh
  const day = monday();
  for (let i = 0; i < 20; i++) {
    const date = day.add({ days: i % 5 });
    ok(
      await call(base, dispatcher, 'POST', `/v1/svc-spaces/source-connections/${connection}/booking-runs`, {
        token,
        json: { bookingChannelSimplyId: provisioned.bookingChannel.bookingChannelSimplyId, startsAt: at(date, `${String(9 + (i % 8)).padStart(2, '0')}:00`), endsAt: at(date, `${String(10 + (i % 8)).padStart(2, '0')}:00`), spaceRecordSimplyIds: [roomIds[i % 3]], title: `Seed ${i}` },
      }),
      'seed booking',
    );
  }
  return { platform, boot, dispatcher, spacesToken: token, connection, channel: provisioned.bookingChannel.bookingChannelSimplyId, link: provisioned.publicAccessTokens[0], roomIds };
}

async function sequential(label: string, count: number, send: () => Promise<{ status: number; ms: number; body: any }>) {
  for (let i = 0; i < 20; i++) await send();
  const latencies: number[] = [];
  let failures = 0;
  let firstFailure: string | null = null;
  for (let i = 0; i < count; i++) {
    const r = await send();
    if (r.status !== 200) {
      failures++;
      firstFailure ??= `${r.status} ${JSON.stringify(r.body).slice(0, 300)}`;
    }
    latencies.push(r.ms);
  }
  const s = summarizeLatencies(latencies);
  return { label, p50: s.p50, p95: percentile(latencies, 0.95), max: s.max, failures, firstFailure };
}

async function slotGrid(world: World, { lines, targets, summary, progress }: SectionBed<SpaceBookingScenario>): Promise<void> {
  progress('space bookings: 31-day slot grids through a public link');
  const first = monday().with({ day: 1 }).add({ months: 1 });
  const body = { spaceRecordSimplyId: world.roomIds[0], fromDate: first.toString(), toDate: first.add({ days: 30 }).toString(), durationMinutes: 60 };
  const path = `/v1/svc-spaces/booking-links/${world.link.bookingLinkSimplyId}/slot-grid`;
  const r = await sequential('slot grid', READS, () => call(world.platform.baseUrl, world.dispatcher, 'POST', path, { json: body, headers: { 'x-svc-public-token': world.link.publicAccessToken } }));
  summary.slotGrid = { requests: READS, ...r };
  lines.push('', `spaces-slot-grid: ${READS} slot grids of a 31-day month (one space, 60 minutes, 30-minute steps), one at a time`, `  p50 ${r.p50.toFixed(1)} ms, p95 ${r.p95.toFixed(1)} ms, max ${r.max.toFixed(1)} ms, failed ${r.failures}${r.firstFailure ? ` (first: ${r.firstFailure})` : ''}`);
  targets.push(judged('slot grid of a 31-day month p95 < 50 ms', `${r.p95.toFixed(1)} ms`, r.p95 < 50 && r.failures === 0));
}

async function availability(world: World, { lines, targets, summary, progress }: SectionBed<SpaceBookingScenario>): Promise<void> {
  progress('space bookings: availability of 50 spaces');
  const day = monday();
  const body = { bookingChannelSimplyId: world.channel, startsAt: at(day, '10:00'), endsAt: at(day, '11:00') };
  const path = `/v1/svc-spaces/source-connections/${world.connection}/booking-availability`;
  const r = await sequential('availability', READS, () => call(world.platform.baseUrl, world.dispatcher, 'POST', path, { token: world.spacesToken, json: body }));
  summary.availability = { requests: READS, spaces: SPACES, ...r };
  lines.push('', `spaces-availability: ${READS} availability checks of all ${SPACES} spaces (OAuth token of the spaces app), one at a time`, `  p50 ${r.p50.toFixed(1)} ms, p95 ${r.p95.toFixed(1)} ms, max ${r.max.toFixed(1)} ms, failed ${r.failures}${r.firstFailure ? ` (first: ${r.firstFailure})` : ''}`);
  targets.push(judged(`availability of ${SPACES} spaces p95 < 30 ms`, `${r.p95.toFixed(1)} ms`, r.p95 < 30 && r.failures === 0));
}

interface BurstAnswer {
  status: number;
  code: string | null;
  ms: number;
}

/**
 * Where a burst's requests go: a fresh pool of 200 connections per origin (each connection makes its
 * own TLS handshake inside the measurement), or an agent whose connections a warm-up opened (as a
 * proxy or an app server in front of the instances keeps them).
 */
type Connections = { fresh: true } | { open: Agent };

/**
 * `count` requests sent at once, alternating over `bases`; `ms` is each answer's time since the
 * burst began. undici's `request`, not `fetch`: the load generator shares this machine's two cores
 * with the servers, so it should cost as little as it can.
 */
async function burst(ca: string, bases: string[], count: number, build: (i: number) => { method: 'GET' | 'POST'; path: string; token?: string; json?: unknown }, connections: Connections = { fresh: true }): Promise<BurstAnswer[]> {
  const agent = 'open' in connections ? connections.open : new Agent({ connect: { ca }, connections: 200 });
  try {
    const started = performance.now();
    return await Promise.all(
      Array.from({ length: count }, async (_, i) => {
        const ask = build(i);
        const headers: Record<string, string> = ask.json === undefined ? {} : { 'content-type': 'application/json' };
        if (ask.token) headers.authorization = `Bearer ${ask.token}`;
        try {
          const response = await request(`${bases[i % bases.length]}${ask.path}`, { method: ask.method, headers, body: ask.json === undefined ? undefined : JSON.stringify(ask.json), dispatcher: agent });
          const text = await response.body.text();
          let code: string | null = null;
          if (response.statusCode >= 400) code = (JSON.parse(text) as { error?: { code?: string } }).error?.code ?? null;
          return { status: response.statusCode, code, ms: performance.now() - started };
        } catch (error) {
          return { status: 0, code: (error as Error).message, ms: performance.now() - started };
        }
      }),
    );
  } finally {
    if (!('open' in connections)) await agent.close();
  }
}

/** An agent of up to 200 connections per origin, opened by a warm-up burst just before it is used. */
async function openConnections(ca: string, bases: string[], warmUp: (i: number) => { method: 'GET' | 'POST'; path: string; token?: string; json?: unknown }): Promise<Connections & { open: Agent }> {
  const open = new Agent({ connect: { ca }, connections: 200, keepAliveTimeout: 30_000 });
  await burst(ca, bases, WARM_UP, warmUp, { open });
  return { open };
}

/** Two bare `node:http` + `pg` servers over the platform's own certificate, each answering one indexed SELECT: the machine's floor for the same bursts. */
async function floorOfBursts(bed: SectionBed<SpaceBookingScenario>, world: World): Promise<{ fresh: BurstAnswer[]; open: BurstAnswer[] }> {
  const servers = [await startBaselineBeside(bed.env.DATABASE_URL!, bed.env.DATA_DIR!, world.boot.teamSimplyId), await startBaselineBeside(bed.env.DATABASE_URL!, bed.env.DATA_DIR!, world.boot.teamSimplyId)];
  try {
    const bases = servers.map((s) => s.url);
    const ask = () => ({ method: 'GET' as const, path: `/teams/${world.boot.teamSimplyId}` });
    await burst(world.platform.ca, bases, WARM_UP, ask);
    const fresh = await burst(world.platform.ca, bases, RUNS, ask);
    const connections = await openConnections(world.platform.ca, bases, ask);
    try {
      return { fresh, open: await burst(world.platform.ca, bases, RUNS, ask, connections) };
    } finally {
      await connections.open.close();
    }
  } finally {
    await Promise.all(servers.map((s) => s.close()));
  }
}

interface RaceOutcome {
  booked: number;
  errors: number;
  p99: number;
  seconds: number;
  codes: Map<string, number>;
}

function outcomeOf(answers: BurstAnswer[], seconds: number): RaceOutcome {
  const booked = answers.filter((a) => a.status === 201).length;
  const refused = answers.filter((a) => a.status === 409 && ['BOOKING_SPACE_UNAVAILABLE', 'BOOKING_SLOT_CONTENTION'].includes(a.code ?? '')).length;
  const codes = new Map<string, number>();
  for (const a of answers) codes.set(`${a.status} ${a.code ?? ''}`.trim(), (codes.get(`${a.status} ${a.code ?? ''}`.trim()) ?? 0) + 1);
  return { booked, errors: answers.length - booked - refused, p99: percentile(answers.map((a) => a.ms), 0.99), seconds, codes };
}

async function runRace(world: World, bed: SectionBed<SpaceBookingScenario>): Promise<void> {
  const { lines, targets, summary, progress } = bed;
  progress('space bookings: 1,000 concurrent runs on one space over two instances');
  const second = await startPlatform(svcEnvironment({ ...bed.env, PORT: '0', RATE_LIMIT_PER_MINUTE: '1000000000', RATE_LIMIT_ANONYMOUS_PER_MINUTE: '1000000000', SVC_SPACES_PUBLIC_REQUESTS_PER_MINUTE: '100000' }));
  bed.onCleanup(() => second.stop());
  const bases = [world.platform.baseUrl, second.baseUrl];
  const space = world.roomIds[SPACES - 1];
  const connectionPath = `/v1/svc-spaces/source-connections/${world.connection}`;
  const availabilityOn = (day: Temporal.PlainDate) => () => ({ method: 'POST' as const, path: `${connectionPath}/booking-availability`, token: world.spacesToken, json: { bookingChannelSimplyId: world.channel, startsAt: at(day, '10:00'), endsAt: at(day, '11:00'), spaceRecordSimplyIds: [space] } });
  /** the race on `day`: every two of its times overlap, so exactly one run may book */
  const raceOn = async (day: Temporal.PlainDate, connections?: Connections) => {
    const started = performance.now();
    const answers = await burst(
      world.platform.ca,
      bases,
      RUNS,
      (i) => {
        const start = ['10:00', '10:30', '10:00'][i % 3]!;
        const end = ['11:00', '11:30', '11:30'][i % 3]!;
        return { method: 'POST', path: `${connectionPath}/booking-runs`, token: world.spacesToken, json: { bookingChannelSimplyId: world.channel, startsAt: at(day, start), endsAt: at(day, end), spaceRecordSimplyIds: [space], title: `Race ${i}` } };
      },
      connections,
    );
    return outcomeOf(answers, (performance.now() - started) / 1000);
  };
  const freshDay = monday().add({ days: 2 });
  const openDay = monday().add({ days: 3 });
  // both instances warm, as serving instances are (code compiled, database connections open, and
  // past the memory release that follows a start: src/app/http/release-after-load.ts)
  await new Promise((resolve) => setTimeout(resolve, 6_000));
  for (let round = 0; round < 2; round++) await burst(world.platform.ca, bases, WARM_UP, availabilityOn(freshDay));
  const fresh = await raceOn(freshDay);
  const connections = await openConnections(world.platform.ca, bases, availabilityOn(openDay));
  const open = await raceOn(openDay, connections).finally(() => connections.open.close());
  const floor = await floorOfBursts(bed, world);
  const floorP99 = { fresh: percentile(floor.fresh.map((a) => a.ms), 0.99), open: percentile(floor.open.map((a) => a.ms), 0.99) };
  const floorFailures = [...floor.fresh, ...floor.open].filter((a) => a.status !== 200).length;
  summary.runRace = {
    runs: RUNS,
    newConnections: { booked: fresh.booked, errors: fresh.errors, p99: fresh.p99, seconds: fresh.seconds, answers: Object.fromEntries(fresh.codes), floorP99: floorP99.fresh },
    openConnections: { booked: open.booked, errors: open.errors, p99: open.p99, seconds: open.seconds, answers: Object.fromEntries(open.codes), floorP99: floorP99.open },
    floorFailures,
  };
  const describe = (label: string, o: RaceOutcome, floorMs: number) => [
    `  ${label}: booked ${o.booked}, errors ${o.errors}; p99 ${o.p99.toFixed(0)} ms (${o.seconds.toFixed(1)} s); answers ${[...o.codes].map(([k, n]) => `${k} ×${n}`).join(', ')}`,
    `    the machine's floor for the same burst (one-SELECT GETs on two bare node:http + pg servers): p99 ${floorMs.toFixed(0)} ms`,
  ];
  lines.push(
    '',
    `spaces-run-race: ${RUNS} concurrent runs for overlapping times on one space, alternating over two warm instances${floorFailures ? ` (${floorFailures} floor requests failed)` : ''}`,
    ...describe('over connections a warm-up opened', open, floorP99.open),
    ...describe('over new connections (a TLS handshake each, inside the measurement)', fresh, floorP99.fresh),
  );
  const safe = (o: RaceOutcome) => o.booked === 1 && o.errors === 0;
  targets.push(
    judged(
      `${RUNS} concurrent runs on one space over two instances: exactly one booking, 0 errors, p99 < 1 s`,
      `${open.booked} booked, ${open.errors} errors, p99 ${open.p99.toFixed(0)} ms over open connections (bare floor ${floorP99.open.toFixed(0)} ms); new connections: ${fresh.booked} booked, ${fresh.errors} errors, p99 ${fresh.p99.toFixed(0)} ms (floor ${floorP99.fresh.toFixed(0)} ms)`,
      safe(open) && safe(fresh) && open.p99 < 1000,
    ),
  );
}

export const runSpaceBookingSection = (scenarios: readonly SpaceBookingScenario[], progress: (line: string) => void) =>
  runSection('space-bookings', scenarios, progress, async (bed) => {
    const platform = await startPlatform(svcEnvironment({ ...bed.env, PORT: '0', RATE_LIMIT_PER_MINUTE: '1000000000', RATE_LIMIT_ANONYMOUS_PER_MINUTE: '1000000000', SVC_SPACES_PUBLIC_REQUESTS_PER_MINUTE: '100000' }));
    bed.onCleanup(() => platform.stop());
    const dispatcher = new Agent({ connect: { ca: platform.ca } });
    bed.onCleanup(() => dispatcher.close());
    const world = await setUp(bed, platform, dispatcher);
    await bed.scenario('spaces-slot-grid', () => slotGrid(world, bed));
    await bed.scenario('spaces-availability', () => availability(world, bed));
    await bed.scenario('spaces-run-race', () => runRace(world, bed));
  });

export const benchSection = defineBenchSection('space-bookings', SPACE_BOOKING_SCENARIOS, runSpaceBookingSection);
