// Realtime events for GraphQL subscriptions, carried by PostgreSQL NOTIFY so a subscriber on
// any instance sees an event published by any other. Writers publish with `pg_notify` inside their
// transaction (`notification`), or after it (`publish`); the LISTEN connection hands each event to
// the subscriber hub, which delivers it later, off the writer's path (subscriber-hub.ts). After the
// LISTEN connection was lost, replayable topics are caught up from the event log and the others
// are told to resync (event-catch-up.ts).
import type { PgNotifier } from './pg-notifier.ts';
import { EventCatchUp, topicOf } from './event-catch-up.ts';
import { SubscriberHub, type SubscriberOptions } from './subscriber-hub.ts';
import { TopicStream } from './topic-stream.ts';

declare module '../context.ts' {
  interface Services {
    events: EventBus;
  }
}

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

type Log = (msg: string, err?: unknown) => void;

export class EventBus {
  readonly hub: SubscriberHub;
  readonly catchUp: EventCatchUp;
  /** the subscribe/publish pair subscription resolvers use */
  readonly pubsub: {
    /**
     * The events of `topic` for `id`. With `options`, each event is checked against the subscriber's
     * credential as it is now (and `accept`) before it is delivered.
     */
    subscribe<K extends keyof Topics>(topic: K, id: Topics[K][0], options?: SubscriberOptions): TopicStream<Topics[K][1]>;
    publish<K extends keyof Topics>(topic: K, id: Topics[K][0], payload: Topics[K][1]): void;
  };

  private readonly notifier: PgNotifier;
  private readonly onError: (error: unknown) => void;

  constructor(notifier: PgNotifier, onError: (error: unknown) => void) {
    this.notifier = notifier;
    this.onError = onError;
    const log: Log = notifier.log;
    this.hub = new SubscriberHub(log);
    this.catchUp = new EventCatchUp({
      pool: notifier.pool,
      notifier,
      hub: this.hub,
      dispatch: (key, event) => this.hub.dispatch(key, event),
      log,
    });
    this.pubsub = {
      subscribe: (topic, id, subscriberOptions) => new TopicStream(this.hub, `${String(topic)}:${id}`, subscriberOptions),
      publish: (topic, id, payload) => this.publish(topic, id, payload),
    };
  }

  async start(): Promise<void> {
    this.catchUp.start();
    await this.notifier.listen(EVENTS_CHANNEL, (raw) => this.receive(raw));
  }

  stop(): void {
    this.catchUp.stop();
  }

  /** Subscribers on this instance (tests and metrics: back to 0 once they all left). */
  subscriberCount(): number {
    return this.hub.size;
  }

  /**
   * The NOTIFY payload for a topic, for use inside a database transaction
   * (`SELECT pg_notify(channel, payload)`) so the event is sent only if the change commits.
   */
  notification<K extends keyof Topics>(topic: K, id: Topics[K][0], payload: Topics[K][1]): { channel: string; payload: string } {
    const { channel, type } = this.address(topic, id);
    return { channel, payload: JSON.stringify({ type, detail: payload }) };
  }

  /**
   * Where a topic's events go: the NOTIFY channel, and the `type` of the payload `{ type, detail }`.
   * For a writer that builds the payload in SQL, from values only the statement knows.
   */
  address<K extends keyof Topics>(topic: K, id: Topics[K][0]): { channel: string; type: string } {
    return { channel: EVENTS_CHANNEL, type: `${String(topic)}:${id}` };
  }

  /** Publishes outside any transaction (every instance, this one included, receives it by NOTIFY). */
  publish<K extends keyof Topics>(topic: K, id: Topics[K][0], payload: Topics[K][1]): void {
    const { channel, payload: raw } = this.notification(topic, id, payload);
    this.notifier.notify(channel, raw).catch(this.onError);
  }

  private receive(raw: string): void {
    const { type: key, detail } = JSON.parse(raw) as { type: string; detail: unknown };
    if (!this.catchUp.firstSight(topicOf(key), detail)) return;
    this.hub.dispatch(key, detail);
  }
}
