// The statements of the delivery pipeline: the fan-out (one multi-row statement per step, whatever
// the batch of events) and each attempt. They run on the caller's connection so they commit with
// the outbox dispatch or the attempt's transaction.
import type pg from 'pg';
import type { AttemptOutcome } from './webhook-sender.ts';

/** A delivery with what its attempt needs from the subscription and the team. */
export interface DeliveryRow {
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

export async function loadDelivery(pool: pg.Pool, teamId: string, deliveryId: string): Promise<DeliveryRow | undefined> {
  const { rows } = await pool.query<DeliveryRow>(
    `SELECT d.id, d."teamId", t."simplyId" AS "teamSimplyId", d."simplyId", d."eventId", d."eventType", d.body,
            d."deliveryStatus", d."attemptCount", s."simplyId" AS "webhookSimplyId", s."targetUrl", s."secretCiphertext",
            s."signatureHeader", s."isActive", s."isPaused", s."retryCount", s."retryDelaySeconds", s."timeoutSeconds"
       FROM "WebhookDelivery" d
       JOIN "WebhookSubscription" s ON s."teamId" = d."teamId" AND s.id = d."subscriptionId"
       JOIN "Team" t ON t.id = d."teamId"
      WHERE d."teamId" = $1 AND d.id = $2`,
    [teamId, deliveryId],
  );
  return rows[0];
}

/** The delivery's state and its subscription's current retry settings, as of now. */
export interface LockedDelivery {
  deliveryStatus: string;
  attemptCount: number;
  retryCount: number;
  retryDelaySeconds: number;
  timeoutSeconds: number;
}

/** Locks the delivery row until the attempt's transaction ends (undefined: deleted meanwhile). */
export async function lockDelivery(db: pg.PoolClient, teamId: string, deliveryId: string): Promise<LockedDelivery | undefined> {
  const { rows } = await db.query<LockedDelivery>(
    `SELECT d."deliveryStatus", d."attemptCount", s."retryCount", s."retryDelaySeconds", s."timeoutSeconds"
       FROM "WebhookDelivery" d JOIN "WebhookSubscription" s ON s."teamId" = d."teamId" AND s.id = d."subscriptionId"
      WHERE d."teamId" = $1 AND d.id = $2 FOR UPDATE OF d`,
    [teamId, deliveryId],
  );
  return rows[0];
}

export async function insertAttempt(db: pg.PoolClient, teamId: string, deliveryId: string, attempt: number, outcome: AttemptOutcome): Promise<void> {
  await db.query(
    `INSERT INTO "WebhookDeliveryAttempt" ("teamId", "deliveryId", "attemptNumber", "startedAt", "completedAt", success, "responseStatus", "responseTimeMs", "responseBody", "errorMessage")
     VALUES ($1, $2, $3, $4::timestamptz AT TIME ZONE 'UTC', $5::timestamptz AT TIME ZONE 'UTC', $6, $7, $8, $9, $10)`,
    [teamId, deliveryId, attempt, outcome.startedAt.toISOString(), outcome.completedAt.toISOString(), outcome.success, outcome.responseStatus, outcome.responseTimeMs, outcome.responseBody, outcome.errorMessage],
  );
}

/** The delivery after an attempt: finished (completedAt now), or due again after `retryDelaySeconds`. */
export async function updateDeliveryAfterAttempt(
  db: pg.PoolClient,
  teamId: string,
  deliveryId: string,
  change: { attempt: number; status: string; finished: boolean; retryDelaySeconds: number },
): Promise<void> {
  await db.query(
    `UPDATE "WebhookDelivery"
        SET "attemptCount" = $3, "deliveryStatus" = $4::"WebhookDeliveryStatus",
            "nextAttemptAt" = CASE WHEN $5 THEN NULL ELSE (now() AT TIME ZONE 'UTC') + make_interval(secs => $6) END,
            "completedAt" = CASE WHEN $5 THEN now() AT TIME ZONE 'UTC' ELSE NULL END
      WHERE "teamId" = $1 AND id = $2`,
    [teamId, deliveryId, change.attempt, change.status, change.finished, change.retryDelaySeconds],
  );
}

/** The subscription's last-delivery fields and its success / failure counters. */
export async function updateSubscriptionAfterAttempt(db: pg.PoolClient, teamId: string, webhookSimplyId: string, status: string): Promise<void> {
  await db.query(
    `UPDATE "WebhookSubscription"
        SET "lastDeliveryStatus" = $3, "lastDeliveryAt" = now() AT TIME ZONE 'UTC',
            "successfulDeliveries" = "successfulDeliveries" + $4, "failedDeliveries" = "failedDeliveries" + $5
      WHERE "teamId" = $1 AND "simplyId" = $2`,
    [teamId, webhookSimplyId, status, status === 'SUCCEEDED' ? 1 : 0, status === 'FAILED' ? 1 : 0],
  );
}

/** Sent when the caller's transaction commits. */
export async function notify(db: pg.PoolClient, note: { channel: string; payload: string }): Promise<void> {
  await db.query('SELECT pg_notify($1, $2)', [note.channel, note.payload]);
}

export interface SubscriptionRow {
  id: string;
  teamId: string;
  eventType: string;
  filterCriteria: unknown;
  timeoutSeconds: number;
}

/** The active, unpaused subscriptions of these teams to these event types. */
export async function findListeningSubscriptions(db: pg.PoolClient, teamIds: string[], eventTypes: string[]): Promise<SubscriptionRow[]> {
  const { rows } = await db.query<SubscriptionRow>(
    `SELECT id, "teamId", "eventType", "filterCriteria", "timeoutSeconds" FROM "WebhookSubscription"
      WHERE "teamId" = ANY($1::bigint[]) AND "eventType" = ANY($2::text[]) AND "isActive" AND NOT "isPaused"`,
    [teamIds, eventTypes],
  );
  return rows;
}

/** Each record's collection: `<teamId>:<record simplyId>` → collection simplyId (records gone since are left out). */
export async function collectionsOfRecords(db: pg.PoolClient, records: readonly { teamId: string; simplyId: string }[]): Promise<Map<string, string>> {
  if (records.length === 0) return new Map();
  const { rows } = await db.query<{ teamId: string; record: string; collection: string }>(
    `SELECT r."teamId", r."simplyId" AS record, c."simplyId" AS collection
       FROM unnest($1::bigint[], $2::text[]) AS k(t, s)
       JOIN "DataRecord" r ON r."teamId" = k.t AND r."simplyId" = k.s
       JOIN "DataCollection" c ON c."teamId" = r."teamId" AND c.id = r."collectionId"`,
    [records.map((r) => r.teamId), records.map((r) => r.simplyId)],
  );
  return new Map(rows.map((r) => [`${r.teamId}:${r.record}`, r.collection]));
}

export interface NewDelivery {
  simplyId: string;
  teamId: string;
  subscriptionId: string;
  eventId: string;
  eventType: string;
  occurredAt: Date;
  body: string;
}

/**
 * Inserts the deliveries; (subscriptionId, eventId) is unique, so an event dispatched twice makes
 * no second delivery. Returns the ones created now.
 */
export async function insertDeliveries(db: pg.PoolClient, deliveries: readonly NewDelivery[]): Promise<{ id: string; teamId: string; subscriptionId: string }[]> {
  const { rows } = await db.query<{ id: string; teamId: string; subscriptionId: string }>(
    `INSERT INTO "WebhookDelivery" ("simplyId", "teamId", "subscriptionId", "eventId", "eventType", "eventOccurredAt", body)
     SELECT s, t, sub, e, et, o AT TIME ZONE 'UTC', b FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::text[], $5::text[], $6::timestamptz[], $7::text[])
         AS u(s, t, sub, e, et, o, b)
     ON CONFLICT ("subscriptionId", "eventId") DO NOTHING
     RETURNING id, "teamId", "subscriptionId"`,
    [
      deliveries.map((d) => d.simplyId),
      deliveries.map((d) => d.teamId),
      deliveries.map((d) => d.subscriptionId),
      deliveries.map((d) => d.eventId),
      deliveries.map((d) => d.eventType),
      deliveries.map((d) => d.occurredAt.toISOString()),
      deliveries.map((d) => d.body),
    ],
  );
  return rows;
}

/** subscription id → deliveries just created for it */
export async function addTotalDeliveries(db: pg.PoolClient, perSubscription: ReadonlyMap<string, number>): Promise<void> {
  await db.query(
    `UPDATE "WebhookSubscription" s SET "totalDeliveries" = s."totalDeliveries" + u.n
       FROM unnest($1::bigint[], $2::int[]) AS u(id, n) WHERE s.id = u.id`,
    [[...perSubscription.keys()], [...perSubscription.values()]],
  );
}
