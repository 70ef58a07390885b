// The circuit breaker of a target (one team's target origin). After BREAKER_THRESHOLD consecutive
// failed attempts the target is paused for 30 s; each further failure after a pause (the first
// attempt once it ends, a probe) pauses it again for twice as long, up to 10 minutes. A successful
// attempt resets it. While a target is paused its due deliveries are not attempted: their jobs are
// queued again for the end of the pause, which costs no attempt (retryCount is untouched), and
// the delivery log shows `waitingReason: TARGET_PAUSED` with `nextAttemptAt` at the pause end.

export const BREAKER_THRESHOLD = 5;
export const FIRST_PAUSE_SECONDS = 30;
export const MAX_PAUSE_SECONDS = 600;

export interface BreakerState {
  consecutiveFailures: number;
  /** length of the latest pause, 0 before the first */
  pauseSeconds: number;
  pausedUntil: Date | null;
}

export const CLOSED: BreakerState = { consecutiveFailures: 0, pauseSeconds: 0, pausedUntil: null };

/** Whether attempts to the target must wait, and until when. */
export function pausedUntil(state: BreakerState | undefined, now: Date): Date | null {
  return state?.pausedUntil && state.pausedUntil > now ? state.pausedUntil : null;
}

/**
 * The state after some attempts finished (`successes` in completion order: true for a 2xx).
 * `tripped` when this step started a pause. `firstPauseSeconds`: WEBHOOK_BREAKER_PAUSE_SECONDS
 * (30 but in tests, which would otherwise wait out a real half-minute pause).
 */
export function afterAttempts(
  state: BreakerState,
  successes: readonly boolean[],
  now: Date,
  firstPauseSeconds = FIRST_PAUSE_SECONDS,
): { state: BreakerState; tripped: boolean } {
  let next = state;
  let tripped = false;
  for (const success of successes) {
    if (success) {
      next = CLOSED;
      tripped = false;
      continue;
    }
    const failures = next.consecutiveFailures + 1;
    if (failures >= BREAKER_THRESHOLD && !pausedUntil(next, now)) {
      const pause = next.pauseSeconds === 0 ? firstPauseSeconds : Math.min(next.pauseSeconds * 2, MAX_PAUSE_SECONDS);
      next = { consecutiveFailures: failures, pauseSeconds: pause, pausedUntil: new Date(now.getTime() + pause * 1000) };
      tripped = true;
    } else next = { ...next, consecutiveFailures: failures };
  }
  return { state: next, tripped };
}
