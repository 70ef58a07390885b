// GraphQL subscriptions over graphql-ws, resolved once per group: the subscription field's
// `subscribe` runs per subscriber (it authorizes and names the topic), then each event is executed
// once per distinct operation + variables + permission fingerprint (subscriber-hub.ts) and the same
// result is sent to every member of the group. A subscription source that is not a TopicStream is
// executed per subscriber and event, as GraphQL itself would.
//
// Over graphql-ws a group's result is serialized once and written to each member's socket as a
// ready `next` frame (only the subscription id differs), instead of going through graphql-ws's
// per-subscriber iteration, hook and JSON.stringify: with thousands of subscribers that per-member
// work, not the query, was the cost of an event. A socket that cannot keep up (more than
// MAX_BUFFERED_BYTES not yet written) skips events and gets one resync signal when it has caught up.
import { createSourceEventStream, execute, GraphQLError, print, type DocumentNode, type ExecutionArgs, type ExecutionResult } from 'graphql';
import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../context.ts';
import { PushQueue } from './push-queue.ts';
import { resyncResult } from './resync.ts';
import { isTransient, MAX_PENDING_PER_SUBSCRIBER, type SharedSubscriber, type SubscriberHub, type SubscriberOptions } from './subscriber-hub.ts';
import { TopicStream } from './topic-stream.ts';

/** What the transport knows of the subscriber. */
export interface SubscriberSocket {
  /** equal for subscribers presenting the same credential (their principal is refreshed once per event) */
  callerKey: string;
  /** ends the connection: the credential is no longer valid */
  close(code: number, reason: string): void;
  /** writes a graphql-ws `next` message whose payload is this JSON text; false once the socket is closed */
  sendNext?(payloadJson: string): boolean;
  /** bytes queued on the socket and not yet written */
  bufferedAmount?(): number;
}

/** Queued bytes past which a subscriber's socket skips events (it is told to resync later). */
export const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;

// one serialization per group result, shared by the group's members
const serialized = new WeakMap<object, string>();

function payloadJson(result: ExecutionResult): string {
  let json = serialized.get(result);
  if (json === undefined) {
    // what graphql-ws would send: the result, with errors in their JSON form and left out when none
    const { errors, ...rest } = result;
    json = JSON.stringify(errors ? { ...rest, errors: errors.map((e) => e.toJSON()) } : rest);
    serialized.set(result, json);
  }
  return json;
}

export type MaskError = (error: GraphQLError) => GraphQLError;

export class SharedSubscription implements SharedSubscriber {
  readonly key: string;
  readonly options: SubscriberOptions;
  readonly operationKey: string;
  readonly callerKey: string;
  readonly results: PushQueue<ExecutionResult>;
  private readonly args: ExecutionArgs;
  private readonly mask: MaskError;
  private readonly socket: SubscriberSocket | undefined;
  /** events were skipped for a full socket: a resync signal goes first once it has room */
  private behind = false;

  constructor(stream: TopicStream, args: ExecutionArgs, hub: SubscriberHub, mask: MaskError, socket: SubscriberSocket | undefined) {
    this.key = stream.key;
    this.options = stream.options ?? { context: args.contextValue as RequestContext };
    this.operationKey = operationKey(args);
    this.callerKey = socket?.callerKey ?? randomUUID();
    this.args = args;
    this.mask = mask;
    this.socket = socket;
    let leave = () => {};
    this.results = new PushQueue(() => leave());
    leave = hub.addShared(this);
  }

  async execute(event: unknown, ctx: RequestContext): Promise<{ result: unknown; transient: boolean }> {
    const result = await execute({ ...this.args, rootValue: event, contextValue: ctx });
    const transient = result.errors?.some((e) => isTransient(e)) ?? false;
    return { result: transient ? result : maskResult(result, this.mask), transient };
  }

  send(result: unknown): void {
    if (this.socket?.sendNext) return this.sendDirect(result as ExecutionResult);
    if (this.results.pending >= MAX_PENDING_PER_SUBSCRIBER) {
      this.results.clear();
      this.results.push(resyncResult());
    }
    this.results.push(result as ExecutionResult);
  }

  private sendDirect(result: ExecutionResult): void {
    const socket = this.socket!;
    if (this.results.done) return;
    if ((socket.bufferedAmount?.() ?? 0) > MAX_BUFFERED_BYTES) {
      this.behind = true;
      return;
    }
    if (this.behind) {
      this.behind = false;
      socket.sendNext!(payloadJson(resyncResult()));
    }
    socket.sendNext!(payloadJson(result));
  }

  revoke(): void {
    // as at connection_init: a credential no longer valid closes the socket (4403); nothing more is sent
    if (this.socket) this.socket.close(4403, 'Forbidden');
    void this.results.return();
  }

  resync(): void {
    if (this.socket?.sendNext) return this.sendDirect(resyncResult());
    this.results.push(resyncResult());
  }
}

/**
 * Subscribes `args` (a subscription operation): the shared results of a TopicStream source, the
 * per-event results of any other source, or the errors when subscribing failed.
 */
export async function subscribeShared(
  args: ExecutionArgs,
  hub: SubscriberHub,
  mask: MaskError,
  socket?: SubscriberSocket,
): Promise<AsyncGenerator<ExecutionResult> | ExecutionResult> {
  const source = await createSourceEventStream(args);
  if (!isAsyncIterable(source)) return maskResult(source as ExecutionResult, mask);
  if (source instanceof TopicStream) return new SharedSubscription(source, args, hub, mask, socket).results;
  return perEvent(source, args, mask);
}

async function* perEvent(source: AsyncIterable<unknown>, args: ExecutionArgs, mask: MaskError): AsyncGenerator<ExecutionResult> {
  const iterator = source[Symbol.asyncIterator]();
  try {
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
      yield maskResult(await execute({ ...args, rootValue: next.value }), mask);
    }
  } finally {
    await iterator.return?.();
  }
}

function maskResult(result: ExecutionResult, mask: MaskError): ExecutionResult {
  return result.errors ? { ...result, errors: result.errors.map(mask) } : result;
}

const documentTexts = new WeakMap<DocumentNode, string>();

function operationKey(args: ExecutionArgs): string {
  let text = documentTexts.get(args.document);
  if (text === undefined) documentTexts.set(args.document, (text = args.document.loc?.source.body ?? print(args.document)));
  return JSON.stringify([text, args.operationName ?? null, args.variableValues ?? null]);
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}
