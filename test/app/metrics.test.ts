// /metrics: what an operator scrapes (requests by route template, job queues and outcomes,
// database pools, outbox lag, subscriptions, the credential cache) and who may scrape it (a bearer
// token on the main port, or the separate METRICS_PORT listener).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PURGE_EXPIRED_CREDENTIALS } from '../../src/modules/credentials/credentials.jobs.ts';
import type { ThrowawayDatabase } from '../db/helpers.ts';
import { createRole, createTeam, type TeamFixture } from '../support/fixtures.ts';
import { createMigratedDatabase } from '../support/migrated-database.ts';
import { subscribeTeamEvents, warmUp } from '../support/realtime.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { untilWith } from '../support/until.ts';
import { useServer } from '../support/use-server.ts';
import { samples } from '../support/prometheus-samples.ts';

const METRICS_TOKEN = 'a-metrics-token-for-this-file-0123456789';
/** queue sizes come from pg-boss's monitor (every 5 s) through a 5 s reading cache */
const until = untilWith({ timeoutMs: 25_000, everyMs: 250 });


/** The value of the sample of `name` whose labels include `labels`, or undefined. */
function valueOf(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  return samples(text, name).find((s) => Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;
}

describe('metrics of a serving instance with job workers', () => {
  let db: ThrowawayDatabase;
  let server: TestServer;
  let team: TeamFixture;
  const scrape = async () => {
    const response = await server.request('GET', '/metrics', { token: METRICS_TOKEN });
    expect(response.status).toBe(200);
    return response.text;
  };

  beforeAll(async () => {
    // its own database: the queues and the outbox it reports are global to a database
    db = await createMigratedDatabase('metrics');
    server = await startTestServer({ databaseUrl: db.url, runJobs: true, env: { METRICS_TOKEN, METRICS_PORT: 0 } });
    team = await createTeam(server);
  });
  afterAll(async () => {
    await server?.close();
    await db?.drop();
  });

  it('counts requests per route template: ids and unmatched paths never become labels', async () => {
    const roleId = await createRole(server, team, { name: 'Metrics role' });
    await server.request('GET', `/v1/team-roles/${roleId}`, { token: team.apiKey });
    await server.request('GET', `/v1/team-roles/${roleId}/no/such/thing`, { token: team.apiKey });
    await server.request('GET', `/nowhere/${roleId}`);
    await server.request('GET', `/${'x'.repeat(200)}`);
    const text = await scrape();
    expect(valueOf(text, 'svc_http_requests_total', { method: 'GET', route: '/v1/team-roles/{teamRoleSimplyId}', status: '200' })).toBe(1);
    expect(valueOf(text, 'svc_http_request_duration_seconds_count', { method: 'GET', route: '/v1/team-roles/{teamRoleSimplyId}' })).toBe(1);
    expect(valueOf(text, 'svc_http_requests_total', { route: 'v1-unmatched', status: '404' })).toBe(1);
    expect(valueOf(text, 'svc_http_requests_total', { route: 'unmatched', status: '404' })).toBe(2);
    // no id, path, token or key anywhere in the exposition
    for (const secret of [roleId, 'nowhere', 'xxxxxxxx', METRICS_TOKEN, team.apiKey, team.teamSimplyId, team.email]) expect(text).not.toContain(secret);
  });

  it('reports job outcomes, queue depth and the age of the oldest waiting job', async () => {
    const { jobs } = server.app.services;
    // a queue no worker of this instance serves: its job waits, ready, and ages
    const idle = `metrics-test.idle-${Date.now()}`;
    await jobs.boss.createQueue(idle);
    await jobs.boss.send(idle, {});
    // one that will run in an hour
    await jobs.send(PURGE_EXPIRED_CREDENTIALS, {}, { startAfter: 3600 });
    // one that completes, and one whose handler fails (and is retried later)
    await jobs.send(PURGE_EXPIRED_CREDENTIALS, { now: new Date().toISOString() });
    await jobs.send(PURGE_EXPIRED_CREDENTIALS, { now: 'not a date' });

    let text = '';
    await until('job outcomes and queue figures', async () => {
      text = await scrape();
      return (
        (valueOf(text, 'svc_jobs_handled_total', { queue: PURGE_EXPIRED_CREDENTIALS, outcome: 'completed' }) ?? 0) >= 1 &&
        (valueOf(text, 'svc_jobs_handled_total', { queue: PURGE_EXPIRED_CREDENTIALS, outcome: 'retried' }) ?? 0) >= 1 &&
        (valueOf(text, 'svc_job_queue_ready_jobs', { queue: idle }) ?? 0) >= 1 &&
        (valueOf(text, 'svc_job_queue_deferred_jobs', { queue: PURGE_EXPIRED_CREDENTIALS }) ?? 0) >= 1 &&
        (valueOf(text, 'svc_job_queue_oldest_ready_age_seconds', { queue: idle }) ?? 0) > 0
      );
    });
    expect(valueOf(text, 'svc_job_handler_duration_seconds_count', { queue: PURGE_EXPIRED_CREDENTIALS })).toBeGreaterThanOrEqual(2);
    expect(valueOf(text, 'svc_job_queue_oldest_ready_age_seconds', { queue: idle })).toBeLessThan(60);
    // every defined queue is reported, idle ones with 0
    expect(valueOf(text, 'svc_job_queue_active_jobs', { queue: 'webhooks.deliver' })).toBeGreaterThanOrEqual(0);
    expect(valueOf(text, 'svc_job_queue_oldest_ready_age_seconds', { queue: 'mail.send' })).toBe(0);
  });

  it('reports database pools, outbox lag, subscriptions and the credential cache', async () => {
    const subscriber = subscribeTeamEvents(server, { authorization: `Bearer ${team.apiKey}` });
    try {
      await warmUp(server, team, subscriber);
      for (let i = 0; i < 3; i++) await server.request('GET', '/v1/team-roles', { token: team.apiKey });
      const text = await scrape();
      expect(valueOf(text, 'svc_db_pool_connections', { pool: 'app' })).toBeGreaterThanOrEqual(1);
      expect(valueOf(text, 'svc_db_pool_max_connections', { pool: 'app' })).toBe(server.app.services.config.DB_POOL_SIZE);
      expect(valueOf(text, 'svc_db_pool_connections', { pool: 'jobs' })).toBeGreaterThanOrEqual(1);
      expect(valueOf(text, 'svc_db_pool_waiting_queries', { pool: 'app' })).toBe(0);
      expect(valueOf(text, 'svc_db_pool_acquire_seconds_count', { pool: 'app' })).toBeGreaterThanOrEqual(1);
      // the outbox: present, never negative (the workers keep it near empty)
      expect(valueOf(text, 'svc_outbox_pending_events')).toBeGreaterThanOrEqual(0);
      expect(valueOf(text, 'svc_outbox_oldest_pending_age_seconds')).toBeGreaterThanOrEqual(0);
      expect(valueOf(text, 'svc_graphql_subscriptions')).toBeGreaterThanOrEqual(1);
      expect(valueOf(text, 'svc_websocket_connections')).toBeGreaterThanOrEqual(1);
      expect(valueOf(text, 'svc_credential_cache_hits_total')).toBeGreaterThanOrEqual(3);
      expect(valueOf(text, 'svc_credential_cache_misses_total')).toBeGreaterThanOrEqual(1);
      expect(valueOf(text, 'svc_credential_cache_entries')).toBeGreaterThanOrEqual(1);
    } finally {
      await subscriber.close();
    }
  });

  it('the outbox figures show an event that is waiting, and how long it has waited', async () => {
    // an undispatched event from a minute ago, as a stalled dispatcher would leave it; a row lock
    // keeps the minute sweep (FOR UPDATE SKIP LOCKED) from dispatching it while the test looks
    const { pool } = server.app.services;
    const { rows } = await pool.query(
      `INSERT INTO "DomainEvent" ("teamId", "eventId", "eventType", payload, "occurredAt")
       SELECT id, gen_random_uuid()::text, 'metrics.test', '{}'::jsonb, now() - interval '60 seconds' FROM "Team" WHERE "simplyId" = $1
       RETURNING id`,
      [team.teamSimplyId],
    );
    const holder = await pool.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM "DomainEvent" WHERE id = $1 FOR UPDATE', [rows[0].id]);
      let text = '';
      await until('the waiting event to show', async () => {
        text = await scrape();
        return (valueOf(text, 'svc_outbox_pending_events') ?? 0) >= 1;
      });
      expect(valueOf(text, 'svc_outbox_oldest_pending_age_seconds')).toBeGreaterThanOrEqual(59);
    } finally {
      await holder.query('ROLLBACK');
      holder.release();
    }
  });

  it('/metrics on the main port needs the token; the separate listener serves it too', async () => {
    expect((await server.request('GET', '/metrics')).status).toBe(401);
    const wrong = await server.request('GET', '/metrics', { token: `${METRICS_TOKEN}x` });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error.code).toBe('UNAUTHENTICATED');
    expect(wrong.text).not.toContain('svc_');

    const listener = server.app.metricsListener!;
    expect(listener.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    expect((await fetch(listener.url)).status).toBe(401);
    const served = await fetch(listener.url, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(served.status).toBe(200);
    expect(await served.text()).toContain('# TYPE svc_http_requests_total counter');
    expect((await fetch(listener.url.replace('/metrics', '/healthz'))).status).toBe(404);
  });
});

describe('/metrics without a token', () => {
  const { server } = useServer({ env: { METRICS_PORT: 0 } });

  it('is not served on the main port (404), only on the loopback listener', async () => {
    const main = await server.request('GET', '/metrics');
    expect(main.status).toBe(404);
    expect(main.body.error.code).toBe('NOT_FOUND');
    const served = await fetch(server.app.metricsListener!.url);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(await served.text()).toMatch(/^svc_process_cpu_seconds_total /m);
  });

  it('a server with neither setting has no listener and no /metrics', async () => {
    const plain = await startTestServer();
    try {
      expect(plain.app.metricsListener).toBeNull();
      expect((await plain.request('GET', '/metrics')).status).toBe(404);
    } finally {
      await plain.close();
    }
  });
});
