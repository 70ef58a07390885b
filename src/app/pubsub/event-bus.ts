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

/**
 * Topic name → [id, payload]. Modules add their topics by declaration merging in their
 * `<area>.events.ts` (`declare module '../../app/pubsub/event-bus.ts' { interface Topics { … } }`).
 */
export interface Topics {
  /** team simplyId → administrative events of that team */
  teamEvents: [string, TeamEvent];
}

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
    this.pubsub = createPubSub<Topics & Record<string, [string, unknown]>>({ eventTarget: this.target as never });
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
