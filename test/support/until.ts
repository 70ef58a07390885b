// Polling: wait until a probe returns something truthy, or fail naming what was awaited.

type Probe<T> = () => T | undefined | false | null | Promise<T | undefined | false | null>;

export interface UntilDefaults {
  timeoutMs: number;
  everyMs: number;
}

/** An `until` whose timeout and polling interval default to `defaults`. */
export function untilWith(defaults: UntilDefaults) {
  return async function until<T>(what: string, probe: Probe<T>, timeoutMs = defaults.timeoutMs, everyMs = defaults.everyMs): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await probe();
      if (value) return value;
      if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
      await new Promise((r) => setTimeout(r, everyMs));
    }
  };
}

/** Polls `probe` every 25 ms (by default) until it returns something truthy; throws after 5 s (by default). */
export const until = untilWith({ timeoutMs: 5000, everyMs: 25 });
