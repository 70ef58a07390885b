// The team assistant section of `npm run bench` (BENCH_ONLY=team-assistant or a scenario id), on a
// platform of its own (`svc start`, a fresh database, the bootstrapped team admin signed in) whose
// model is the test suite's local Chat Completions server answering in a fixed 200 ms:
//   assistant-first-model-request  the POST to the run's first model request, one question at a
//                                  time (p95 < 30 ms)
//   assistant-event-latency        a stored run event to a graphql-ws subscriber (p99 < 100 ms)
//   assistant-100-runs             100 concurrent runs of three tool steps (0 errors, 0 duplicated
//                                  tool executions)
import { defineBenchSection } from '../bench-section.ts';
import { startCpuSplit, type EventCpuSplit } from '../events/process-meter.ts';
import { cpuLine } from '../events/results.ts';
import { runSection } from '../section-bed.ts';
import { openAssistantWorld } from './assistant-world.ts';
import { measureEventLatency } from './event-latency.ts';
import { measureFirstModelRequest } from './first-model-request.ts';
import { measureHundredRuns } from './hundred-runs.ts';

export const TEAM_ASSISTANT_SCENARIOS = ['assistant-first-model-request', 'assistant-event-latency', 'assistant-100-runs'] as const;
export type TeamAssistantScenario = (typeof TEAM_ASSISTANT_SCENARIOS)[number];

export const runTeamAssistantSection = (scenarios: readonly TeamAssistantScenario[], progress: (line: string) => void) =>
  runSection('team-assistant', scenarios, progress, async (bed) => {
    const world = await openAssistantWorld(bed);
    // a scenario that fails says what the server printed last (a failed run's reason is only logged there)
    const serverOutput = () => `  server output (last part):\n${world.platform.outputTail().slice(-3000)}`;
    // who used the cores: latencies on two cores mean little without it (other work on the machine shows as `other`)
    const cpu: Partial<Record<TeamAssistantScenario, EventCpuSplit>> = {};
    bed.summary.cpu = cpu;
    const measure = (id: TeamAssistantScenario, run: () => Promise<void>) =>
      bed.wants(id)
        ? bed.guard(
            id,
            async () => {
              const split = startCpuSplit({ server: world.platform.pid, postmaster: () => bed.databases.postmasterPid() });
              await run();
              cpu[id] = split.stop();
              bed.lines.push(`  ${cpuLine(cpu[id])}`);
            },
            serverOutput,
          )
        : Promise.resolve();
    await measure('assistant-first-model-request', () => measureFirstModelRequest(world, bed));
    await measure('assistant-event-latency', () => measureEventLatency(world, bed));
    await measure('assistant-100-runs', () => measureHundredRuns(world, bed));
  });

export const benchSection = defineBenchSection('team-assistant', TEAM_ASSISTANT_SCENARIOS, runTeamAssistantSection);
