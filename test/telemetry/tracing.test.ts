// OpenTelemetry traces end to end (docs/observability.md "Traces"): a server with the OTEL_*
// settings on exports OTLP/JSON to a receiver this file starts; the span tree of one REST call
// (server span → its GraphQL operation → SQL statements) and of one webhook delivery (the record
// create's trace, kept with its outbox event, continues in the delivery job and into the
// receiver's `traceparent`); no span carries a credential, a record value or a body; spans still
// buffered are exported on close. With tracing off a real process loads no OpenTelemetry SDK
// module (our code imports none) and exports nothing.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createCollection, type CollectionFixture } from '../support/data-fixtures.ts';
import { expectOk } from '../support/expect-envelope.ts';
import { createTeam, unique, type TeamFixture } from '../support/fixtures.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { untilWith } from '../support/until.ts';
import { startWebhookBed, type WebhookBed } from '../support/webhook-receiver.ts';
import { startChildProcess } from '../support/worker-process.ts';
import { createMigratedDatabase } from '../support/migrated-database.ts';
import { traceJobs, traceWebhookAttempt } from '../../src/app/telemetry/tracing.ts';
import { SpanKind, startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from './otlp-receiver.ts';

const until = untilWith({ timeoutMs: 20_000, everyMs: 50 });
const SERVICE = 'svc-tracing-test';

let otlp: OtlpReceiver;
let bed: WebhookBed;
let server: TestServer;
let team: TeamFixture;
let people: CollectionFixture;
/** everything a span must never carry, added to as the tests go */
const secrets: string[] = [];

beforeAll(async () => {
  otlp = await startOtlpReceiver();
  bed = await startWebhookBed('telemetry');
  server = await startTestServer({
    databaseUrl: bed.db.url,
    runJobs: true,
    env: {
      ...bed.env,
      OTEL_EXPORTER_OTLP_ENDPOINT: otlp.origin,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_EXPORTER_OTLP_HEADERS: 'x-collector-key=k%20123',
      OTEL_SERVICE_NAME: SERVICE,
      OTEL_BSP_SCHEDULE_DELAY: 100,
    },
  });
  team = await createTeam(server);
  people = await createCollection(server, team, { name: 'People', formula: '{name}', fields: { name: 'PLAIN_TEXT' } });
  secrets.push(team.apiKey, team.userToken);
});
afterAll(async () => {
  await server?.close();
  await bed?.close();
  await otlp?.close();
});

const ofService = (service = SERVICE) => otlp.spans.filter((s) => s.resource['service.name'] === service);
const inTrace = (traceId: string) => ofService().filter((s) => s.traceId === traceId);
const byId = (traceId: string, spanId: string) => inTrace(traceId).find((s) => s.spanId === spanId);

/** The server span of the request with this x-request-id, once exported. */
const serverSpanOf = (requestId: string) =>
  until(`the server span of request ${requestId}`, () => ofService().find((s) => s.kind === SpanKind.SERVER && s.attributes['svc.request.id'] === requestId));

/** `span`, its parent, its parent's parent … up to the root, once all of them are exported. */
function ancestry(span: ReceivedSpan): ReceivedSpan[] | null {
  const chain = [span];
  for (let at = span; at.parentSpanId; ) {
    const parent = byId(span.traceId, at.parentSpanId);
    if (!parent) return null;
    chain.push((at = parent));
  }
  return chain;
}

async function createRecord(value: string) {
  const body = { dataCollectionSimplyId: people.id, fields: { [people.fields.name!]: value } };
  secrets.push(value, JSON.stringify(body));
  const response = await server.request('POST', '/v1/data-records', { token: team.apiKey, body });
  expectOk(response, 201);
  return response.headers.get('x-request-id')!;
}

describe('with an OTLP endpoint set', () => {
  it('gives a REST call a server span, its GraphQL operation a child span, and its SQL statements spans under that', async () => {
    const requestId = await createRecord(`Ada ${unique()}`);
    const root = await serverSpanOf(requestId);
    expect(root).toMatchObject({
      name: 'POST /v1/data-records',
      parentSpanId: '',
      attributes: { 'http.request.method': 'POST', 'http.route': '/v1/data-records', 'http.response.status_code': 201, 'url.scheme': 'https' },
    });
    expect(root.resource['service.name']).toBe(SERVICE);
    const operation = await until('the operation span', () =>
      inTrace(root.traceId).find((s) => s.parentSpanId === root.spanId && s.attributes['graphql.operation.type'] === 'mutation'),
    );
    expect(operation.name).toBe(`mutation ${operation.attributes['graphql.operation.name']}`);
    const statements = await until('the statement spans', () => {
      const found = inTrace(root.traceId).filter((s) => s.parentSpanId === operation.spanId && s.attributes['db.system.name'] === 'postgresql');
      return found.some((s) => s.attributes['db.operation.name'] === 'INSERT') && found;
    });
    for (const statement of statements) {
      expect(statement.kind).toBe(SpanKind.CLIENT);
      expect(statement.attributes['db.query.text']).toEqual(expect.any(String));
      expect(statement.attributes['db.namespace']).toBe(new URL(bed.db.url).pathname.slice(1));
      expect(statement.name).toBe(statement.attributes['db.query.summary']);
    }
    // the operation's own statements, and the credential check's before it, all in the one trace
    expect(inTrace(root.traceId).filter((s) => s.attributes['db.system.name'] === 'postgresql').length).toBeGreaterThanOrEqual(statements.length);
    // the collector's headers went with every export
    expect(otlp.requests.length).toBeGreaterThan(0);
    for (const request of otlp.requests) {
      expect(request.path).toBe('/v1/traces');
      expect(request.headers['x-collector-key']).toBe('k 123');
    }
  });

  it('gives a GraphQL request its operation span, under the server span', async () => {
    const query = 'query TeamRoles { teamRoles { nodes { id name } } }';
    const response = await server.request('POST', '/graphql', { token: team.apiKey, body: { query } });
    expect(response.status, response.text).toBe(200);
    const root = await serverSpanOf(response.headers.get('x-request-id')!);
    expect(root).toMatchObject({ name: 'POST /graphql', attributes: { 'http.route': '/graphql', 'http.response.status_code': 200 } });
    const operation = await until('the operation span', () => inTrace(root.traceId).find((s) => s.parentSpanId === root.spanId && s.name === 'query TeamRoles'));
    expect(operation.attributes).toEqual({ 'graphql.operation.type': 'query', 'graphql.operation.name': 'TeamRoles' });
    await until('its statements', () => inTrace(root.traceId).some((s) => s.parentSpanId === operation.spanId && s.attributes['db.system.name'] === 'postgresql'));
  });

  it("carries a record create's trace through the outbox dispatch and the delivery job into the webhook's traceparent", async () => {
    const hookPath = `/hooks/${unique()}`;
    const target = `${bed.receiver.origin}${hookPath}`;
    const hook = expectOk(await server.request('POST', '/v1/webhooks', { token: team.apiKey, body: { eventType: 'DATA_RECORD_CREATED', targetUrl: target } }), 201);
    secrets.push(hook.secret, hookPath);
    const requestId = await createRecord(`Grace ${unique()}`);
    const root = await serverSpanOf(requestId);

    const [delivery] = await until('the delivery', () => bed.receiver.on(hookPath).length > 0 && bed.receiver.on(hookPath));
    const traceparent = String(delivery!.headers.traceparent);
    const [, traceId, parentId] = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/.exec(traceparent) ?? [];
    expect(traceId, traceparent).toBe(root.traceId);

    const request = await until('the webhook request span', () => byId(root.traceId, parentId!));
    expect(request).toMatchObject({ name: 'POST', kind: SpanKind.CLIENT, attributes: { 'http.request.method': 'POST', 'http.response.status_code': 200 } });
    const chain = await until('every span from the webhook request up to the request', () => ancestry(request));
    // the event kept the write's trace, and its delivery job carries it: the job continues the
    // write, whichever dispatch queued it
    expect(chain.map((s) => s.name)).toEqual(['POST', 'process webhooks.deliver', expect.stringMatching(/^mutation /), 'POST /v1/data-records']);
    expect(chain.at(-1)!.spanId).toBe(root.spanId);
    const [, deliver] = chain;
    expect(deliver).toMatchObject({ kind: SpanKind.CONSUMER, attributes: { 'messaging.system': 'pg-boss', 'messaging.destination.name': 'webhooks.deliver', 'messaging.operation.type': 'process' } });
    // the delivery job's own statements (loading the delivery, recording the attempt) are in the trace too
    await until('statements of the delivery job', () => inTrace(root.traceId).some((s) => s.parentSpanId === deliver!.spanId && s.attributes['db.system.name'] === 'postgresql'));
  });

  it('under concurrent writes, each delivery and each automation run continues the trace of its own write', async () => {
    const hookPath = `/hooks/${unique()}`;
    const notes = await createCollection(server, team, { name: `Notes ${unique()}`, formula: '{text}', fields: { text: 'PLAIN_TEXT' } });
    const hook = expectOk(
      await server.request('POST', '/v1/webhooks', {
        token: team.apiKey,
        body: { eventType: 'DATA_RECORD_CREATED', targetUrl: `${bed.receiver.origin}${hookPath}`, filterCriteria: { dataCollectionIds: [people.id, notes.id] } },
      }),
      201,
    );
    secrets.push(hook.secret, hookPath);
    // each person created makes a note through an automation: the note's delivery is two hops from the write
    const automation = expectOk(
      await server.request('POST', '/v1/automations', {
        token: team.apiKey,
        body: {
          name: `Note ${unique()}`,
          triggerType: 'RECORD_CREATED',
          dataCollectionSimplyId: people.id,
          actions: [{ actionType: 'CREATE_RECORD', actionConfig: { dataCollectionSimplyId: notes.id, fields: { [notes.fields.text!]: 'follow up' } } }],
        },
      }),
      201,
    );
    const writes = await Promise.all(
      Array.from({ length: 6 }, async (_, i) => {
        const value = `Concurrent ${i} ${unique()}`;
        secrets.push(value);
        const response = await server.request('POST', '/v1/data-records', { token: team.apiKey, body: { dataCollectionSimplyId: people.id, fields: { [people.fields.name!]: value } } });
        const record = expectOk(response, 201);
        return { recordId: record.id as string, requestId: response.headers.get('x-request-id')! };
      }),
    );
    const traceOfWrite = new Map<string, string>();
    for (const write of writes) traceOfWrite.set(write.recordId, (await serverSpanOf(write.requestId)).traceId);
    expect(new Set(traceOfWrite.values()).size).toBe(writes.length);

    // 6 people and 6 notes
    const received = await until('12 deliveries', () => bed.receiver.on(hookPath).length >= 12 && bed.receiver.on(hookPath));
    const traceIdOf = (headers: Record<string, unknown>) => /^00-([0-9a-f]{32})-/.exec(String(headers.traceparent))?.[1];
    const personDeliveries = received.filter((d) => d.body.data.dataCollectionSimplyId === people.id);
    expect(personDeliveries).toHaveLength(6);
    for (const delivery of personDeliveries) expect(traceIdOf(delivery.headers)).toBe(traceOfWrite.get(delivery.body.data.id));

    // each run is in its trigger's trace, and so is the delivery of the note the run created
    const runs = await until('6 finished runs', async () => {
      const list = expectOk(await server.request('GET', `/v1/automations/${automation.id}/executions?limit=100`, { token: team.apiKey }));
      return list.filter((e: { status: string }) => e.status === 'SUCCEEDED').length === 6 && list;
    });
    expect(runs).toHaveLength(6);
    const noteTraces = received.filter((d) => d.body.data.dataCollectionSimplyId === notes.id).map((d) => traceIdOf(d.headers));
    expect(noteTraces.sort()).toEqual([...traceOfWrite.values()].sort());
    const runSpans = await until('the 6 run spans', () => {
      const found = ofService().filter((s) => s.name === 'process automations.execute' && traceOfWrite.size > 0 && [...traceOfWrite.values()].includes(s.traceId));
      return found.length >= 6 && found;
    });
    expect(new Set(runSpans.map((s) => s.traceId)).size).toBe(6);
  });

  it('gives each job of a batch its own span, continuing the trace its data carries', async () => {
    const { services } = server.app;
    const parents = [`${'a1'.repeat(16)}`, `${'b2'.repeat(16)}`].map((traceId, i) => ({ traceId, spanId: `${i + 1}`.repeat(16) }));
    const jobs = parents.map((p, i) => ({
      id: `batch-job-${i}-${unique()}`,
      name: 'telemetry.batch',
      data: { n: i, traceparent: `00-${p.traceId}-${p.spanId}-01` },
      expireInSeconds: 60,
      heartbeatSeconds: null,
      retryCount: 0,
      signal: new AbortController().signal,
    }));
    const sent: string[] = [];
    await traceJobs(services, 'telemetry.batch', jobs, async (batch) => {
      for (const job of batch) {
        await traceWebhookAttempt(services, job, async (headers) => {
          sent.push(headers.traceparent!);
          return { success: true, responseStatus: 204 };
        });
      }
    }, null);
    expect(sent.map((t) => t.split('-')[1])).toEqual(parents.map((p) => p.traceId));
    const jobSpans = await until('the job spans', () => {
      const found = parents.map((p) => inTrace(p.traceId).find((s) => s.name === 'process telemetry.batch' && s.parentSpanId === p.spanId));
      return found.every(Boolean) && (found as ReceivedSpan[]);
    });
    for (const [i, span] of jobSpans.entries()) {
      expect(span).toMatchObject({ kind: SpanKind.CONSUMER, attributes: { 'messaging.message.id': jobs[i]!.id, 'messaging.batch.message_count': 2 } });
      // the attempt's client span is the job span's child, and what the request carried
      const request = inTrace(span.traceId).find((s) => s.name === 'POST' && s.parentSpanId === span.spanId);
      expect(sent[i]).toBe(`00-${span.traceId}-${request?.spanId}-01`);
    }
    // the handler call itself: a root span of its own, linked to each job's
    const call = await until('the batch span', () => ofService().find((s) => s.name === 'process telemetry.batch' && s.links.length === 2));
    expect(call.parentSpanId).toBe('');
    expect(call.links).toEqual(jobSpans.map((s) => ({ traceId: s.traceId, spanId: s.spanId })));
  });

  it('puts no credential, record value, body or webhook target into any span', async () => {
    await until('spans exported', () => ofService().length > 20);
    const problems: string[] = [];
    for (const span of ofService()) {
      const texts = [span.name, ...Object.values(span.attributes).flat().map(String), ...Object.values(span.resource).flat().map(String)];
      for (const text of texts) for (const secret of secrets) if (text.includes(secret)) problems.push(`${span.name}: ${text.slice(0, 120)}`);
      // no attribute of a raw path, query, header, address or statement parameter at all
      for (const key of Object.keys(span.attributes)) {
        if (/^(url\.(full|path|query)|http\.request\.header|http\.request\.body|client\.address|db\.query\.parameter|user\.)/.test(key)) problems.push(`${span.name}: ${key}`);
      }
    }
    expect(problems).toEqual([]);
  });
});

describe('on shutdown', () => {
  it('exports the spans still buffered', async () => {
    const service = `svc-tracing-flush-${unique()}`;
    // spans wait for the batch (10 minutes away): only the flush at close can send them
    const flushed = await startTestServer({ env: { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${otlp.origin}/v1/traces`, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_SERVICE_NAME: service, OTEL_BSP_SCHEDULE_DELAY: 600_000 } });
    const response = await flushed.request('GET', '/readyz');
    expect(response.status).toBe(200);
    expect(ofService(service)).toEqual([]);
    await flushed.close();
    const [span] = ofService(service).filter((s) => s.kind === SpanKind.SERVER);
    expect(span).toMatchObject({ name: 'GET /readyz', attributes: { 'http.route': '/readyz', 'http.response.status_code': 200, 'svc.request.id': response.headers.get('x-request-id') } });
    expect(ofService(service).some((s) => s.parentSpanId === span!.spanId && s.name === 'SELECT')).toBe(true);
  });
});

describe('with tracing off', () => {
  it('loads no OpenTelemetry SDK module and exports nothing, in a real process', async () => {
    const offReceiver = await startOtlpReceiver();
    const db = await createMigratedDatabase('telemetry-off');
    const cleanups: (() => Promise<unknown>)[] = [];
    try {
      const dataDir = path.join(inject('testDataDir'), `telemetry-off-${unique()}`);
      fs.mkdirSync(dataDir, { recursive: true });
      const probe = startChildProcess(['test/telemetry/tracing-off-probe.ts'], { PATH: process.env.PATH, DATABASE_URL: db.url, DATA_DIR: dataDir, OTLP_ENDPOINT: offReceiver.origin }, cleanups);
      const exit = await probe.exited;
      expect(exit.code, probe.stderr()).toBe(0);
      const report = JSON.parse(probe.stdout().trim().split('\n').at(-1)!);
      // each of the probe's servers answered its requests (readiness, REST, GraphQL, health) and ran its workers
      expect(report.answered).toEqual([
        [200, 401, 200, 200],
        [200, 401, 200, 200],
      ]);
      // only the API package that prom-client requires for itself: no SDK, nothing imported by our code
      expect(report.opentelemetryPackages.filter((name: string) => name !== '@opentelemetry/api')).toEqual([]);
      expect(report.importedFromOurCode).toEqual([]);
      expect(offReceiver.requests).toEqual([]);
    } finally {
      for (const cleanup of cleanups) await cleanup();
      await offReceiver.close();
      await db.drop();
    }
  });
});
