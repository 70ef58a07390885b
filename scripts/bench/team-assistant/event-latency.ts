// assistant-event-latency: how long a stored run event takes to reach a member subscribed over
// graphql-ws. Runs of two tool steps (nine events each), a few at a time; each run is followed
// from the moment its POST is answered. Latency is the subscriber's wall clock at receipt minus the
// event's createdAt (the server and the bench share the machine's clock; createdAt has millisecond
// precision, which can only add to a latency). An event stored before its subscription was sent is
// a replay, not a delivery: it is counted apart and not measured.
import { judged, rate } from '../events/results.ts';
import { ms, summarizeLatencies } from '../events/stats.ts';
import type { SectionBed } from '../section-bed.ts';
import type { AssistantWorld } from './assistant-world.ts';

const WARM_UP = 8;
const RUNS = 100;
const IN_FLIGHT = 4;
const TOOL_STEPS = 2;
/** RUN_STARTED, a STEP_STARTED per model step, the two events of each tool call, RUN_COMPLETED */
const EVENTS_PER_RUN = 2 + (TOOL_STEPS + 1) + 2 * TOOL_STEPS;
const TIMEOUT_MS = 60_000;

export async function measureEventLatency<S extends string>(world: AssistantWorld, { lines, targets, summary, progress }: SectionBed<S>): Promise<void> {
  progress(`team-assistant: ${RUNS} runs of ${TOOL_STEPS} tool steps followed over graphql-ws, ${IN_FLIGHT} at a time`);
  const latencies: number[] = [];
  let replayed = 0;
  const broken: string[] = [];
  let next = 0;
  const lane = async () => {
    while (next < WARM_UP + RUNS) {
      const i = next++;
      const tag = `events-${i}`;
      const sent = await world.client.send(world.model.question(tag, TOOL_STEPS));
      const followed = await world.subscriber.follow(sent.runSimplyId, TIMEOUT_MS);
      if (i < WARM_UP) continue;
      const sequences = followed.events.map((e) => e.sequence).join(',');
      const expected = Array.from({ length: EVENTS_PER_RUN }, (_, n) => n + 1).join(',');
      if (sequences !== expected || followed.events.at(-1)?.eventType !== 'RUN_COMPLETED') broken.push(`${sent.runSimplyId}: sequences ${sequences}, last ${followed.events.at(-1)?.eventType}`);
      for (const event of followed.events) {
        if (event.storedAt < followed.subscribedAt) replayed++;
        else latencies.push(event.receivedAt - event.storedAt);
      }
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: IN_FLIGHT }, lane));
  const seconds = (performance.now() - started) / 1000;
  const s = summarizeLatencies(latencies);
  summary.eventLatency = { runs: RUNS, inFlight: IN_FLIGHT, toolSteps: TOOL_STEPS, measured: latencies.length, replayed, broken: broken.length, p50: s.p50, p90: s.p90, p99: s.p99, max: s.max, seconds };
  lines.push(
    '',
    `assistant-event-latency: ${RUNS} runs of ${TOOL_STEPS} tool steps (${EVENTS_PER_RUN} events each), ${IN_FLIGHT} at a time over ${seconds.toFixed(1)} s (${rate((RUNS * EVENTS_PER_RUN) / seconds)} events), each followed over graphql-ws`,
    `  stored → received: p50 ${ms(s.p50)}, p90 ${ms(s.p90)}, p99 ${ms(s.p99)}, max ${ms(s.max)} over ${latencies.length} events; ${replayed} stored before their subscription (replayed, not measured); runs with a gap, a duplicate or no RUN_COMPLETED: ${broken.length}`,
    ...broken.slice(0, 5).map((b) => `  ${b}`),
  );
  targets.push(judged('team assistant: run event stored → graphql-ws subscriber p99 < 100 ms', ms(s.p99), s.p99 < 100 && broken.length === 0));
}
