// Action-tag lifecycle events (docs/api/action-tags.md "Lifecycle webhooks"): written to the
// domain-event outbox in the transaction of the change they describe, so an event exists exactly
// when its change committed; the webhooks area's fan-out turns each into one signed delivery per
// matching /v1/action-tags/webhooks subscription (retries, delivery log, SSRF guard). Scans are
// announced in aggregate, one ACTION_TAG_SCANNED event per tag per recorded batch, never per scan.
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import type { Services } from '../../app/context.ts';
import { DISPATCH_DOMAIN_EVENTS } from '../../app/outbox.ts';
import { activeStoredTrace } from '../../app/telemetry/stored-trace.ts';
import type { Tx } from '../../app/transaction.ts';
import type { ActionTag } from '../../generated/prisma/client.ts';
import type { ActionTagEventType } from '../webhooks/index.ts';
import { type ActionTagLifecycleChange, onActionTagLifecycle } from './action-tag-lifecycle.ts';
import { publicUrlOf } from './action-tags.service.ts';

export type ActionTagLifecycle = 'CREATED' | 'UPDATED' | 'STATUS_CHANGED' | 'DELETED' | 'SCANNED';

export interface ActionTagEvent {
  type: ActionTagLifecycle;
  tagSimplyId: string;
  /** the event's data besides the tag's id: the tag's wire form, the change, or the scan counts */
  data?: Record<string, unknown>;
}

/** What an ACTION_TAG_SCANNED event says about one tag's scans of a recorded batch. */
export interface ScanAggregate {
  teamId: bigint;
  tagSimplyId: string;
  scans: number;
  /** scans counted as interactions (humans, one per visitor and window) */
  interactions: number;
  last: Date;
}

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/** Document 1 §6 rule 6: a 14-character event id, the receivers' idempotency key. */
function newEventId(): string {
  let id = '';
  for (const b of randomBytes(14)) id += ALPHABET[b % ALPHABET.length];
  return id;
}

const eventTypeOf = (type: ActionTagLifecycle) => `ACTION_TAG_${type}` as ActionTagEventType;

/**
 * Writes lifecycle events in the caller's transaction, with a nudge of the outbox dispatch that
 * becomes visible at the same commit (so the events go out at once, not at the next sweep, and
 * nothing is announced for a change that rolled back). Returns the event ids.
 */
export async function emitActionTagEvents(tx: Tx, services: Pick<Services, 'jobs'>, teamId: bigint, events: readonly ActionTagEvent[]): Promise<string[]> {
  if (events.length === 0) return [];
  const occurredAt = new Date().toISOString();
  const rows = events.map((e) => {
    const eventId = newEventId();
    const eventType = eventTypeOf(e.type);
    // the tag's id first and always: a receiver can route on it whatever else the data holds
    const data = { simplyActionTagSimplyId: e.tagSimplyId, ...e.data };
    return { eventId, eventType, payload: JSON.stringify({ eventType, eventId, occurredAt, data, actor: null }) };
  });
  const trace = activeStoredTrace();
  await tx.$executeRawUnsafe(
    `INSERT INTO "DomainEvent" ("teamId", "eventId", "eventType", payload, traceparent, tracestate)
     SELECT $1, e, t, p::jsonb, $5, $6 FROM unnest($2::text[], $3::text[], $4::text[]) AS u(e, t, p)`,
    teamId,
    rows.map((r) => r.eventId),
    rows.map((r) => r.eventType),
    rows.map((r) => r.payload),
    trace.traceparent,
    trace.tracestate,
  );
  await services.jobs.sendInTransaction(tx, DISPATCH_DOMAIN_EVENTS, { nudge: true }, { singletonKey: 'dispatch' });
  return rows.map((r) => r.eventId);
}

/** One event in the caller's transaction (see emitActionTagEvents). */
export async function emitActionTagEvent(tx: Tx, services: Pick<Services, 'jobs'>, teamId: bigint, event: ActionTagEvent): Promise<string> {
  const [id] = await emitActionTagEvents(tx, services, teamId, [event]);
  return id!;
}

/**
 * A recorded batch of scans as ACTION_TAG_SCANNED events, one per tag, written on the batch's own
 * connection inside its transaction (scan-recorder.ts): the events exist exactly when the scans do.
 * The outbox's minute sweep hands them on (the resolve path nudges nothing).
 */
export async function insertScanEvents(client: pg.PoolClient, aggregates: readonly ScanAggregate[]): Promise<void> {
  const counted = aggregates.filter((a) => a.scans > 0);
  if (counted.length === 0) return;
  const occurredAt = new Date().toISOString();
  const rows = counted.map((a) => {
    const eventId = newEventId();
    const eventType: ActionTagEventType = 'ACTION_TAG_SCANNED';
    const data = { simplyActionTagSimplyId: a.tagSimplyId, scans: a.scans, interactions: a.interactions, lastScannedAt: a.last.toISOString() };
    return { teamId: String(a.teamId), eventId, eventType, payload: JSON.stringify({ eventType, eventId, occurredAt, data, actor: null }) };
  });
  await client.query(
    `INSERT INTO "DomainEvent" ("teamId", "eventId", "eventType", payload)
     SELECT m, e, t, p::jsonb FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[]) AS u(m, e, t, p)`,
    [rows.map((r) => r.teamId), rows.map((r) => r.eventId), rows.map((r) => r.eventType), rows.map((r) => r.payload)],
  );
}

/** What a lifecycle event says of the tag (never its scans or anything about the people who scan). */
function tagData(services: Services, tag: ActionTag): Record<string, unknown> {
  return {
    name: tag.name,
    status: tag.status,
    actionType: tag.actionType,
    actionUrl: tag.actionUrl,
    destinationDomain: tag.destinationDomain,
    labelSimplyIds: tag.labelSimplyIds,
    dataRecordSimplyId: tag.dataRecordSimplyId,
    publicUrl: publicUrlOf({ services }, tag.simplyId),
    createdAt: tag.createdAt.toISOString(),
    updatedAt: tag.updatedAt.toISOString(),
  };
}

const COMPARED = ['name', 'notes', 'status', 'actionType', 'actionUrl', 'linkPageSettings', 'qrCodeSettings', 'labelSimplyIds', 'dataWizardSimplyId', 'dataRecordSimplyId', 'requireFreshScan'] as const;

function changedFields(before: ActionTag, after: ActionTag): string[] {
  return COMPARED.filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]));
}

/** The lifecycle event of one tag change (the tag service's writes and the CSV import's). */
export function eventOf(services: Services, change: ActionTagLifecycleChange): ActionTagEvent {
  const { tag, previous } = change;
  const data = tagData(services, tag);
  if (change.type === 'UPDATED' && previous) return { type: 'UPDATED', tagSimplyId: tag.simplyId, data: { ...data, changedFields: changedFields(previous, tag) } };
  if (change.type === 'STATUS_CHANGED') return { type: 'STATUS_CHANGED', tagSimplyId: tag.simplyId, data: { ...data, previousStatus: previous?.status ?? null } };
  return { type: change.type, tagSimplyId: tag.simplyId, data };
}

// every tag write (action-tags.service.ts, the CSV import) announces itself through the lifecycle seam
onActionTagLifecycle(async (ctx, tx, change) => {
  await emitActionTagEvent(tx, ctx.services, change.tag.teamId, eventOf(ctx.services, change));
});
