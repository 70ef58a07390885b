// Chunks of a task written side by side: while one chunk's transaction runs in PostgreSQL, the next
// one is read, converted and validated in JavaScript. At most `width` are in flight; each starts in
// order (its synchronous part runs at `add`), and the first failure is rethrown once every chunk
// already started has settled, so nothing is still writing when the task ends.
export class ChunkPipeline {
  private readonly width: number;
  private readonly running = new Set<Promise<void>>();
  private failure: { error: unknown } | null = null;

  constructor(width: number) {
    this.width = width;
  }

  /** Starts `work`; waits while `width` chunks are in flight. */
  async add(work: () => Promise<void>): Promise<void> {
    await this.throwIfFailed();
    const running: Promise<void> = work().then(
      () => void this.running.delete(running),
      (error: unknown) => {
        this.running.delete(running);
        this.failure ??= { error };
      },
    );
    this.running.add(running);
    while (this.running.size >= this.width) await Promise.race(this.running);
    await this.throwIfFailed();
  }

  /** Waits for every chunk in flight; rethrows the first failure. */
  async drain(): Promise<void> {
    await Promise.all(this.running);
    await this.throwIfFailed();
  }

  private async throwIfFailed(): Promise<void> {
    if (!this.failure) return;
    await Promise.all(this.running);
    throw this.failure.error;
  }
}
