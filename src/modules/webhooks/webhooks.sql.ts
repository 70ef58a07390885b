// The statements of the delivery pipeline: the fan-out (one multi-row statement per step, whatever
// the batch of events) and each attempt. They run on the caller's connection so they commit with
// the outbox dispatch or the attempt's transaction.
import type pg from 'pg';
import { collectionsOfTeamRecords } from '../../kernel/index.ts';
import type { AttemptOutcome } from './webhook-sender.ts';
import type { BreakerState } from './target-breaker.ts';

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
  subscriptionId: string;
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

export interface DeliveryKey {
  teamId: string;
  deliveryId: string;
}

/** The deliveries of a batch of jobs (deleted ones are left out). */
export async function loadDeliveries(pool: pg.Pool, keys: readonly DeliveryKey[]): Promise<Map<string, DeliveryRow>> {
  const { rows } = await pool.query<DeliveryRow>(
    `SELECT d.id, d."teamId", t."simplyId" AS "teamSimplyId", d."simplyId", d."eventId", d."eventType", d.body,
            d."deliveryStatus", d."attemptCount", s.id AS "subscriptionId", s."simplyId" AS "webhookSimplyId", s."targetUrl", s."secretCiphertext",
            s."signatureHeader", s."isActive", s."isPaused", s."retryCount", s."retryDelaySeconds", s."timeoutSeconds"
       FROM "WebhookDelivery" d
       JOIN "WebhookSubscription" s ON s."teamId" = d."teamId" AND s.id = d."subscriptionId"
       JOIN "Team" t ON t.id = d."teamId"
      -- ANY over arrays, not a join with unnest: the planner then knows how few rows are asked
      -- for and reads them by key (it seq-scanned the whole table once it held a few thousand)
      WHERE d.id = ANY($2::bigint[]) AND d."teamId" = ANY($1::bigint[])`,
    [keys.map((k) => k.teamId), keys.map((k) => k.deliveryId)],
  );
  return new Map(rows.map((r) => [String(r.id), r]));
}

export interface RecordedAttempt {
  teamId: string;
  deliveryId: string;
  subscriptionId: string;
  attempt: number;
  outcome: AttemptOutcome;
  /** the delivery's status after the attempt */
  status: string;
  /** completedAt now, no next attempt */
  finished: boolean;
  retryDelaySeconds: number;
  /** the realtime event, sent at commit */
  note: { channel: string; payload: string };
}

/**
 * Records attempts in one statement: each attempt's log row, its delivery's new status (due again
 * after `retryDelaySeconds` unless finished, no longer waiting on its target), its subscription's
 * last-delivery fields and counters, and its realtime event. An attempt already recorded (the
 * unique attempt number; another worker got there first), or of a delivery finished or deleted
 * meanwhile, is left out. Returns `<deliveryId>:<attempt>` of those recorded now.
 */
export async function recordAttempts(db: pg.PoolClient, attempts: readonly RecordedAttempt[]): Promise<Set<string>> {
  if (attempts.length === 0) return new Set();
  const o = attempts.map((a) => a.outcome);
  const { rows } = await db.query<{ deliveryId: string; attempt: number }>(
    `WITH u AS (
       SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::int[], $5::timestamptz[], $6::timestamptz[], $7::bool[], $8::int[], $9::int[],
                            $10::text[], $11::text[], $12::text[], $13::bool[], $14::int[], $15::text[], $16::text[])
         WITH ORDINALITY AS u(t, d, sub, n, s, c, ok, st, ms, b, e, status, fin, delay, ch, pl, ord)
     ),
     ins AS (
       INSERT INTO "WebhookDeliveryAttempt" ("teamId", "deliveryId", "attemptNumber", "startedAt", "completedAt", success, "responseStatus", "responseTimeMs", "responseBody", "errorMessage")
       SELECT u.t, u.d, u.n, u.s AT TIME ZONE 'UTC', u.c AT TIME ZONE 'UTC', u.ok, u.st, u.ms, u.b, u.e
         FROM u JOIN "WebhookDelivery" d ON d."teamId" = u.t AND d.id = u.d
        WHERE d."attemptCount" < u.n AND d."deliveryStatus" NOT IN ('SUCCEEDED', 'FAILED')
       ON CONFLICT ("deliveryId", "attemptNumber") DO NOTHING
       RETURNING "deliveryId", "attemptNumber"
     ),
     rec AS (SELECT u.* FROM u JOIN ins ON ins."deliveryId" = u.d AND ins."attemptNumber" = u.n),
     deliveries AS (
       UPDATE "WebhookDelivery" d
          SET "attemptCount" = rec.n, "deliveryStatus" = rec.status::"WebhookDeliveryStatus", "waitingReason" = NULL,
              "nextAttemptAt" = CASE WHEN rec.fin THEN NULL ELSE (now() AT TIME ZONE 'UTC') + make_interval(secs => rec.delay) END,
              "completedAt" = CASE WHEN rec.fin THEN now() AT TIME ZONE 'UTC' ELSE NULL END
         FROM rec WHERE d."teamId" = rec.t AND d.id = rec.d
     ),
     subscriptions AS (
       UPDATE "WebhookSubscription" s
          SET "lastDeliveryStatus" = x.last, "lastDeliveryAt" = now() AT TIME ZONE 'UTC',
              "successfulDeliveries" = s."successfulDeliveries" + x.succeeded, "failedDeliveries" = s."failedDeliveries" + x.failed
         FROM (SELECT t, sub, (array_agg(status ORDER BY ord DESC))[1] AS last,
                      count(*) FILTER (WHERE status = 'SUCCEEDED') AS succeeded, count(*) FILTER (WHERE status = 'FAILED') AS failed
                 FROM rec GROUP BY t, sub) x
        WHERE s."teamId" = x.t AND s.id = x.sub
     )
     SELECT rec.d AS "deliveryId", rec.n AS attempt, pg_notify(rec.ch, rec.pl) FROM rec ORDER BY rec.ord`,
    [
      attempts.map((a) => a.teamId),
      attempts.map((a) => a.deliveryId),
      attempts.map((a) => a.subscriptionId),
      attempts.map((a) => a.attempt),
      o.map((x) => x.startedAt.toISOString()),
      o.map((x) => x.completedAt.toISOString()),
      o.map((x) => x.success),
      o.map((x) => x.responseStatus),
      o.map((x) => x.responseTimeMs),
      o.map((x) => x.responseBody),
      o.map((x) => x.errorMessage),
      attempts.map((a) => a.status),
      attempts.map((a) => a.finished),
      attempts.map((a) => a.retryDelaySeconds),
      attempts.map((a) => a.note.channel),
      attempts.map((a) => a.note.payload),
    ],
  );
  return new Set(rows.map((r) => `${r.deliveryId}:${r.attempt}`));
}

/**
 * Deliveries whose target is paused: due again at `until`, and the log says why. Leaves out those
 * finished, deleted or past this attempt meanwhile; returns `<deliveryId>:<attempt>` of the others.
 */
export async function markWaitingForTarget(db: pg.PoolClient, waiting: readonly (DeliveryKey & { attempt: number; until: Date })[]): Promise<Set<string>> {
  if (waiting.length === 0) return new Set();
  const { rows } = await db.query<{ deliveryId: string; attempt: number }>(
    `UPDATE "WebhookDelivery" d SET "nextAttemptAt" = u.until AT TIME ZONE 'UTC', "waitingReason" = 'TARGET_PAUSED'
       FROM unnest($1::bigint[], $2::bigint[], $3::int[], $4::timestamptz[]) AS u(t, id, n, until)
      WHERE d."teamId" = u.t AND d.id = u.id AND d."attemptCount" < u.n AND d."deliveryStatus" NOT IN ('SUCCEEDED', 'FAILED')
      RETURNING d.id AS "deliveryId", u.n AS attempt`,
    [waiting.map((w) => w.teamId), waiting.map((w) => w.deliveryId), waiting.map((w) => w.attempt), waiting.map((w) => w.until.toISOString())],
  );
  return new Set(rows.map((r) => `${r.deliveryId}:${r.attempt}`));
}

export interface TargetKey {
  teamId: string;
  origin: string;
}

/** how breaker maps are keyed */
export const breakerKey = (k: TargetKey) => `${k.teamId} ${k.origin}`;

/** Breaker rows of these targets (a target without a row is closed), keyed `<teamId> <origin>`; `lock`: FOR UPDATE. */
export async function loadBreakers(db: pg.Pool | pg.PoolClient, keys: readonly TargetKey[], lock = false): Promise<Map<string, BreakerState>> {
  if (keys.length === 0) return new Map();
  const { rows } = await db.query<BreakerState & { teamId: string; targetOrigin: string }>(
    `SELECT "teamId", "targetOrigin", "consecutiveFailures", "pauseSeconds", "pausedUntil" AT TIME ZONE 'UTC' AS "pausedUntil"
       FROM "WebhookTargetBreaker"
      WHERE ("teamId", "targetOrigin") IN (SELECT * FROM unnest($1::bigint[], $2::text[]))
      ORDER BY "teamId", "targetOrigin" ${lock ? 'FOR UPDATE' : ''}`,
    [keys.map((k) => k.teamId), keys.map((k) => k.origin)],
  );
  return breakerMap(rows);
}

/** Every breaker row of these teams (rows exist only for targets that are failing). */
export async function loadTeamBreakers(pool: pg.Pool, teamIds: readonly string[]): Promise<Map<string, BreakerState>> {
  const { rows } = await pool.query<BreakerState & { teamId: string; targetOrigin: string }>(
    `SELECT "teamId", "targetOrigin", "consecutiveFailures", "pauseSeconds", "pausedUntil" AT TIME ZONE 'UTC' AS "pausedUntil"
       FROM "WebhookTargetBreaker" WHERE "teamId" = ANY($1::bigint[])`,
    [teamIds],
  );
  return breakerMap(rows);
}

function breakerMap(rows: (BreakerState & { teamId: string; targetOrigin: string })[]): Map<string, BreakerState> {
  return new Map(rows.map((r) => [breakerKey({ teamId: String(r.teamId), origin: r.targetOrigin }), { consecutiveFailures: r.consecutiveFailures, pauseSeconds: r.pauseSeconds, pausedUntil: r.pausedUntil }]));
}

/** Makes sure these targets have a breaker row, so loadBreakers(…, lock) serializes their updates. */
export async function ensureBreakers(db: pg.PoolClient, keys: readonly TargetKey[]): Promise<void> {
  if (keys.length === 0) return;
  await db.query(
    `INSERT INTO "WebhookTargetBreaker" ("teamId", "targetOrigin")
     SELECT * FROM unnest($1::bigint[], $2::text[]) ORDER BY 1, 2 ON CONFLICT DO NOTHING`,
    [keys.map((k) => k.teamId), keys.map((k) => k.origin)],
  );
}

/** Writes breaker states; a closed one (a success reset it) is deleted. */
export async function saveBreakers(db: pg.PoolClient, states: readonly (TargetKey & { state: BreakerState })[]): Promise<void> {
  const closed = states.filter((s) => s.state.consecutiveFailures === 0 && s.state.pauseSeconds === 0);
  const open = states.filter((s) => !closed.includes(s));
  if (closed.length > 0) {
    await db.query(`DELETE FROM "WebhookTargetBreaker" WHERE ("teamId", "targetOrigin") IN (SELECT * FROM unnest($1::bigint[], $2::text[]))`, [
      closed.map((k) => k.teamId),
      closed.map((k) => k.origin),
    ]);
  }
  if (open.length > 0) {
    await db.query(
      `INSERT INTO "WebhookTargetBreaker" ("teamId", "targetOrigin", "consecutiveFailures", "pauseSeconds", "pausedUntil", "updatedAt")
       SELECT t, o, f, p, u AT TIME ZONE 'UTC', now() AT TIME ZONE 'UTC' FROM unnest($1::bigint[], $2::text[], $3::int[], $4::int[], $5::timestamptz[]) AS x(t, o, f, p, u)
       ON CONFLICT ("teamId", "targetOrigin") DO UPDATE
         SET "consecutiveFailures" = EXCLUDED."consecutiveFailures", "pauseSeconds" = EXCLUDED."pauseSeconds",
             "pausedUntil" = EXCLUDED."pausedUntil", "updatedAt" = EXCLUDED."updatedAt"`,
      [
        open.map((k) => k.teamId),
        open.map((k) => k.origin),
        open.map((k) => k.state.consecutiveFailures),
        open.map((k) => k.state.pauseSeconds),
        open.map((k) => k.state.pausedUntil?.toISOString() ?? null),
      ],
    );
  }
}

/** Deliveries of each team still waiting for their first attempt (the fair order, delivery-order.ts). */
export async function countWaitingDeliveries(db: pg.PoolClient, teamIds: readonly string[]): Promise<Map<string, number>> {
  const { rows } = await db.query<{ teamId: string; n: number }>(
    `SELECT "teamId", count(*)::int AS n FROM "WebhookDelivery" WHERE "teamId" = ANY($1::bigint[]) AND "deliveryStatus" = 'PENDING' GROUP BY "teamId"`,
    [teamIds],
  );
  return new Map(rows.map((r) => [String(r.teamId), r.n]));
}

export interface SubscriptionRow {
  id: string;
  teamId: string;
  eventType: string;
  filterCriteria: unknown;
  targetUrl: string;
  timeoutSeconds: number;
}

/** The active, unpaused subscriptions of these teams to these event types. */
export async function findListeningSubscriptions(db: pg.PoolClient, teamIds: string[], eventTypes: string[]): Promise<SubscriptionRow[]> {
  const { rows } = await db.query<SubscriptionRow>(
    `SELECT id, "teamId", "eventType", "filterCriteria", "targetUrl", "timeoutSeconds" FROM "WebhookSubscription"
      WHERE "teamId" = ANY($1::bigint[]) AND "eventType" = ANY($2::text[]) AND "isActive" AND NOT "isPaused"`,
    [teamIds, eventTypes],
  );
  return rows;
}

/** Each record's collection: `<teamId>:<record simplyId>` → collection simplyId (records gone since are left out). */
export async function collectionsOfRecords(db: pg.PoolClient, records: readonly { teamId: string; simplyId: string }[]): Promise<Map<string, string>> {
  const found = await collectionsOfTeamRecords(db, records);
  return new Map(found.map((r) => [`${r.teamId}:${r.recordSimplyId}`, r.collectionSimplyId]));
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
export async function insertDeliveries(db: pg.PoolClient, deliveries: readonly NewDelivery[]): Promise<{ id: string; teamId: string; subscriptionId: string; eventId: string }[]> {
  const { rows } = await db.query<{ id: string; teamId: string; subscriptionId: string; eventId: string }>(
    `INSERT INTO "WebhookDelivery" ("simplyId", "teamId", "subscriptionId", "eventId", "eventType", "eventOccurredAt", body)
     SELECT s, t, sub, e, et, o AT TIME ZONE 'UTC', b FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::text[], $5::text[], $6::timestamptz[], $7::text[])
         AS u(s, t, sub, e, et, o, b)
     ON CONFLICT ("subscriptionId", "eventId") DO NOTHING
     RETURNING id, "teamId", "subscriptionId", "eventId"`,
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
