// What the events section of `npm run bench` runs, and how much: BENCH_ONLY's event ids and the
// BENCH_EVENTS_* knobs (docs/benchmark.md "Events").
export const EVENT_SCENARIOS = ['events-webhooks', 'events-webhooks-sustained', 'events-webhooks-slow', 'events-automations', 'events-mail', 'events-subscribers'] as const;
export type EventScenario = (typeof EVENT_SCENARIOS)[number];

export interface EventSettings {
  scenarios: EventScenario[];
  /** records written (webhooks, automations) or messages queued (mail) per scenario */
  events: number;
  /** records per batch request, and batch requests in flight at once */
  batchSize: number;
  writers: number;
  /** records per second the batch writes are paced at; 0: as fast as the writers go */
  recordsPerSecond: number;
  /** seconds a scenario waits for its deliveries, executions or messages before it is judged */
  timeoutSeconds: number;
  subscribers: number;
  /** forked processes the graphql-ws clients are spread over */
  clientProcesses: number;
  /** single-record writes measured with and without subscribers, and the pause between them */
  subscriberWrites: number;
  writeIntervalMs: number;
  /** seconds the server's RSS is watched after the subscribers left */
  rssSettleSeconds: number;
}

function numberFromEnv(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) throw new Error(`${name} must be a whole number from ${min} to ${max} (got "${raw}")`);
  return value;
}

/**
 * Splits BENCH_ONLY into the HTTP section's ids and the event scenarios: `events` stands for all
 * five. Empty BENCH_ONLY runs everything.
 */
export function splitOnly(only: readonly string[]): { http: string[]; events: EventScenario[]; runHttp: boolean } {
  const isEvent = (id: string) => id === 'events' || (EVENT_SCENARIOS as readonly string[]).includes(id);
  const http = only.filter((id) => !isEvent(id));
  const named = only.filter(isEvent);
  const events = only.length === 0 || named.includes('events') ? [...EVENT_SCENARIOS] : EVENT_SCENARIOS.filter((id) => named.includes(id));
  return { http, events, runHttp: only.length === 0 || http.length > 0 };
}

export function eventSettings(scenarios: EventScenario[], env: NodeJS.ProcessEnv = process.env): EventSettings {
  return {
    scenarios,
    events: numberFromEnv(env, 'BENCH_EVENTS', 5000, 1),
    batchSize: numberFromEnv(env, 'BENCH_EVENTS_BATCH', 100, 1, 100),
    writers: numberFromEnv(env, 'BENCH_EVENTS_WRITERS', 4, 1),
    recordsPerSecond: numberFromEnv(env, 'BENCH_EVENTS_RATE', 0, 0),
    timeoutSeconds: numberFromEnv(env, 'BENCH_EVENTS_TIMEOUT', 60, 1),
    subscribers: numberFromEnv(env, 'BENCH_EVENTS_SUBSCRIBERS', 5000, 1),
    clientProcesses: numberFromEnv(env, 'BENCH_EVENTS_CLIENT_PROCESSES', 2, 1),
    subscriberWrites: numberFromEnv(env, 'BENCH_EVENTS_WRITES', 100, 1),
    writeIntervalMs: numberFromEnv(env, 'BENCH_EVENTS_WRITE_INTERVAL_MS', 400, 0),
    rssSettleSeconds: numberFromEnv(env, 'BENCH_EVENTS_RSS_SETTLE', 15, 0),
  };
}
