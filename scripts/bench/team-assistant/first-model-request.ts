// assistant-first-model-request: what the platform adds before the model is asked at all. One
// question at a time: from just before the POST is sent to the moment the run's first model
// request arrives at the model server (the send's transaction, the job's wake-up through NOTIFY,
// the run's claim, RUN_STARTED and STEP_STARTED, the member's permissions read again, the request
// built and sent). The next question waits until the run has ended, so runs never overlap.
import { judged } from '../events/results.ts';
import type { SectionBed } from '../section-bed.ts';
import type { AssistantWorld } from './assistant-world.ts';

const WARM_UP = 20;
const QUESTIONS = 200;
const TIMEOUT_MS = 30_000;

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.max(0, Math.ceil((p / 100) * values.length) - 1)]!;

export async function measureFirstModelRequest<S extends string>(world: AssistantWorld, { lines, targets, summary, progress }: SectionBed<S>): Promise<void> {
  progress(`team-assistant: ${QUESTIONS} questions one at a time, POST to the first model request`);
  const toModel: number[] = [];
  const answered: number[] = [];
  // where the time goes, from the stored events' createdAt (millisecond precision)
  const toRunStarted: number[] = [];
  const toStepStarted: number[] = [];
  for (let i = 0; i < WARM_UP + QUESTIONS; i++) {
    const tag = `first-${i}`;
    const arrived = world.model.firstArrival(tag, TIMEOUT_MS);
    const sent = await world.client.send(world.model.question(tag, 0));
    const at = await arrived;
    const run = await world.client.settled(sent.runSimplyId, TIMEOUT_MS);
    if (run.status !== 'COMPLETED') throw new Error(`run ${run.runSimplyId} ended ${run.status}: ${JSON.stringify(run.error)}`);
    if (i < WARM_UP) continue;
    toModel.push(at - sent.sentAt);
    answered.push(sent.answeredAt - sent.sentAt);
    const storedAt = (type: string) => Date.parse(run.runtimeEvents.find((e) => e.eventType === type)?.createdAt ?? '') - sent.sentAt;
    toRunStarted.push(storedAt('RUN_STARTED'));
    toStepStarted.push(storedAt('STEP_STARTED'));
  }
  const figures = {
    questions: QUESTIONS,
    p50: percentile(toModel, 50),
    p95: percentile(toModel, 95),
    p99: percentile(toModel, 99),
    max: Math.max(...toModel),
    postP50: percentile(answered, 50),
    postP95: percentile(answered, 95),
    runStartedP50: percentile(toRunStarted, 50),
    stepStartedP50: percentile(toStepStarted, 50),
  };
  summary.firstModelRequest = figures;
  lines.push(
    '',
    `assistant-first-model-request: ${QUESTIONS} questions one at a time (after ${WARM_UP} not measured), from the POST sent to the model request arriving`,
    `  p50 ${figures.p50.toFixed(1)} ms, p95 ${figures.p95.toFixed(1)} ms, p99 ${figures.p99.toFixed(1)} ms, max ${figures.max.toFixed(1)} ms`,
    `  on the way (p50 from the POST sent): 202 answered ${figures.postP50.toFixed(1)} ms (p95 ${figures.postP95.toFixed(1)} ms), RUN_STARTED stored ${figures.runStartedP50.toFixed(0)} ms, STEP_STARTED stored ${figures.stepStartedP50.toFixed(0)} ms, model request ${figures.p50.toFixed(1)} ms`,
  );
  targets.push(judged('team assistant: POST to the first model request p95 < 30 ms', `${figures.p95.toFixed(1)} ms`, figures.p95 < 30));
}
