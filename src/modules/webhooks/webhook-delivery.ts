// The delivery job (queue webhooks.deliver): one job per attempt, handled in batches. The job
// names the attempt it makes. A batch's attempts are sent at once; their outcomes are recorded as
// they come in (attempt-recorder.ts), each with the delivery's new status, the subscription's
// counters, the target's breaker, the next attempt's job and the realtime event, and the job's
// own completion, in one transaction. So a crash before that commit repeats the attempt (at
// least once), and one after it never makes the same attempt twice. pg-boss's own retry
// (heartbeat, expiry) is only the crash recovery; the subscription's retryCount /
// retryDelaySeconds schedule the real retries.
import fs from 'node:fs';
import type { Job } from 'pg-boss';
import type { Logger } from 'pino';
import type { Services } from '../../app/context.ts';
import { traceWebhookAttempt } from '../../app/telemetry/tracing.ts';
import type { TraceHeaders } from '../../app/telemetry/tracing.types.ts';
import { secretBoxFor } from '../../app/secret-box.ts';
import { sendWebhook, type AttemptOutcome } from './webhook-sender.ts';
import { signWebhookBody } from './verify-signature.ts';
import { AttemptRecorder, type Settlement } from './attempt-recorder.ts';
import { DELIVER_WEBHOOK, FINISHED, type DeliveryJobData, type DeliveryQueue } from './delivery-job.ts';
import { slowTargets } from './slow-targets.ts';
import { targetOrigin } from './delivery-order.ts';
import { pausedUntil } from './target-breaker.ts';
import { breakerKey, loadDeliveries, loadTeamBreakers, type DeliveryRow } from './webhooks.sql.ts';

/** The secret's sealing context: a box opens only on its own subscription row. */
export const secretContext = (teamId: bigint | string, webhookSimplyId: string) => `webhook:${teamId}:${webhookSimplyId}`;

/** The extra CA file (tests' self-signed receivers), read once per path. */
const caFiles = new Map<string, string>();
function extraCa(file: string | undefined): string | undefined {
  if (!file) return undefined;
  if (!caFiles.has(file)) caFiles.set(file, fs.readFileSync(file, 'utf8'));
  return caFiles.get(file);
}

function notSent(reason: string): AttemptOutcome {
  const now = new Date();
  return { success: false, startedAt: now, completedAt: now, responseStatus: null, responseTimeMs: null, responseBody: null, errorMessage: reason };
}

function openSecret(services: Services, d: DeliveryRow): string | null {
  try {
    return secretBoxFor(services.config.secretsKeyFile).open(d.secretCiphertext, secretContext(d.teamId, d.webhookSimplyId));
  } catch {
    return null;
  }
}

function attempt(services: Services, d: DeliveryRow, secret: string, signal: AbortSignal, trace: TraceHeaders): Promise<AttemptOutcome> {
  return sendWebhook({
    targetUrl: d.targetUrl,
    body: d.body,
    headers: {
      // traceparent (tracing on): the receiver can continue the trace of the change it hears of
      ...trace,
      'content-type': 'application/json',
      'user-agent': 'svc-webhooks/1',
      'x-service-event-id': d.eventId,
      'x-service-event-type': d.eventType,
      'x-service-timestamp': new Date().toISOString(),
      [d.signatureHeader.toLowerCase()]: signWebhookBody(d.body, secret),
    },
    timeoutMs: d.timeoutSeconds * 1000,
    policy: { allowLoopback: services.config.WEBHOOK_ALLOW_LOOPBACK },
    extraCa: extraCa(services.config.WEBHOOK_CA_FILE),
    signal,
  });
}

/**
 * Makes the attempts of a batch of jobs, all at once; an attempt made already, or of a finished
 * or deleted delivery, is skipped. Resolves once every outcome is recorded; throws when an
 * attempt was interrupted (its job's claim lapsed, the worker is stopping) or could not be
 * recorded, so that pg-boss re-runs the jobs still unsettled.
 */
export async function deliverBatch(services: Services, queue: DeliveryQueue, jobs: readonly Job<DeliveryJobData>[], logger: Logger): Promise<void> {
  const [deliveries, breakers] = await Promise.all([
    loadDeliveries(
      services.pool,
      jobs.map((j) => ({ teamId: j.data.teamId, deliveryId: j.data.deliveryId })),
    ),
    loadTeamBreakers(services.pool, [...new Set(jobs.map((j) => j.data.teamId))]),
  ]);
  const recorder = new AttemptRecorder(services, queue, breakers, logger);
  const now = new Date();
  let interrupted = 0;
  const sends: Promise<void>[] = [];
  for (const job of jobs) {
    const d = deliveries.get(job.data.deliveryId);
    // deleted with its subscription, finished, or this attempt already recorded (a crash after commit)
    if (!d || FINISHED.has(d.deliveryStatus) || d.attemptCount >= job.data.attempt) {
      recorder.add({ kind: 'done', job });
      continue;
    }
    const origin = targetOrigin(d.targetUrl);
    const target = origin ? { teamId: d.teamId, origin } : null;
    // a paused or deactivated subscription sends nothing: the delivery ends without a request
    const stop = !d.isActive ? 'not sent: the subscription is inactive' : d.isPaused ? 'not sent: the subscription is paused' : null;
    if (stop) {
      recorder.add({ kind: 'attempt', job, delivery: d, target, outcome: notSent(stop), final: true });
      continue;
    }
    const until = target ? pausedUntil(breakers.get(breakerKey(target)), now) : null;
    if (until) {
      recorder.add({ kind: 'defer', job, delivery: d, target, until });
      continue;
    }
    if (queue === DELIVER_WEBHOOK && target && slowTargets.isSlow(target)) {
      recorder.add({ kind: 'reroute', job, delivery: d, target });
      continue;
    }
    const secret = openSecret(services, d);
    if (secret === null) {
      const reason = 'not sent: the signing secret cannot be decrypted (SECRETS_KEY_FILE differs between instances?)';
      recorder.add({ kind: 'attempt', job, delivery: d, target, outcome: notSent(reason), final: true });
      continue;
    }
    recorder.expect();
    sends.push(
      slowTargets.watch(target, traceWebhookAttempt(services, job, (trace) => attempt(services, d, secret, job.signal, trace))).then((outcome) => {
        // the claim lapsed or the worker is stopping: leave the attempt to the job's re-run
        if (job.signal.aborted && !outcome.success) {
          interrupted++;
          recorder.abandon();
        } else recorder.add({ kind: 'attempt', job, delivery: d, target, outcome, final: false } satisfies Settlement, true);
      }),
    );
  }
  recorder.ready();
  await Promise.all(sends);
  await recorder.drain();
  if (interrupted > 0) throw new Error(`${interrupted} webhook attempt(s) interrupted; their jobs run again`);
}
