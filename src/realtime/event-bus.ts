// Realtime events for GraphQL subscriptions, carried by PostgreSQL NOTIFY so a subscriber on
// any instance sees an event published by any other. Yoga's pubsub dispatches on this target;
// the target forwards to PostgreSQL and re-dispatches locally what the listener receives.
import { createPubSub } from 'graphql-yoga';
import type { PgNotifier } from './pg-notifier.ts';

export const EVENTS_CHANNEL = 'svc_events';

export interface TeamEvent {
  type: string;
  resourceType: string;
  resourceId: string;
  occurredAt: string;
  actor: { kind: string; id: string | null };
}

/** A record of a collection was created, updated or deleted (src/data/records/record-changes.ts). */
export interface RecordChangeEvent {
  changeType: 'CREATED' | 'UPDATED' | 'DELETED';
  eventId: string;
  dataRecordSimplyId: string;
  dataCollectionSimplyId: string;
  changedFieldSimplyIds: string[];
  occurredAt: string;
  actor: { kind: string; id: string | null };
}

/** An automation execution was queued, started or finished (src/automations). */
export interface AutomationExecutionEvent {
  automationSimplyId: string;
  executionSimplyId: string;
  triggerType: string;
  status: string;
  recordsProcessed: number;
  recordsFailed: number;
  startedAt: string | null;
  completedAt: string | null;
  executionDurationMs: number | null;
  errorDetails: unknown;
}

/** One webhook delivery attempt finished (src/webhooks). */
export interface WebhookDeliveryAttemptEvent {
  webhookSimplyId: string;
  deliverySimplyId: string;
  eventId: string;
  eventType: string;
  attemptNumber: number;
  deliveryStatus: string;
  success: boolean;
  responseStatus: number | null;
  responseTimeMs: number | null;
  errorMessage: string | null;
  attemptedAt: string;
}

export type Topics = {
  /** team simplyId → administrative events of that team */
  teamEvents: [string, TeamEvent];
  /** `<team simplyId>:<collection simplyId>` → record changes in that collection */
  dataRecordChanges: [string, RecordChangeEvent];
  /** team simplyId → automation execution updates of that team */
  automationExecutions: [string, AutomationExecutionEvent];
  /** team simplyId → webhook delivery attempts of that team */
  webhookDeliveryAttempts: [string, WebhookDeliveryAttemptEvent];
};

class PgEventTarget extends EventTarget {
  private readonly notifier: PgNotifier;
  private readonly onError: (error: unknown) => void;

  constructor(notifier: PgNotifier, onError: (error: unknown) => void) {
    super();
    this.notifier = notifier;
    this.onError = onError;
  }

  receive(raw: string): void {
    const { type, detail } = JSON.parse(raw) as { type: string; detail: unknown };
    super.dispatchEvent(new CustomEvent(type, { detail }));
  }

  override dispatchEvent(event: Event): boolean {
    const detail = (event as CustomEvent).detail;
    this.notifier.notify(EVENTS_CHANNEL, JSON.stringify({ type: event.type, detail })).catch(this.onError);
    return true;
  }
}

export class EventBus {
  private readonly target: PgEventTarget;
  readonly pubsub;

  private readonly notifier: PgNotifier;

  constructor(notifier: PgNotifier, onError: (error: unknown) => void) {
    this.notifier = notifier;
    this.target = new PgEventTarget(notifier, onError);
    this.pubsub = createPubSub<Topics>({ eventTarget: this.target as never });
  }

  async start(): Promise<void> {
    await this.notifier.listen(EVENTS_CHANNEL, (raw) => this.target.receive(raw));
  }

  /**
   * The NOTIFY payload for a topic, for use inside a database transaction
   * (`SELECT pg_notify(channel, payload)`) so the event is sent only if the change commits.
   */
  notification<K extends keyof Topics>(topic: K, id: Topics[K][0], payload: Topics[K][1]): { channel: string; payload: string } {
    return { channel: EVENTS_CHANNEL, payload: JSON.stringify({ type: `${topic}:${id}`, detail: payload }) };
  }

  publish<K extends keyof Topics>(topic: K, id: Topics[K][0], payload: Topics[K][1]): void {
    this.pubsub.publish(topic, id, payload as never);
  }
}
