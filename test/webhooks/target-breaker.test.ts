// The target circuit breaker (target-breaker.ts, docs/api/webhooks.md "Failing targets"): after
// five consecutive failed attempts the target is paused for 30 s; its due deliveries wait without
// using an attempt, and the delivery log shows `waitingReason: TARGET_PAUSED` with `nextAttemptAt`
// at the pause end; after the pause they are attempted again, and a success resets the breaker.
// The rule's 30 s is checked on the rule itself; the server's pause is shortened
// (WEBHOOK_BREAKER_PAUSE_SECONDS), so the drill does not wait out a real half-minute.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { afterAttempts, BREAKER_THRESHOLD, CLOSED, FIRST_PAUSE_SECONDS, MAX_PAUSE_SECONDS } from '../../src/modules/webhooks/target-breaker.ts';
import { loadConfig } from '../../src/main/config.ts';
import { createCollection } from '../support/data-fixtures.ts';
import { expectOk } from '../support/expect-envelope.ts';
import { createTeam } from '../support/fixtures.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { untilWith } from '../support/until.ts';
import { type Receiver, startWebhookBed, type WebhookBed } from '../support/webhook-receiver.ts';

const until = untilWith({ timeoutMs: 20_000, everyMs: 100 });
/** the server's first pause: long enough to watch deliveries wait and to add one during it */
const PAUSE_SECONDS = 10;
let bed: WebhookBed;
let receiver: Receiver;
let server: TestServer;

beforeAll(async () => {
  bed = await startWebhookBed('webhook_breaker');
  receiver = bed.receiver;
  // retries and the deliveries waiting for the pause come due later: a 1 s backstop poll picks them up
  server = await startTestServer({ databaseUrl: bed.db.url, runJobs: true, env: { ...bed.env, WEBHOOK_BREAKER_PAUSE_SECONDS: PAUSE_SECONDS }, jobBackstopPollSeconds: 1 });
});
afterAll(async () => {
  await server?.close();
  await bed?.close();
});

describe('the breaker rule', () => {
  const now = new Date('2026-11-24T10:00:00Z');
  const failures = (n: number) => Array.from({ length: n }, () => false);

  it('opens after five consecutive failures, for 30 s', () => {
    expect(afterAttempts(CLOSED, failures(BREAKER_THRESHOLD - 1), now)).toEqual({ state: { consecutiveFailures: 4, pauseSeconds: 0, pausedUntil: null }, tripped: false });
    const { state, tripped } = afterAttempts(CLOSED, failures(BREAKER_THRESHOLD), now);
    expect(tripped).toBe(true);
    expect(state).toEqual({ consecutiveFailures: 5, pauseSeconds: FIRST_PAUSE_SECONDS, pausedUntil: new Date(now.getTime() + 30_000) });
    expect(loadConfig({}).WEBHOOK_BREAKER_PAUSE_SECONDS).toBe(FIRST_PAUSE_SECONDS);
  });

  it('a shorter first pause (the tests\' setting) doubles the same way', () => {
    let state = afterAttempts(CLOSED, failures(5), now, PAUSE_SECONDS).state;
    expect(state).toEqual({ consecutiveFailures: 5, pauseSeconds: PAUSE_SECONDS, pausedUntil: new Date(now.getTime() + PAUSE_SECONDS * 1000) });
    state = afterAttempts(state, [false], new Date(state.pausedUntil!.getTime() + 1), PAUSE_SECONDS).state;
    expect(state.pauseSeconds).toBe(2 * PAUSE_SECONDS);
  });

  it('a success resets the count; failures during a pause do not extend it', () => {
    expect(afterAttempts(CLOSED, [false, false, false, false, true, false], now).state).toEqual({ consecutiveFailures: 1, pauseSeconds: 0, pausedUntil: null });
    const open = afterAttempts(CLOSED, failures(5), now).state;
    expect(afterAttempts(open, failures(3), now)).toEqual({ state: { ...open, consecutiveFailures: 8 }, tripped: false });
    expect(afterAttempts(open, [true], new Date(now.getTime() + 31_000)).state).toEqual(CLOSED);
  });

  it('a failure after a pause pauses again for twice as long, up to 10 minutes', () => {
    let state = afterAttempts(CLOSED, failures(5), now).state;
    const pauses: number[] = [state.pauseSeconds];
    let at = now;
    for (let i = 0; i < 6; i++) {
      at = new Date(state.pausedUntil!.getTime() + 1);
      const step = afterAttempts(state, [false], at);
      expect(step.tripped).toBe(true);
      state = step.state;
      pauses.push(state.pauseSeconds);
    }
    expect(pauses).toEqual([30, 60, 120, 240, 480, MAX_PAUSE_SECONDS, MAX_PAUSE_SECONDS]);
    expect(state.pausedUntil).toEqual(new Date(at.getTime() + MAX_PAUSE_SECONDS * 1000));
  });
});

it('a failing target is paused, its deliveries wait without using attempts, then resume', { timeout: 120_000 }, async () => {
  const team = await createTeam(server);
  const people = await createCollection(server, team, { name: 'People', formula: '{name}', fields: { name: 'PLAIN_TEXT' } });
  const field = people.fields.name!;
  const hookPath = `/hooks/breaker-${randomBytes(3).toString('hex')}`;
  const hook = expectOk(
    await server.request('POST', '/v1/webhooks', { token: team.apiKey, body: { eventType: 'DATA_RECORD_CREATED', targetUrl: `${receiver.origin}${hookPath}`, retryCount: 5, retryDelaySeconds: 1 } }),
    201,
  );
  receiver.secret(hookPath, hook.secret);
  let healthy = false;
  receiver.reply(hookPath, () => (healthy ? { status: 200, body: 'back' } : { status: 503, body: 'down' }));
  const log = async () => expectOk(await server.request('GET', `/v1/webhooks/${hook.id}/deliveries?limit=100`, { token: team.apiKey })) as any[];

  const write = (value: string) => server.request('POST', '/v1/data-records', { token: team.apiKey, body: { dataCollectionSimplyId: people.id, fields: { [field]: value } } });
  for (let i = 0; i < 6; i++) expectOk(await write(`r${i}`), 201);
  // five failed attempts open the breaker; the retries that come due meanwhile wait for its end
  const paused = await until('the deliveries to wait for the paused target', async () => {
    const list = await log();
    return list.length === 6 && list.every((d) => d.waitingReason === 'TARGET_PAUSED') && list;
  });
  const requestsWhilePaused = receiver.on(hookPath).length;
  expect(requestsWhilePaused).toBeGreaterThanOrEqual(5);
  const pauseEnd = Date.parse(paused[0].nextAttemptAt);
  for (const d of paused) {
    expect(['PENDING', 'RETRYING']).toContain(d.deliveryStatus);
    // a wait is not an attempt
    expect(d.attemptNumber).toBe(d.attempts.length);
    expect(Math.abs(Date.parse(d.nextAttemptAt) - pauseEnd)).toBeLessThan(5_000);
  }
  // the pause has a third of it left at least: room to add a delivery during it
  expect(pauseEnd - Date.now()).toBeGreaterThan((PAUSE_SECONDS * 1000) / 3);
  expect(pauseEnd - Date.now()).toBeLessThanOrEqual(PAUSE_SECONDS * 1000);

  // a delivery created during the pause waits too, before its first attempt
  expectOk(await write('during'), 201);
  const waitingNew = await until('the new delivery to wait', async () => (await log()).find((d) => d.attemptNumber === 0 && d.waitingReason === 'TARGET_PAUSED'));
  expect(waitingNew).toMatchObject({ deliveryStatus: 'PENDING', attempts: [] });
  expect(Math.abs(Date.parse(waitingNew.nextAttemptAt) - pauseEnd)).toBeLessThan(5_000);
  expect(receiver.on(hookPath)).toHaveLength(requestsWhilePaused);

  // the receiver recovers; after the pause every delivery is attempted again and succeeds
  healthy = true;
  const done = await until(
    'the deliveries after the pause',
    async () => {
      const list = await log();
      return list.length === 7 && list.every((d) => d.deliveryStatus === 'SUCCEEDED') && list;
    },
    60_000,
  );
  const resumedAt = Math.min(...receiver.on(hookPath).slice(requestsWhilePaused).map((r) => r.receivedAt));
  expect(resumedAt).toBeGreaterThanOrEqual(pauseEnd - 1_000);
  for (const d of done) {
    expect(d).toMatchObject({ waitingReason: null, nextAttemptAt: null, responseStatus: 200, responseBody: 'back' });
    expect(d.attemptNumber).toBe(d.attempts.length);
    expect(d.attempts.filter((a: any) => a.success)).toHaveLength(1);
  }
  // the success closed the breaker: nothing is counting for the target any more
  const rows = await server.app.services.pool.query(`SELECT 1 FROM "WebhookTargetBreaker" WHERE "teamId" = $1`, [team.teamId]);
  expect(rows.rowCount).toBe(0);
  expect(receiver.on(hookPath).every((r) => r.signatureValid)).toBe(true);
});
