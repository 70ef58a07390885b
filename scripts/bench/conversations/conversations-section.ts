// The conversations section of `npm run bench` (BENCH_ONLY=conversations, or one scenario id), on a
// platform server of its own (`svc start`) over a fresh database with one bootstrapped team. Each
// scenario is a `*-scenario.ts` file of this folder exporting `conversationScenario` (so areas of
// the conversations module add theirs without editing this file):
//   conversations-widget-latency   an agent's message reaching a chat widget visitor's graphql-ws
//                                  subscription (widget-latency-scenario.ts; p99 < 200 ms)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startPlatform, svcEnvironment, type PlatformProcess } from '../events/platform-process.ts';
import { defineBenchSection } from '../bench-section.ts';
import { runSection, type BootstrappedTeam, type SectionBed } from '../section-bed.ts';

export interface ConversationsBed {
  section: SectionBed;
  platform: PlatformProcess;
  team: BootstrappedTeam;
}

export interface ConversationScenario {
  id: string;
  run(bed: ConversationsBed): Promise<void>;
}

const HERE = path.dirname(fileURLToPath(import.meta.url));
const found: ConversationScenario[] = [];
for (const file of fs.globSync('*-scenario.ts', { cwd: HERE }).sort()) {
  const exported = (await import(path.join(HERE, file))) as { conversationScenario?: ConversationScenario };
  if (exported.conversationScenario) found.push(exported.conversationScenario);
}

export const CONVERSATION_SCENARIOS = found.map((s) => s.id);

export const benchSection = defineBenchSection('conversations', CONVERSATION_SCENARIOS, (scenarios, progress) =>
  runSection('conversations', scenarios, progress, async (section) => {
    const team = await section.bootstrap('Bench conversations');
    const platform = await startPlatform(svcEnvironment({ ...section.env, PORT: '0', RATE_LIMIT_PER_MINUTE: '1000000', RATE_LIMIT_ANONYMOUS_PER_MINUTE: '1000000' }));
    section.onCleanup(() => platform.stop());
    const bed: ConversationsBed = { section: section as SectionBed, platform, team };
    for (const scenario of found) await section.scenario(scenario.id, () => scenario.run(bed));
  }),
);
