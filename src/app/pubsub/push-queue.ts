// An async generator fed by pushes: what one subscriber has not consumed yet. graphql-ws (and
// GraphQL's own executor) end a subscription by calling `return()`, which runs `onEnd` once, so
// whoever registered the subscriber can forget it.

export class PushQueue<T> implements AsyncGenerator<T, undefined, unknown> {
  private readonly buffer: T[] = [];
  private waiting: ((result: IteratorResult<T, undefined>) => void) | null = null;
  private failure: unknown = null;
  private ended = false;
  private readonly onEnd: () => void;

  constructor(onEnd: () => void) {
    this.onEnd = onEnd;
  }

  get pending(): number {
    return this.buffer.length;
  }

  get done(): boolean {
    return this.ended;
  }

  push(value: T): void {
    if (this.ended) return;
    if (this.waiting) {
      const resolve = this.waiting;
      this.waiting = null;
      resolve({ value, done: false });
    } else this.buffer.push(value);
  }

  /** Drops what was not consumed yet (a subscriber too far behind gets one signal instead). */
  clear(): void {
    this.buffer.length = 0;
  }

  /** Ends the stream with `error` once the values already pushed are consumed. */
  fail(error: unknown): void {
    if (this.ended) return;
    this.failure = error;
    if (this.waiting && this.buffer.length === 0) {
      const resolve = this.waiting;
      this.waiting = null;
      this.finish();
      resolve(Promise.reject(error) as never);
    }
  }

  next(): Promise<IteratorResult<T, undefined>> {
    if (this.buffer.length > 0) return Promise.resolve({ value: this.buffer.shift()!, done: false });
    if (this.failure !== null && !this.ended) {
      this.finish();
      return Promise.reject(this.failure);
    }
    if (this.ended) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => (this.waiting = resolve));
  }

  return(): Promise<IteratorResult<T, undefined>> {
    this.finish();
    return Promise.resolve({ value: undefined, done: true });
  }

  throw(error: unknown): Promise<IteratorResult<T, undefined>> {
    this.finish();
    return Promise.reject(error);
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    this.finish();
  }

  private finish(): void {
    if (this.ended) return;
    this.ended = true;
    this.buffer.length = 0;
    const resolve = this.waiting;
    this.waiting = null;
    resolve?.({ value: undefined, done: true });
    this.onEnd();
  }
}
