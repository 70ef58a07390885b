// Outbox consumer (src/app/outbox.ts): each record event becomes one WebhookDelivery per
// matching subscription (same team and event type, active, not paused, collection in its filter)
// and one delivery job, written on the dispatch transaction's connection so they commit together
// with the "dispatched" mark. (subscriptionId, eventId) is unique: an event dispatched twice
// (a crash before the mark) makes no second delivery. Each job goes into its target's group and
// gets its fair-order priority from the team's backlog (delivery-order.ts), and continues the
// trace of the write that made its event.
import { queueForEvents, type DomainEventConsumer, type DomainEventRow } from '../../app/outbox.ts';
import type { Services } from '../../app/context.ts';
import { ACTION_TAG_EVENT_TYPES, readFilterCollections, WEBHOOK_EVENT_TYPES } from './webhooks.input.ts';
import { webhookDeliveryId } from './webhooks.ids.ts';
import { addTotalDeliveries, collectionsOfRecords, countWaitingDeliveries, findListeningSubscriptions, insertDeliveries, type SubscriptionRow } from './webhooks.sql.ts';
import { DELIVER_WEBHOOK, deliveryJob } from './delivery-job.ts';
import { fairPriority, targetGroupId, targetOrigin } from './delivery-order.ts';

interface Match {
  event: DomainEventRow;
  subscription: SubscriptionRow;
  body: string;
}

// action-tag lifecycle subscriptions have no filter: each hears every event of its type in its team
const EVENT_TYPES = new Set<string>([...WEBHOOK_EVENT_TYPES, ...ACTION_TAG_EVENT_TYPES]);

/** The body every attempt of the delivery sends, byte for byte (it is what gets signed). */
function bodyOf(event: DomainEventRow, data: Record<string, unknown>): string {
  return JSON.stringify({ eventType: event.eventType, data, eventId: event.eventId });
}

/** The records of batch events without one collection (batch update or delete across collections). */
function recordsOf(events: DomainEventRow[]): { teamId: string; simplyId: string }[] {
  return events.flatMap((e) => ((e.payload.data.dataRecordSimplyIds as string[] | undefined) ?? []).map((simplyId) => ({ teamId: String(e.teamId), simplyId })));
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
    const subscriptions = await findListeningSubscriptions(db, teamIds, types);
    if (subscriptions.length === 0) return;
    const spanning = events.filter((e) => e.payload.data.dataCollectionSimplyId == null && Array.isArray(e.payload.data.dataRecordSimplyIds));
    const found = matches(events, subscriptions, await collectionsOfRecords(db, recordsOf(spanning)));
    if (found.length === 0) return;
    const created = await insertDeliveries(
      db,
      found.map((m) => ({
        simplyId: webhookDeliveryId.create(),
        teamId: m.subscription.teamId,
        subscriptionId: m.subscription.id,
        eventId: m.event.eventId,
        eventType: m.event.eventType,
        occurredAt: m.event.occurredAt,
        body: m.body,
      })),
    );
    if (created.length === 0) return;
    const bySubscription = new Map(subscriptions.map((s) => [String(s.id), s]));
    const perSubscription = new Map<string, number>();
    for (const c of created) perSubscription.set(c.subscriptionId, (perSubscription.get(c.subscriptionId) ?? 0) + 1);
    await addTotalDeliveries(db, perSubscription);
    // the deliveries just created are PENDING too: the team's backlog before them is the count less its own
    const createdPerTeam = new Map<string, number>();
    for (const c of created) createdPerTeam.set(String(c.teamId), (createdPerTeam.get(String(c.teamId)) ?? 0) + 1);
    const waiting = await countWaitingDeliveries(db, [...createdPerTeam.keys()]);
    const place = new Map([...createdPerTeam].map(([team, n]) => [team, Math.max(0, (waiting.get(team) ?? n) - n)]));
    const traceOf = new Map(events.map((e) => [e.eventId, e.trace]));
    const jobs = created.map((c) => {
      const teamId = String(c.teamId);
      const ahead = place.get(teamId)!;
      place.set(teamId, ahead + 1);
      const subscription = bySubscription.get(String(c.subscriptionId));
      const origin = subscription ? targetOrigin(subscription.targetUrl) : null;
      const job = deliveryJob({ deliveryId: String(c.id), teamId, attempt: 1, priority: fairPriority(ahead) }, subscription?.timeoutSeconds ?? 30, {
        groupId: origin ? targetGroupId(teamId, origin) : null,
      });
      return { trace: traceOf.get(c.eventId)!, job };
    });
    await queueForEvents(services.jobs, db, DELIVER_WEBHOOK, jobs);
  };
}
