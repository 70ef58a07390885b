// Outbox consumer (src/data/events/outbox.ts): each record event becomes one WebhookDelivery per
// matching subscription (same team and event type, active, not paused, collection in its filter)
// and one delivery job, written on the dispatch transaction's connection so they commit together
// with the "dispatched" mark. (subscriptionId, eventId) is unique: an event dispatched twice
// (a crash before the mark) makes no second delivery.
import type pg from 'pg';
import type { DomainEventConsumer, DomainEventRow } from '../../app/outbox.ts';
import type { Services } from '../../app/context.ts';
import { newSimplyId } from '../../app/ids.ts';
import { WEBHOOK_EVENT_TYPES } from './webhook.input.ts';
import { readFilterCollections } from './webhook.input.ts';
import { DELIVER_WEBHOOK, deliveryJob, onConnection } from './webhook-delivery.ts';

interface SubscriptionRow {
  id: string;
  teamId: string;
  eventType: string;
  filterCriteria: unknown;
  timeoutSeconds: number;
}

interface Match {
  event: DomainEventRow;
  subscription: SubscriptionRow;
  body: string;
}

const EVENT_TYPES = new Set<string>(WEBHOOK_EVENT_TYPES);

/** The body every attempt of the delivery sends, byte for byte (it is what gets signed). */
function bodyOf(event: DomainEventRow, data: Record<string, unknown>): string {
  return JSON.stringify({ eventType: event.eventType, data, eventId: event.eventId });
}

/**
 * The collections a batch event without one collection (batch update or delete across
 * collections) touched: record simplyId → collection simplyId, per team.
 */
async function collectionsOfRecords(db: pg.PoolClient, events: DomainEventRow[]): Promise<Map<string, string>> {
  const teams: string[] = [];
  const records: string[] = [];
  for (const e of events) {
    for (const id of (e.payload.data.dataRecordSimplyIds as string[] | undefined) ?? []) {
      teams.push(String(e.teamId));
      records.push(id);
    }
  }
  if (records.length === 0) return new Map();
  const { rows } = await db.query<{ teamId: string; record: string; collection: string }>(
    `SELECT r."teamId", r."simplyId" AS record, c."simplyId" AS collection
       FROM unnest($1::bigint[], $2::text[]) AS k(t, s)
       JOIN "DataRecord" r ON r."teamId" = k.t AND r."simplyId" = k.s
       JOIN "DataCollection" c ON c."teamId" = r."teamId" AND c.id = r."collectionId"`,
    [teams, records],
  );
  return new Map(rows.map((r) => [`${r.teamId}:${r.record}`, r.collection]));
}

function matches(events: DomainEventRow[], subscriptions: SubscriptionRow[], recordCollections: Map<string, string>): Match[] {
  const out: Match[] = [];
  for (const event of events) {
    const data = event.payload.data;
    const collection = typeof data.dataCollectionSimplyId === 'string' ? data.dataCollectionSimplyId : null;
    for (const subscription of subscriptions) {
      if (subscription.teamId !== String(event.teamId) || subscription.eventType !== event.eventType) continue;
      const filter = readFilterCollections(subscription.filterCriteria);
      if (!filter) {
        out.push({ event, subscription, body: bodyOf(event, data) });
      } else if (collection !== null) {
        if (filter.includes(collection)) out.push({ event, subscription, body: bodyOf(event, data) });
      } else if (Array.isArray(data.dataRecordSimplyIds)) {
        // a batch across collections: a filtered subscription hears of it when the batch touched one
        // of its collections, and sees only those records
        const ids = (data.dataRecordSimplyIds as string[]).filter((id) => filter.includes(recordCollections.get(`${event.teamId}:${id}`) ?? ''));
        if (ids.length > 0) out.push({ event, subscription, body: bodyOf(event, { ...data, dataRecordSimplyIds: ids }) });
      }
    }
  }
  return out;
}

export function webhookFanOut(services: Services): DomainEventConsumer {
  return async (all, db) => {
    const events = all.filter((e) => EVENT_TYPES.has(e.eventType));
    if (events.length === 0) return;
    const teamIds = [...new Set(events.map((e) => String(e.teamId)))];
    const types = [...new Set(events.map((e) => e.eventType))];
    const { rows: subscriptions } = await db.query<SubscriptionRow>(
      `SELECT id, "teamId", "eventType", "filterCriteria", "timeoutSeconds" FROM "WebhookSubscription"
        WHERE "teamId" = ANY($1::bigint[]) AND "eventType" = ANY($2::text[]) AND "isActive" AND NOT "isPaused"`,
      [teamIds, types],
    );
    if (subscriptions.length === 0) return;
    const spanning = events.filter((e) => e.payload.data.dataCollectionSimplyId == null && Array.isArray(e.payload.data.dataRecordSimplyIds));
    const found = matches(events, subscriptions, await collectionsOfRecords(db, spanning));
    if (found.length === 0) return;
    const { rows: created } = await db.query<{ id: string; teamId: string; subscriptionId: string }>(
      `INSERT INTO "WebhookDelivery" ("simplyId", "teamId", "subscriptionId", "eventId", "eventType", "eventOccurredAt", body)
       SELECT s, t, sub, e, et, o AT TIME ZONE 'UTC', b FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::text[], $5::text[], $6::timestamptz[], $7::text[])
           AS u(s, t, sub, e, et, o, b)
       ON CONFLICT ("subscriptionId", "eventId") DO NOTHING
       RETURNING id, "teamId", "subscriptionId"`,
      [
        found.map(() => newSimplyId('webhookDelivery')),
        found.map((m) => m.subscription.teamId),
        found.map((m) => m.subscription.id),
        found.map((m) => m.event.eventId),
        found.map((m) => m.event.eventType),
        found.map((m) => m.event.occurredAt.toISOString()),
        found.map((m) => m.body),
      ],
    );
    if (created.length === 0) return;
    const timeoutOf = new Map(subscriptions.map((s) => [s.id, s.timeoutSeconds]));
    const perSubscription = new Map<string, number>();
    for (const c of created) perSubscription.set(c.subscriptionId, (perSubscription.get(c.subscriptionId) ?? 0) + 1);
    await db.query(
      `UPDATE "WebhookSubscription" s SET "totalDeliveries" = s."totalDeliveries" + u.n
         FROM unnest($1::bigint[], $2::int[]) AS u(id, n) WHERE s.id = u.id`,
      [[...perSubscription.keys()], [...perSubscription.values()]],
    );
    const jobs = created.map((c) => deliveryJob({ deliveryId: String(c.id), teamId: String(c.teamId), attempt: 1 }, timeoutOf.get(String(c.subscriptionId)) ?? 30));
    await services.jobs.boss.insert(DELIVER_WEBHOOK, jobs, { db: onConnection(db) });
  };
}
