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
  }
  const figures = {
    questions: QUESTIONS,
    p50: percentile(toModel, 50),
    p95: percentile(toModel, 95),
    p99: percentile(toModel, 99),
    max: Math.max(...toModel),
    postP50: percentile(answered, 50),
    postP95: percentile(answered, 95),
  };
  summary.firstModelRequest = figures;
  lines.push(
    '',
    `assistant-first-model-request: ${QUESTIONS} questions one at a time (after ${WARM_UP} not measured), from the POST sent to the model request arriving`,
    `  p50 ${figures.p50.toFixed(1)} ms, p95 ${figures.p95.toFixed(1)} ms, p99 ${figures.p99.toFixed(1)} ms, max ${figures.max.toFixed(1)} ms; the POST itself answered 202 in p50 ${figures.postP50.toFixed(1)} ms, p95 ${figures.postP95.toFixed(1)} ms`,
  );
  targets.push(judged('team assistant: POST to the first model request p95 < 30 ms', `${figures.p95.toFixed(1)} ms`, figures.p95 < 30));
}
