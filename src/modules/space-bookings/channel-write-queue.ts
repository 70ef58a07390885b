// A burst of booking runs for the same time on one channel: every run that passed its first check
// before the winner committed went on to write its booking record and then to the channel's
// database lock, where they took the lock one after another, each reading the claims again under
// it to be refused and its record rolled back. Hundreds in a row made the last wait seconds. An
// instance now writes one booking per channel at a time, and keeps the claims each write read
// (committed claims, never its own uncommitted one) while more writes of the channel wait on this
// instance: a waiting run that one of those claims refuses is refused at once, before it writes
// anything. Accepting a booking still takes the database lock and reads the claims there, so
// nothing is booked on the strength of memory; the memory is forgotten as soon as no write of the
// channel waits.
import type { BusySpan } from './booking-rules.ts';

declare module '../../app/context.ts' {
  interface Services {
    /** booking writes of this instance, one per channel at a time */
    spaceWriteQueue: ChannelWriteQueue;
  }
}

interface ChannelTurns {
  /** resolves when the write holding the channel's turn on this instance is done */
  tail: Promise<void>;
  waiting: number;
  /** committed claims the writes read since writes of the channel began to wait here, by claim */
  seen: Map<string, BusySpan>;
}

export interface WriteTurn {
  /** other writes of the channel were ahead of this one on this instance */
  waited: boolean;
  /** the claims the writes before this one read, since writes of the channel began to wait here */
  seen: readonly BusySpan[];
  /** keeps claims this write read (committed ones) for the writes waiting behind it */
  remember(spans: readonly BusySpan[]): void;
}

export class ChannelWriteQueue {
  private readonly channels = new Map<string, ChannelTurns>();

  /** Runs `write` when the channel's previous write on this instance is done. */
  async inTurn<T>(channelId: bigint, write: (turn: WriteTurn) => Promise<T>): Promise<T> {
    const key = channelId.toString();
    let turns = this.channels.get(key);
    if (!turns) this.channels.set(key, (turns = { tail: Promise.resolve(), waiting: 0, seen: new Map() }));
    const state = turns;
    const before = state.tail;
    let done!: () => void;
    state.tail = new Promise<void>((resolve) => (done = resolve));
    const waited = state.waiting++ > 0;
    try {
      await before;
      return await write({
        waited,
        seen: [...state.seen.values()],
        remember: (spans) => {
          for (const span of spans) state.seen.set(`${span.spaceRecordSimplyId} ${span.startsAt} ${span.endsAt} ${span.bookingRecordSimplyId}`, span);
        },
      });
    } finally {
      done();
      if (--state.waiting === 0) this.channels.delete(key);
    }
  }
}
