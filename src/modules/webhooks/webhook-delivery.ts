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

interface DeliveryRow {
  id: string;
  teamId: string;
  teamSimplyId: string;
  simplyId: string;
  eventId: string;
  eventType: string;
  body: string;
  deliveryStatus: string;
  attemptCount: number;
  webhookSimplyId: string;
  targetUrl: string;
  secretCiphertext: Buffer;
  signatureHeader: string;
  isActive: boolean;
  isPaused: boolean;
  retryCount: number;
  retryDelaySeconds: number;
  timeoutSeconds: number;
}

const LOAD_DELIVERY = `
  SELECT d.id, d."teamId", t."simplyId" AS "teamSimplyId", d."simplyId", d."eventId", d."eventType", d.body,
         d."deliveryStatus", d."attemptCount", s."simplyId" AS "webhookSimplyId", s."targetUrl", s."secretCiphertext",
         s."signatureHeader", s."isActive", s."isPaused", s."retryCount", s."retryDelaySeconds", s."timeoutSeconds"
    FROM "WebhookDelivery" d
    JOIN "WebhookSubscription" s ON s."teamId" = d."teamId" AND s.id = d."subscriptionId"
    JOIN "Team" t ON t.id = d."teamId"
   WHERE d."teamId" = $1 AND d.id = $2`;

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
  const { rows } = await services.pool.query<DeliveryRow>(LOAD_DELIVERY, [teamId, deliveryId]);
  const d = rows[0];
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
    const { rows } = await db.query<{ deliveryStatus: string; attemptCount: number; retryCount: number; retryDelaySeconds: number; timeoutSeconds: number }>(
      `SELECT d."deliveryStatus", d."attemptCount", s."retryCount", s."retryDelaySeconds", s."timeoutSeconds"
         FROM "WebhookDelivery" d JOIN "WebhookSubscription" s ON s."teamId" = d."teamId" AND s.id = d."subscriptionId"
        WHERE d."teamId" = $1 AND d.id = $2 FOR UPDATE OF d`,
      [d.teamId, d.id],
    );
    const current = rows[0];
    // deleted meanwhile, or another worker recorded this attempt first
    if (!current || FINISHED.has(current.deliveryStatus) || current.attemptCount >= attempt) return;
    // retryCount retries after the first attempt; read now, so an update applies to queued deliveries
    const final = forceFinal || attempt > current.retryCount;
    const status = outcome.success ? 'SUCCEEDED' : final ? 'FAILED' : 'RETRYING';
    await db.query(
      `INSERT INTO "WebhookDeliveryAttempt" ("teamId", "deliveryId", "attemptNumber", "startedAt", "completedAt", success, "responseStatus", "responseTimeMs", "responseBody", "errorMessage")
       VALUES ($1, $2, $3, $4::timestamptz AT TIME ZONE 'UTC', $5::timestamptz AT TIME ZONE 'UTC', $6, $7, $8, $9, $10)`,
      [d.teamId, d.id, attempt, outcome.startedAt.toISOString(), outcome.completedAt.toISOString(), outcome.success, outcome.responseStatus, outcome.responseTimeMs, outcome.responseBody, outcome.errorMessage],
    );
    await db.query(
      `UPDATE "WebhookDelivery"
          SET "attemptCount" = $3, "deliveryStatus" = $4::"WebhookDeliveryStatus",
              "nextAttemptAt" = CASE WHEN $5 THEN NULL ELSE (now() AT TIME ZONE 'UTC') + make_interval(secs => $6) END,
              "completedAt" = CASE WHEN $5 THEN now() AT TIME ZONE 'UTC' ELSE NULL END
        WHERE "teamId" = $1 AND id = $2`,
      [d.teamId, d.id, attempt, status, final || outcome.success, current.retryDelaySeconds],
    );
    await db.query(
      `UPDATE "WebhookSubscription"
          SET "lastDeliveryStatus" = $3, "lastDeliveryAt" = now() AT TIME ZONE 'UTC',
              "successfulDeliveries" = "successfulDeliveries" + $4, "failedDeliveries" = "failedDeliveries" + $5
        WHERE "teamId" = $1 AND "simplyId" = $2`,
      [d.teamId, d.webhookSimplyId, status, status === 'SUCCEEDED' ? 1 : 0, status === 'FAILED' ? 1 : 0],
    );
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
    const note = services.events.notification('webhookDeliveryAttempts', d.teamSimplyId, event);
    await db.query('SELECT pg_notify($1, $2)', [note.channel, note.payload]);
  });
}
