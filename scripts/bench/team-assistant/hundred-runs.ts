// assistant-100-runs: 100 questions sent at once, each a run of three count_data_records steps and
// a reply. Each run is followed over graphql-ws to its end, then read back. A run counts as an
// error unless it is COMPLETED with exactly three tool calls started and finished; a duplicated
// tool execution shows as more than three TOOL_CALL_STARTED events or more than four model
// requests for its question (a model step asked again, as after a lost answer, would show there too).
// The total runs from the first POST sent to the last run's completedAt.
import { judged, seconds } from '../events/results.ts';
import type { SectionBed } from '../section-bed.ts';
import type { AssistantWorld } from './assistant-world.ts';
import { MODEL_DELAY_MS } from './scripted-model.ts';

const RUNS = 100;
const TOOL_STEPS = 3;
const TIMEOUT_MS = 300_000;

/** the most model requests awaiting their answer at once (each takes MODEL_DELAY_MS) */
function peakInFlight(arrivals: number[]): number {
  const edges = arrivals.flatMap((at) => [[at, 1], [at + MODEL_DELAY_MS, -1]] as const).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let now = 0;
  let peak = 0;
  for (const [, step] of edges) peak = Math.max(peak, (now += step));
  return peak;
}

export async function measureHundredRuns<S extends string>(world: AssistantWorld, { lines, targets, summary, progress }: SectionBed<S>): Promise<void> {
  progress(`team-assistant: ${RUNS} concurrent runs of ${TOOL_STEPS} tool steps`);
  const errors: string[] = [];
  const duplicated: string[] = [];
  const tags = Array.from({ length: RUNS }, (_, i) => `hundred-${i}`);
  const outcomes = await Promise.all(
    tags.map(async (tag) => {
      try {
        const sent = await world.client.send(world.model.question(tag, TOOL_STEPS));
        await world.subscriber.follow(sent.runSimplyId, TIMEOUT_MS);
        return { tag, sent, run: await world.client.run(sent.runSimplyId) };
      } catch (error) {
        errors.push(`${tag}: ${error instanceof Error ? error.message : String(error)}`);
        return null;
      }
    }),
  );
  let firstSentAt = Infinity;
  let lastCompletedAt = 0;
  for (const outcome of outcomes) {
    if (!outcome) continue;
    const { tag, sent, run } = outcome;
    firstSentAt = Math.min(firstSentAt, sent.sentAt);
    if (run.completedAt) lastCompletedAt = Math.max(lastCompletedAt, Date.parse(run.completedAt));
    const started = run.runtimeEvents.filter((e) => e.eventType === 'TOOL_CALL_STARTED').length;
    const finished = run.runtimeEvents.filter((e) => e.eventType === 'TOOL_CALL_FINISHED').length;
    const asked = world.model.arrivals(tag).length;
    if (started > TOOL_STEPS || asked > TOOL_STEPS + 1) duplicated.push(`${run.runSimplyId}: ${started} tool calls started, ${asked} model requests`);
    if (run.status !== 'COMPLETED' || started !== TOOL_STEPS || finished !== TOOL_STEPS || asked !== TOOL_STEPS + 1) {
      errors.push(`${run.runSimplyId}: ${run.status}${run.error ? ` (${run.error.code})` : ''}, ${started} started, ${finished} finished, ${asked} model requests`);
    }
  }
  // no run ended: no total to give
  const totalMs = lastCompletedAt > 0 ? lastCompletedAt - firstSentAt : NaN;
  const peak = peakInFlight(tags.flatMap((tag) => [...world.model.arrivals(tag)]));
  summary.hundredRuns = { runs: RUNS, toolSteps: TOOL_STEPS, errors: errors.length, duplicated: duplicated.length, totalSeconds: totalMs / 1000, peakModelRequestsInFlight: peak };
  lines.push(
    '',
    `assistant-100-runs: ${RUNS} questions sent at once, each ${TOOL_STEPS} count_data_records steps and a reply (${TOOL_STEPS + 1} model requests of ${MODEL_DELAY_MS} ms)`,
    `  all ended in ${seconds(totalMs)} (first POST → last completedAt); at most ${peak} model requests in flight at once; errors ${errors.length}, duplicated tool executions ${duplicated.length}`,
    ...[...errors, ...duplicated].slice(0, 5).map((e) => `  ${e}`),
  );
  targets.push(judged(`team assistant: ${RUNS} concurrent runs of ${TOOL_STEPS} tool steps: 0 errors`, String(errors.length), errors.length === 0));
  targets.push(judged(`team assistant: ${RUNS} concurrent runs: 0 duplicated tool executions`, String(duplicated.length), duplicated.length === 0 && errors.length === 0));
}
