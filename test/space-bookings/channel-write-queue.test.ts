// The per-instance turn of booking writes on one channel: one write at a time per channel, other
// channels alongside, and the claims a write read handed to the writes waiting behind it, then
// forgotten once none waits.
import { describe, expect, it } from 'vitest';
import { ChannelWriteQueue } from '../../src/modules/space-bookings/channel-write-queue.ts';

const span = (n: number) => ({ spaceRecordSimplyId: 'ROOM-0000-0001', startsAt: n, endsAt: n + 1, bookingRecordSimplyId: `B${n}` });
const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('the channel write queue', () => {
  it('runs one write per channel at a time and hands on what each read', async () => {
    const queue = new ChannelWriteQueue();
    let inside = 0;
    let most = 0;
    const turns: { waited: boolean; seen: number }[] = [];
    const writes = Array.from({ length: 5 }, (_, i) =>
      queue.inTurn(1n, async (turn) => {
        most = Math.max(most, ++inside);
        turns.push({ waited: turn.waited, seen: turn.seen.length });
        await tick();
        turn.remember([span(1)]); // every write reads the same claim: kept once
        if (i === 2) turn.remember([span(2)]);
        inside--;
      }),
    );
    // another channel is not held up by channel 1
    let otherDone = false;
    await queue.inTurn(2n, async (turn) => {
      expect(turn).toMatchObject({ waited: false, seen: [] });
      otherDone = true;
    });
    expect(otherDone).toBe(true);
    await Promise.all(writes);
    expect(most).toBe(1);
    expect(turns).toEqual([
      { waited: false, seen: 0 },
      { waited: true, seen: 1 },
      { waited: true, seen: 1 },
      { waited: true, seen: 2 },
      { waited: true, seen: 2 },
    ]);
    // nobody waited any more: the next write starts from nothing
    await queue.inTurn(1n, async (turn) => expect(turn).toMatchObject({ waited: false, seen: [] }));
  });

  it('goes on after a write that throws', async () => {
    const queue = new ChannelWriteQueue();
    const failed = queue.inTurn(1n, async (turn) => {
      turn.remember([span(1)]);
      throw new Error('refused');
    });
    const next = queue.inTurn(1n, async (turn) => turn.seen.length);
    await expect(failed).rejects.toThrow('refused');
    expect(await next).toBe(1);
  });
});
