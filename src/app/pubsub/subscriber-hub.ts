// Local delivery of realtime events to this instance's subscribers, off the write path: an event
// received from PostgreSQL is queued on its topic key and handed out later, in slices that yield
// to the event loop, so no request waits for the fan-out. Plain listeners get the raw event; shared
// subscribers (graphql-ws operations, shared-subscription.ts) are grouped per event by operation
// and permission fingerprint, and each group's result is computed once and sent to every member.
// Keys live only while they have subscribers: nothing here grows with subscribers who left.
import { setImmediate as yieldToEventLoop, setTimeout as sleep } from 'node:timers/promises';
import type { Principal } from '../auth/principal.ts';
import type { RequestContext } from '../context.ts';
import { toPublicError } from '../error-mapping.ts';
import { permissionFingerprint } from './permission-fingerprint.ts';

/** How long one turn of the event loop hands out results before it lets requests run (ms). */
const SLICE_MS = 2;
/** How long an event waits before its fan-out starts (ms). */
const START_DELAY_MS = 3;
/** Waits between attempts at an event that failed for a passing reason (the database away). */
const RETRY_DELAYS_MS = [250, 500, 1000, 2000, 2000, 4000, 4000, 8000, 8000, 8000];
/** A subscriber this far behind is cut short: its backlog is replaced by one resync signal. */
export const MAX_PENDING_PER_SUBSCRIBER = 1000;

export interface SubscriberOptions {
  /** the subscriber's context: its principal is refreshed (credential re-checked) before each event */
  context: RequestContext;
  /**
   * Whether the subscriber, as its principal is now, may receive events of this key; `false` drops the
   * event for it. Throw only for passing failures (the event is then retried).
   */
  accept?: (ctx: RequestContext) => Promise<boolean>;
}

/** A subscriber whose events are resolved once per group of identical subscribers. */
export interface SharedSubscriber {
  readonly key: string;
  readonly options: SubscriberOptions;
  /** same operation text, operation name and variables */
  readonly operationKey: string;
  /** same credential (the principal is refreshed once per credential and event) */
  readonly callerKey: string;
  /** runs the operation for `event` as `ctx`; `transient` when it failed for a passing reason */
  execute(event: unknown, ctx: RequestContext): Promise<{ result: unknown; transient: boolean }>;
  send(result: unknown): void;
  /** the credential is no longer valid: end the subscriber */
  revoke(): void;
  /** tell the subscriber events may have been missed */
  resync(): void;
}

/** A listener receiving the raw events of a key (GraphQL over HTTP streams, tests). */
export interface PlainListener {
  push(event: unknown): void;
  resync(): void;
}

interface Channel {
  key: string;
  plain: Set<PlainListener>;
  shared: Set<SharedSubscriber>;
  queue: unknown[];
  running: boolean;
}

export class SubscriberHub {
  private readonly channels = new Map<string, Channel>();
  private readonly log: (msg: string, err?: unknown) => void;

  constructor(log: (msg: string, err?: unknown) => void) {
    this.log = log;
  }

  /** Subscribers of this instance (shared and plain). */
  get size(): number {
    let n = 0;
    for (const c of this.channels.values()) n += c.plain.size + c.shared.size;
    return n;
  }

  /** Keys with at least one subscriber. */
  keys(): IterableIterator<string> {
    return this.channels.keys();
  }

  has(key: string): boolean {
    return this.channels.has(key);
  }

  addPlain(key: string, listener: PlainListener): () => void {
    const channel = this.channel(key);
    channel.plain.add(listener);
    return () => {
      channel.plain.delete(listener);
      this.forgetIfEmpty(channel);
    };
  }

  addShared(subscriber: SharedSubscriber): () => void {
    const channel = this.channel(subscriber.key);
    channel.shared.add(subscriber);
    return () => {
      channel.shared.delete(subscriber);
      this.forgetIfEmpty(channel);
    };
  }

  /** Queues `event` for the subscribers of `key`; returns at once. */
  dispatch(key: string, event: unknown): void {
    const channel = this.channels.get(key);
    if (!channel) return;
    channel.queue.push(event);
    if (!channel.running) void this.drain(channel);
  }

  /** Tells the subscribers of every key `matches` accepts that they may have missed events. */
  resync(matches: (key: string) => boolean): void {
    for (const channel of this.channels.values()) {
      if (!matches(channel.key)) continue;
      for (const listener of channel.plain) listener.resync();
      for (const subscriber of channel.shared) subscriber.resync();
    }
  }

  private channel(key: string): Channel {
    let channel = this.channels.get(key);
    if (!channel) {
      channel = { key, plain: new Set(), shared: new Set(), queue: [], running: false };
      this.channels.set(key, channel);
    }
    return channel;
  }

  private forgetIfEmpty(channel: Channel): void {
    if (channel.plain.size > 0 || channel.shared.size > 0) return;
    channel.queue.length = 0;
    if (this.channels.get(channel.key) === channel) this.channels.delete(channel.key);
  }

  /** One event at a time per key, so every subscriber gets a key's events in the order received. */
  private async drain(channel: Channel): Promise<void> {
    channel.running = true;
    try {
      // never on the caller's stack, and not at once: a write on this instance gets its NOTIFY at
      // about the time of its COMMIT, and finishing its response first costs subscribers a few ms
      // where starting a large fan-out under it would cost the writer far more
      await sleep(START_DELAY_MS);
      while (channel.queue.length > 0) {
        const event = channel.queue.shift();
        await this.deliverPlain(channel, event);
        await this.deliverShared(channel, event);
      }
    } catch (error) {
      this.log('realtime delivery failed', error);
    } finally {
      channel.running = false;
      if (channel.queue.length > 0) void this.drain(channel);
    }
  }

  private async deliverPlain(channel: Channel, event: unknown): Promise<void> {
    await inSlices([...channel.plain], (listener) => channel.plain.has(listener) && listener.push(event));
  }

  private async deliverShared(channel: Channel, event: unknown): Promise<void> {
    let pending = [...channel.shared];
    for (let attempt = 0; pending.length > 0; attempt++) {
      const failed = await this.deliverOnce(channel, event, pending);
      pending = failed.filter((s) => channel.shared.has(s));
      if (pending.length === 0) return;
      const delay = RETRY_DELAYS_MS[attempt];
      if (delay === undefined) {
        this.log(`realtime event undeliverable to ${pending.length} subscribers of ${channel.key}; told them to resync`);
        for (const s of pending) s.resync();
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }

  /** Delivers to `subscribers`; returns those that failed for a passing reason. */
  private async deliverOnce(channel: Channel, event: unknown, subscribers: SharedSubscriber[]): Promise<SharedSubscriber[]> {
    const failed: SharedSubscriber[] = [];
    // the credential as it is now, checked once per distinct credential
    const principals = new Map<string, Promise<Principal>>();
    for (const s of subscribers) {
      if (!principals.has(s.callerKey)) principals.set(s.callerKey, refreshed(s.options.context));
    }
    const outcomes = new Map<string, PromiseSettledResult<Principal>>();
    await Promise.all([...principals].map(async ([key, p]) => outcomes.set(key, await p.then((value) => ({ status: 'fulfilled' as const, value }), (reason) => ({ status: 'rejected' as const, reason })))));

    // operation → permission fingerprint → group (no per-subscriber key strings to build and hash)
    const groups = new Map<string, Map<string, { principal: Principal; members: SharedSubscriber[] }>>();
    for (const s of subscribers) {
      const outcome = outcomes.get(s.callerKey)!;
      if (outcome.status === 'rejected') {
        if (isTransient(outcome.reason)) failed.push(s);
        else s.revoke();
        continue;
      }
      // the context the subscriber holds keeps the fresh principal (Yoga copies contexts)
      s.options.context.principal = outcome.value;
      let byPermission = groups.get(s.operationKey);
      if (!byPermission) groups.set(s.operationKey, (byPermission = new Map()));
      const fingerprint = permissionFingerprint(outcome.value);
      let group = byPermission.get(fingerprint);
      if (!group) byPermission.set(fingerprint, (group = { principal: outcome.value, members: [] }));
      group.members.push(s);
    }

    await Promise.all(
      [...groups.values()].flatMap((byPermission) => [...byPermission.values()]).map(async ({ principal, members }) => {
        const first = members[0]!;
        // a context of this event only: request-scoped loaders and caches start empty
        const ctx: RequestContext = { ...first.options.context, principal, loaders: undefined };
        try {
          if (first.options.accept && !(await first.options.accept(ctx))) return;
          const { result, transient } = await first.execute(event, ctx);
          if (transient) return void failed.push(...members);
          await inSlices(members, (s) => channel.shared.has(s) && s.send(result));
        } catch (error) {
          if (isTransient(error)) failed.push(...members);
          else this.log(`realtime event dropped for ${members.length} subscribers of ${channel.key}`, error);
        }
      }),
    );
    return failed;
  }
}

function refreshed(ctx: RequestContext): Promise<Principal> {
  return ctx.refreshPrincipal ? ctx.refreshPrincipal() : Promise.resolve(ctx.principal);
}

/** A failure that says nothing about the subscriber (the database away, a bug): try again later. */
export function isTransient(error: unknown): boolean {
  const p = toPublicError(error);
  return p.unexpected || p.status === 503;
}

/** Calls `each` on every item, yielding to the event loop whenever a slice has taken SLICE_MS. */
async function inSlices<T>(items: readonly T[], each: (item: T) => unknown): Promise<void> {
  let sliceEnd = performance.now() + SLICE_MS;
  for (let i = 0; i < items.length; i++) {
    // the clock is read every 16 items: a send takes microseconds
    if ((i & 15) === 15 && performance.now() > sliceEnd) {
      await yieldToEventLoop();
      sliceEnd = performance.now() + SLICE_MS;
    }
    each(items[i]!);
  }
}
