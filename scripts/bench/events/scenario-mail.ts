// Mail handed to an SMTP server (docs/benchmark.md "Events"): the server runs with SMTP_URL pointing at a
// local sink (smtp-sink.ts); a producer process (mail-producer.ts) queues N messages through the
// platform's own mailer in one transaction, so the whole backlog appears at once. Messages/s:
// distinct Message-IDs the sink accepted, between the first and the last.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { svcEnvironment } from './platform-process.ts';
import { startCpuSplit } from './process-meter.ts';
import { cpuLine, judged, rate, seconds, type EventScenarioResult } from './results.ts';
import { openBed, waitUntil, type SectionContext } from './scenario-bed.ts';
import { startSmtpSink } from './smtp-sink.ts';
import { ms, perSecondRange, summarizeLatencies, sustainedRate } from './stats.ts';

const PRODUCER = fileURLToPath(new URL('./mail-producer.ts', import.meta.url));

function queueMail(env: NodeJS.ProcessEnv, teamId: bigint, count: number): Promise<{ queued: number; committedAt: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [PRODUCER, String(teamId), String(count)], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`mail-producer exited with ${code}:\n${stderr}`));
      try {
        resolve(JSON.parse(stdout.trim().split('\n').at(-1)!));
      } catch {
        reject(new Error(`mail-producer printed no result:\n${stdout}\n${stderr}`));
      }
    });
  });
}

export async function runMailScenario(ctx: SectionContext): Promise<EventScenarioResult> {
  const { events, timeoutSeconds } = ctx.settings;
  const sink = await startSmtpSink();
  const settings = { SMTP_URL: sink.url };
  const bed = await openBed(ctx, 'events-mail', settings);
  try {
    const queued = await queueMail(svcEnvironment({ DATABASE_URL: bed.database.url, DATA_DIR: ctx.dataDir, ...settings }), ctx.team.teamId, events);
    // the drain only: the producer's own work is done
    const cpu = startCpuSplit({ server: bed.platform.pid, postmaster: () => ctx.databases.postmasterPid() });
    ctx.progress(`  events-mail: ${queued.queued} messages committed; waiting for the SMTP sink`);
    const complete = await waitUntil(() => sink.distinct() >= events, queued.committedAt + timeoutSeconds * 1000);
    const cpuSplit = cpu.stop();

    const first = new Map<string, number>();
    for (const a of sink.arrivals) if (!first.has(a.messageId)) first.set(a.messageId, a.receivedAt);
    const times = [...first.values()];
    const { perSecond, lastMs } = sustainedRate(times);
    const missing = Math.max(0, events - first.size);
    const duplicates = sink.arrivals.length - first.size;
    const latency = summarizeLatencies(times.map((t) => t - queued.committedAt), missing);
    const range = perSecondRange(times);
    const lines = [
      `${events} messages queued in one transaction; the sink accepted ${first.size} distinct${complete ? '' : ` within ${timeoutSeconds} s (BENCH_EVENTS_TIMEOUT)`}, ` +
        `${rate(perSecond)} between first and last` +
        (range ? ` (whole seconds: ${range.min}-${range.max})` : '') +
        (lastMs === null ? '' : `, last one ${seconds(lastMs - queued.committedAt)} after the commit`) +
        `; duplicates ${duplicates}`,
      `  commit → accepted by the sink: p50 ${ms(latency.p50)}, p99 ${ms(latency.p99)}`,
      cpuLine(cpuSplit),
    ];
    return {
      scenario: 'events-mail',
      title: 'mail handed to a local SMTP sink',
      figures: { events, complete, messagesPerSecond: perSecond, accepted: first.size, duplicates, missing, latency, perSecondRange: range },
      lines,
      targets: [judged('mail: ≥ 200 messages/s handed to the SMTP server', `${rate(perSecond)} (${first.size}/${events} accepted)`, perSecond >= 200, { scale: ['BENCH_EVENTS', 5000, events] })],
      cpu: cpuSplit,
      listenerWarnings: bed.platform.listenerWarnings(),
    };
  } finally {
    await bed.close();
    await sink.close();
  }
}
