// The batch recorder's drain when there is nothing left to write. It once kept a settled promise
// as "running" and awaited it for ever in microtasks, starving the event loop: the worker hung with
// no timeout able to fire (the stall watchdog caught it in a delivery test).
import { describe, expect, it } from 'vitest';
import type { Services } from '../../src/app/context.ts';
import { AttemptRecorder } from '../../src/modules/webhooks/attempt-recorder.ts';
import { createLogger } from '../../src/app/logger.ts';
import { DELIVER_WEBHOOK } from '../../src/modules/webhooks/delivery-job.ts';

describe('AttemptRecorder.drain', () => {
  it('returns at once when nothing is pending, before and after the batch is ready, and again', async () => {
    const recorder = new AttemptRecorder({} as Services, DELIVER_WEBHOOK, new Map(), createLogger('silent'));
    await recorder.drain();
    recorder.ready();
    await recorder.drain();
    await recorder.drain();
    // the event loop still turns
    expect(await new Promise((resolve) => setTimeout(() => resolve('turned'), 10))).toBe('turned');
  });
});
