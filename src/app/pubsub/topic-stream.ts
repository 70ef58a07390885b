// What a subscription resolver returns: the events of one topic key. graphql-ws operations
// recognise it and subscribe through the hub's shared delivery (shared-subscription.ts); anything
// else iterating it (GraphQL over HTTP streams) gets the events one by one, filtered the same way.
import { isTransient, type PlainListener, type SubscriberHub, type SubscriberOptions } from './subscriber-hub.ts';
import { PushQueue } from './push-queue.ts';
import { ResyncRequiredError } from './resync.ts';
import type { RequestContext } from '../context.ts';

export class TopicStream<T = unknown> implements AsyncIterable<T> {
  readonly key: string;
  readonly options: SubscriberOptions | undefined;
  private readonly hub: SubscriberHub;

  constructor(hub: SubscriberHub, key: string, options: SubscriberOptions | undefined) {
    this.hub = hub;
    this.key = key;
    this.options = options;
  }

  [Symbol.asyncIterator](): AsyncGenerator<T, undefined> {
    let remove = () => {};
    const queue = new PushQueue<T>(() => remove());
    const listener: PlainListener = {
      push: (event) => (queue.pending < 1000 ? queue.push(event as T) : queue.fail(new ResyncRequiredError())),
      resync: () => queue.fail(new ResyncRequiredError()),
    };
    remove = this.hub.addPlain(this.key, listener);
    const options = this.options;
    if (!options) return queue;
    return filtered(queue, options);
  }
}

/** Drops the events the subscriber may not receive now (checked with its credential as it is now). */
async function* filtered<T>(source: PushQueue<T>, options: SubscriberOptions): AsyncGenerator<T, undefined> {
  try {
    for await (const event of source) {
      if (await allowed(options)) yield event;
    }
  } finally {
    await source.return();
  }
  return undefined;
}

async function allowed({ context, accept }: SubscriberOptions): Promise<boolean> {
  try {
    if (context.refreshPrincipal) context.principal = await context.refreshPrincipal();
    return accept ? await accept({ ...context } as RequestContext) : true;
  } catch (error) {
    if (isTransient(error)) throw error;
    return false;
  }
}
