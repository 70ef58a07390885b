// Records the outcomes of a batch of delivery jobs. Outcomes are written together once every
// attempt of the batch has ended, or, while some are still running, at most WAIT_MS after the
// first unwritten one arrived: so the fast attempts of a batch are settled without waiting for a
// slow receiver. Each write is one transaction of a few statements whatever its size: the jobs'
// completion (fenced to this worker's claim), the targets' breakers, the attempts with their
// deliveries' new status, subscriptions' counters and realtime events (one statement), and the
// next attempts' jobs. So a job is completed exactly when its attempt is recorded.
import { onConnection } from '../../app/jobs.ts';
import type pg from 'pg';
import type { Job, JobInsert } from 'pg-boss';
import type { Logger } from 'pino';
import type { Services } from '../../app/context.ts';
import { inTransaction } from '../../app/transaction.ts';
import type { WebhookDeliveryAttemptEvent } from './webhooks.events.ts';
import type { AttemptOutcome } from './webhook-sender.ts';
import { targetGroupId } from './delivery-order.ts';
import { afterAttempts, CLOSED, type BreakerState } from './target-breaker.ts';
import { DELIVER_WEBHOOK, DELIVER_WEBHOOK_SLOW, deliveryJob, type DeliveryJobData, type DeliveryQueue } from './delivery-job.ts';
import { slowTargets } from './slow-targets.ts';
import {
  breakerKey,
  ensureBreakers,
  loadBreakers,
  markWaitingForTarget,
  recordAttempts,
  saveBreakers,
  type DeliveryRow,
  type RecordedAttempt,
  type TargetKey,
} from './webhooks.sql.ts';

export type Settlement =
  /** nothing to record (finished, deleted, attempt already logged): the job is only completed */
  | { kind: 'done'; job: Job<DeliveryJobData> }
  /** `final`: the delivery ends whatever retryCount says (not sent at all) */
  | { kind: 'attempt'; job: Job<DeliveryJobData>; delivery: DeliveryRow; target: TargetKey | null; outcome: AttemptOutcome; final: boolean }
  /** the target is paused: the same attempt is queued again for `until` */
  | { kind: 'defer'; job: Job<DeliveryJobData>; delivery: DeliveryRow; target: TargetKey | null; until: Date }
  /** the target answers slowly: the same attempt moves to the slow lane at once (slow-targets.ts) */
  | { kind: 'reroute'; job: Job<DeliveryJobData>; delivery: DeliveryRow; target: TargetKey };

/** how long a finished attempt may wait for the rest of its batch before it is written anyway */
const WAIT_MS = 100;
/** deadlock, serialization failure, or a delivery deleted under the statement: run it again */
const TRANSIENT = new Set(['40P01', '40001', '23503']);
const TRIES = 3;

export class AttemptRecorder {
  private pending: Settlement[] = [];
  private running: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  /** attempts still running, plus one until the batch has started all of its own (ready()) */
  private outstanding = 1;
  private failure: unknown = null;
  private readonly services: Services;
  /** the queue the batch's jobs came from */
  private readonly queue: DeliveryQueue;
  /** the breakers as the batch found them: a success clears a row only where one was seen */
  private readonly known: ReadonlyMap<string, BreakerState>;
  private readonly logger: Logger;

  constructor(services: Services, queue: DeliveryQueue, known: ReadonlyMap<string, BreakerState>, logger: Logger) {
    this.services = services;
    this.queue = queue;
    this.known = known;
    this.logger = logger;
  }

  /** An attempt has started whose outcome will be added. */
  expect(): void {
    this.outstanding++;
  }

  /** An attempt announced with expect() ended without anything to record (its job is left unsettled). */
  abandon(): void {
    this.ready();
  }

  /** Every attempt of the batch has started (or was settled without one). */
  ready(): void {
    this.outstanding--;
    this.schedule();
  }

  /** A settlement; one of an attempt announced with expect() counts it as ended. */
  add(settlement: Settlement, expected = false): void {
    this.pending.push(settlement);
    if (expected) this.outstanding--;
    this.schedule();
  }

  private schedule(): void {
    if (this.pending.length === 0) return;
    if (this.outstanding === 0) this.writeNow();
    else this.timer ??= setTimeout(() => this.writeNow(), WAIT_MS);
  }

  /** Waits until everything added is written; throws the first failure. */
  async drain(): Promise<void> {
    this.writeNow();
    while (this.running) await this.running;
    if (this.failure) throw this.failure;
  }

  private writeNow(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    // only with something to write: writeAll with nothing to do would finish (and clear `running`)
    // before its promise is stored, leaving a settled promise in `running` that drain() would await
    // for ever, in microtasks, with the event loop starved
    if (this.running || this.pending.length === 0 || this.failure) return;
    this.running = this.writeAll();
  }

  private async writeAll(): Promise<void> {
    try {
      while (this.pending.length > 0 && !this.failure) {
        await this.writeWithRetry(this.pending.splice(0));
      }
    } catch (error) {
      this.failure = error;
    } finally {
      this.running = null;
    }
  }

  private async writeWithRetry(batch: Settlement[]): Promise<void> {
    for (let tries = 1; ; tries++) {
      try {
        return await inTransaction(this.services.pool, (db) => this.write(db, batch));
      } catch (error) {
        if (tries >= TRIES || !TRANSIENT.has((error as { code?: string }).code ?? '')) throw error;
      }
    }
  }

  private async write(db: pg.PoolClient, batch: Settlement[]): Promise<void> {
    const { services } = this;
    await services.jobs.boss.complete(
      this.queue,
      batch.map((s) => s.job),
      undefined,
      { db: onConnection(db) },
    );
    const attempts: (RecordedAttempt & { settlement: Settlement & { kind: 'attempt' } })[] = [];
    const deferred: (Settlement & { kind: 'defer' })[] = [];
    const next = new Lanes();
    const breakerOutcomes = new Map<string, { key: TargetKey; successes: boolean[] }>();
    const inOrder = batch.filter((s) => s.kind !== 'done').sort((a, b) => finishedAt(a) - finishedAt(b));
    for (const s of inOrder) {
      if (s.kind === 'defer') {
        deferred.push(s);
        continue;
      }
      if (s.kind === 'reroute') {
        next.slow.push(deliveryJob(s.job.data, s.delivery.timeoutSeconds, { groupId: groupOf(s.target) }));
        continue;
      }
      const d = s.delivery;
      const { attempt } = s.job.data;
      // retryCount retries after the first attempt (as read when the attempt started, so an update applies to queued deliveries)
      const final = s.final || attempt > d.retryCount;
      const status = s.outcome.success ? 'SUCCEEDED' : final ? 'FAILED' : 'RETRYING';
      const event: WebhookDeliveryAttemptEvent = {
        webhookSimplyId: d.webhookSimplyId,
        deliverySimplyId: d.simplyId,
        eventId: d.eventId,
        eventType: d.eventType,
        attemptNumber: attempt,
        deliveryStatus: status,
        success: s.outcome.success,
        responseStatus: s.outcome.responseStatus,
        responseTimeMs: s.outcome.responseTimeMs,
        errorMessage: s.outcome.errorMessage,
        attemptedAt: s.outcome.startedAt.toISOString(),
      };
      attempts.push({
        settlement: s,
        teamId: d.teamId,
        deliveryId: d.id,
        subscriptionId: d.subscriptionId,
        attempt,
        outcome: s.outcome,
        status,
        finished: final || s.outcome.success,
        retryDelaySeconds: d.retryDelaySeconds,
        note: services.events.notification('webhookDeliveryAttempts', d.teamSimplyId, event),
      });
      // a request that was never made says nothing about the target
      if (s.target && !s.final) {
        const k = breakerKey(s.target);
        const entry = breakerOutcomes.get(k) ?? { key: s.target, successes: [] };
        entry.successes.push(s.outcome.success);
        breakerOutcomes.set(k, entry);
      }
    }
    await this.recordBreakers(db, [...breakerOutcomes.values()]);
    const waiting = await markWaitingForTarget(
      db,
      deferred.map((s) => ({ teamId: s.delivery.teamId, deliveryId: s.delivery.id, attempt: s.job.data.attempt, until: s.until })),
    );
    for (const s of deferred) {
      if (waiting.has(`${s.delivery.id}:${s.job.data.attempt}`)) next.of(s.target).push(deliveryJob(s.job.data, s.delivery.timeoutSeconds, { startAfter: s.until, groupId: groupOf(s.target) }));
    }
    // deleted meanwhile, or another worker recorded the attempt first: left out
    const recorded = await recordAttempts(db, attempts);
    for (const a of attempts) {
      if (a.status !== 'RETRYING' || !recorded.has(`${a.deliveryId}:${a.attempt}`)) continue;
      const { job, delivery, target } = a.settlement;
      next.of(target).push(deliveryJob({ ...job.data, attempt: a.attempt + 1 }, delivery.timeoutSeconds, { startAfter: a.retryDelaySeconds, groupId: groupOf(target) }));
    }
    if (next.main.length > 0) await services.jobs.boss.insert(DELIVER_WEBHOOK, next.main, { db: onConnection(db) });
    if (next.slow.length > 0) await services.jobs.boss.insert(DELIVER_WEBHOOK_SLOW, next.slow, { db: onConnection(db) });
  }

  /** Counts failures per target and opens (or re-opens) its breaker; a success closes it. */
  private async recordBreakers(db: pg.PoolClient, outcomes: { key: TargetKey; successes: boolean[] }[]): Promise<void> {
    const failing = outcomes.filter((o) => o.successes.includes(false)).sort((a, b) => (breakerKey(a.key) < breakerKey(b.key) ? -1 : 1));
    // only successes: nothing to write unless the batch saw the breaker counting
    const recovered = outcomes.filter((o) => !o.successes.includes(false) && this.known.has(breakerKey(o.key)));
    if (failing.length === 0 && recovered.length === 0) return;
    const states = recovered.map((o) => ({ ...o.key, state: CLOSED }));
    if (failing.length > 0) {
      // a row for each, locked: concurrent batches count one after the other
      await ensureBreakers(db, failing.map((o) => o.key));
      const current = await loadBreakers(db, failing.map((o) => o.key), true);
      const now = new Date();
      for (const o of failing) {
        const { state, tripped } = afterAttempts(current.get(breakerKey(o.key)) ?? CLOSED, o.successes, now, this.services.config.WEBHOOK_BREAKER_PAUSE_SECONDS);
        states.push({ ...o.key, state });
        if (tripped) {
          this.logger.warn({ teamId: o.key.teamId, target: o.key.origin, pausedUntil: state.pausedUntil, pauseSeconds: state.pauseSeconds }, 'webhook target paused after consecutive failures');
        }
      }
    }
    await saveBreakers(db, states);
  }
}

/** The jobs to insert, per lane: a target known to be slow gets its next jobs in the slow lane. */
class Lanes {
  readonly main: JobInsert<DeliveryJobData>[] = [];
  readonly slow: JobInsert<DeliveryJobData>[] = [];

  of(target: TargetKey | null): JobInsert<DeliveryJobData>[] {
    return target && slowTargets.isSlow(target) ? this.slow : this.main;
  }
}

const groupOf = (target: TargetKey | null) => (target ? targetGroupId(target.teamId, target.origin) : null);

function finishedAt(s: Settlement): number {
  return s.kind === 'attempt' ? s.outcome.completedAt.getTime() : 0;
}
