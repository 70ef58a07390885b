// The delivery job (queue webhooks.deliver): one job per attempt. The job names the attempt it
// makes; the attempt's outcome, the delivery's new status, the subscription's counters, the next
// attempt's job (when retries remain) and the realtime event commit in one transaction, so a
// crash between the HTTP request and that commit repeats the attempt (at least once), and a crash
// after it never makes the same attempt twice. pg-boss's own retry (heartbeat, expiry) is only the
// crash recovery; the subscription's retryCount / retryDelaySeconds schedule the real retries.
import fs from 'node:fs';
import type pg from 'pg';
import type { Db, Job, JobInsert } from 'pg-boss';
import type { Services } from '../../app/context.ts';
import type { WebhookDeliveryAttemptEvent } from './webhooks.events.ts';
import { secretBoxFor } from './secret-box.ts';
import { sendWebhook, type AttemptOutcome } from './webhook-sender.ts';
import { signWebhookBody } from './verify-signature.ts';
import { inTransaction } from '../../db/transaction.ts';
import {
  insertAttempt,
  loadDelivery,
  lockDelivery,
  notify,
  updateDeliveryAfterAttempt,
  updateSubscriptionAfterAttempt,
  type DeliveryRow,
} from './webhooks.sql.ts';

export const DELIVER_WEBHOOK = 'webhooks.deliver';
/** crash recovery only: a worker that dies holding a job is noticed after this many seconds */
const HEARTBEAT_SECONDS = 10;
/** crash recovery only: how often pg-boss may re-run one attempt's job whose worker died */
const CRASH_RETRIES = 5;

export interface DeliveryJobData {
  /** internal WebhookDelivery id (job data never leaves the server) */
  deliveryId: string;
  teamId: string;
  /** the attempt this job makes, from 1 */
  attempt: number;
}

/** The secret's sealing context: a box opens only on its own subscription row. */
export const secretContext = (teamId: bigint | string, webhookSimplyId: string) => `webhook:${teamId}:${webhookSimplyId}`;

/** pg-boss statements on an open pg connection, so the job commits with the caller's transaction. */
export function onConnection(db: pg.PoolClient): Db {
  return { executeSql: (text: string, values?: unknown[]) => db.query(text, values) };
}

export function deliveryJob(data: DeliveryJobData, timeoutSeconds: number, startAfterSeconds = 0): JobInsert<DeliveryJobData> {
  return {
    data,
    retryLimit: CRASH_RETRIES,
    retryDelay: 5,
    retryBackoff: false,
    // the attempt itself ends at timeoutSeconds; the rest is a margin for DNS and the database
    expireInSeconds: timeoutSeconds + 60,
    heartbeatSeconds: HEARTBEAT_SECONDS,
    ...(startAfterSeconds > 0 ? { startAfter: startAfterSeconds } : {}),
  };
}

const FINISHED = new Set(['SUCCEEDED', 'FAILED']);

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

/** Makes the job's attempt, unless it was made already or the delivery has finished. */
export async function runDeliveryJob(services: Services, job: Job<DeliveryJobData>): Promise<void> {
  const { deliveryId, teamId, attempt } = job.data;
  const d = await loadDelivery(services.pool, teamId, deliveryId);
  // deleted with its subscription, finished, or this attempt already recorded (a crash after commit)
  if (!d || FINISHED.has(d.deliveryStatus) || d.attemptCount >= attempt) return;

  let outcome: AttemptOutcome;
  // a paused or deactivated subscription sends nothing: the delivery ends without a request
  let stop = true;
  if (!d.isActive) outcome = notSent('not sent: the subscription is inactive');
  else if (d.isPaused) outcome = notSent('not sent: the subscription is paused');
  else {
    let secret: string | null = null;
    try {
      secret = secretBoxFor(services.config.secretsKeyFile).open(d.secretCiphertext, secretContext(d.teamId, d.webhookSimplyId));
    } catch {
      secret = null;
    }
    if (secret === null) outcome = notSent('not sent: the signing secret cannot be decrypted (SECRETS_KEY_FILE differs between instances?)');
    else {
      stop = false;
      outcome = await sendWebhook({
        targetUrl: d.targetUrl,
        body: d.body,
        headers: {
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
        signal: job.signal,
      });
      // the claim lapsed or the worker is stopping: leave the attempt to the job's re-run
      if (job.signal.aborted && !outcome.success) throw new Error(`webhook attempt ${attempt} of ${d.simplyId} interrupted`);
    }
  }
  await recordAttempt(services, d, attempt, outcome, stop);
}

async function recordAttempt(services: Services, d: DeliveryRow, attempt: number, outcome: AttemptOutcome, forceFinal: boolean): Promise<void> {
  await inTransaction(services.pool, async (db) => {
    const current = await lockDelivery(db, d.teamId, d.id);
    // deleted meanwhile, or another worker recorded this attempt first
    if (!current || FINISHED.has(current.deliveryStatus) || current.attemptCount >= attempt) return;
    // retryCount retries after the first attempt; read now, so an update applies to queued deliveries
    const final = forceFinal || attempt > current.retryCount;
    const status = outcome.success ? 'SUCCEEDED' : final ? 'FAILED' : 'RETRYING';
    await insertAttempt(db, d.teamId, d.id, attempt, outcome);
    await updateDeliveryAfterAttempt(db, d.teamId, d.id, { attempt, status, finished: final || outcome.success, retryDelaySeconds: current.retryDelaySeconds });
    await updateSubscriptionAfterAttempt(db, d.teamId, d.webhookSimplyId, status);
    if (status === 'RETRYING') {
      const next = deliveryJob({ deliveryId: d.id, teamId: d.teamId, attempt: attempt + 1 }, current.timeoutSeconds, current.retryDelaySeconds);
      await services.jobs.boss.insert(DELIVER_WEBHOOK, [next], { db: onConnection(db) });
    }
    const event: WebhookDeliveryAttemptEvent = {
      webhookSimplyId: d.webhookSimplyId,
      deliverySimplyId: d.simplyId,
      eventId: d.eventId,
      eventType: d.eventType,
      attemptNumber: attempt,
      deliveryStatus: status,
      success: outcome.success,
      responseStatus: outcome.responseStatus,
      responseTimeMs: outcome.responseTimeMs,
      errorMessage: outcome.errorMessage,
      attemptedAt: outcome.startedAt.toISOString(),
    };
    await notify(db, services.events.notification('webhookDeliveryAttempts', d.teamSimplyId, event));
  });
}
