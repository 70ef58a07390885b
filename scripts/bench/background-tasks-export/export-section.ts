// The data-export section of `npm run bench` (docs/benchmark.md "Background tasks"), on a platform
// of its own over a fresh database: `svc start` without job workers (JOBS_IN_SERVER=false) and
// one `svc worker` process, so the worker's memory is its own:
//   background-task-export  a DATA_EXPORT of 100,000 records × 10 columns (the 8 fields of
//                           scripts/seed-records.ts, the record id and the name) as the team admin,
//                           through POST /v1/background-tasks; time from the request to COMPLETED
//                           < 10 s, and the worker's resident set grows by < 100 MiB over its idle
//                           size (sampled every 100 ms); the CSV is downloaded and its rows counted
import { spawn } from 'node:child_process';
import https from 'node:https';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVER_NODE_FLAGS } from '../../../src/cli/server-flags.ts';
import { ApiClient } from '../events/api-client.ts';
import { runNodeScript, startPlatform, svcEnvironment } from '../events/platform-process.ts';
import { judged } from '../events/results.ts';
import { processRss, sampleMemory } from '../memory-sampler.ts';
import { untilTaskFinished } from '../background-tasks/finished-task.ts';
import { mib } from '../report.ts';
import { defineBenchSection } from '../bench-section.ts';
import { runSection, type SectionBed } from '../section-bed.ts';

export const EXPORT_SCENARIOS = ['background-task-export'] as const;
export type ExportScenario = (typeof EXPORT_SCENARIOS)[number];

const ROOT = path.dirname(fileURLToPath(new URL('../../../package.json', import.meta.url)));
const SVC = path.join(ROOT, 'src/cli/svc.ts');
const SEED = path.join(ROOT, 'scripts/seed-records.ts');
const RECORDS = 100_000;
const TARGET_SECONDS = 10;
const TARGET_RSS_GROWTH_MIB = 100;
const SAMPLE_EVERY_MS = 100;

interface Seeded {
  teamSimplyId: string;
  dataCollectionSimplyId: string;
  fields: Record<string, string>;
  records: number;
}

/** `svc worker` under the server flags, its pid its own (no relaunch); resolves once it says it runs. */
async function startWorker(env: NodeJS.ProcessEnv): Promise<{ pid: number; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, SVC, 'worker'], { cwd: ROOT, env: { ...env, SVC_NO_RELAUNCH: '1', LOG_LEVEL: 'info' }, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`svc worker did not start within 60 s:\n${output.slice(-4000)}`)), 60_000);
    const read = (c: Buffer) => {
      output = (output + c.toString()).slice(-64 * 1024);
      if (output.includes('worker running')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', (code) => reject(new Error(`svc worker exited with ${code}:\n${output.slice(-4000)}`)));
  });
  return {
    pid: child.pid!,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Counts the lines of the CSV behind a signed URL without keeping it (the body is streamed). */
function countLines(url: string, ca: string): Promise<{ lines: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    https
      .get(url, { ca }, (res) => {
        if (res.statusCode !== 200) return reject(new Error(`download answered ${res.statusCode}`));
        let lines = 0;
        let bytes = 0;
        res.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
        });
        res.on('end', () => resolve({ lines, bytes }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

async function exportScenario(bed: SectionBed): Promise<void> {
  const { env, progress, lines, targets, summary } = bed;
  const boot = await bed.bootstrap('Bench export');
  progress(`background tasks: seeding ${RECORDS.toLocaleString('en')} records to export`);
  const seeded = JSON.parse((await runNodeScript(SEED, ['--records', String(RECORDS), '--team', boot.teamSimplyId], svcEnvironment(env), 600_000)).trim().split('\n').at(-1)!) as Seeded;

  const platform = await startPlatform(svcEnvironment({ ...env, PORT: '0', JOBS_IN_SERVER: 'false', RATE_LIMIT_PER_MINUTE: '1000000' }));
  const worker = await startWorker(svcEnvironment(env));
  const api = new ApiClient({ baseUrl: platform.baseUrl, ca: platform.ca, apiKey: boot.userToken, sockets: 2 });
  try {
    // the idle worker's size: the median of a second's samples
    const idle: number[] = [];
    for (let i = 0; i < 10; i++) {
      idle.push(processRss(worker.pid) ?? 0);
      await new Promise((r) => setTimeout(r, SAMPLE_EVERY_MS));
    }
    const baseline = [...idle].sort((a, b) => a - b)[Math.floor(idle.length / 2)]!;
    const sampler = sampleMemory(worker.pid);

    progress(`background tasks: exporting ${RECORDS.toLocaleString('en')} records × 10 columns`);
    const team = `teamSimplyId=${boot.teamSimplyId}`;
    const started = performance.now();
    const task = await api.expect(201, 'POST', `/v1/background-tasks?${team}`, {
      enumBackgroundTaskTypeId: 'DATA_EXPORT',
      queueData: { dataCollectionSimplyId: seeded.dataCollectionSimplyId, dataFieldSimplyIds: Object.values(seeded.fields), systemColumns: ['RECORD_SIMPLY_ID', 'CALCULATED_NAME'] },
    });
    const detail = await untilTaskFinished(api, boot.teamSimplyId, task.backgroundTaskSimplyId, 20 * TARGET_SECONDS * 1000);
    const elapsedMs = performance.now() - started;
    const peak = Math.max(baseline, sampler.stop().externalRssMaxBytes ?? 0);
    if (detail.status !== 'COMPLETED') throw new Error(`the export ended ${detail.status}: ${JSON.stringify(detail.errors).slice(0, 500)}`);
    const link = await api.expect(200, 'GET', `/v1/background-tasks/${task.backgroundTaskSimplyId}/result-download?${team}`);
    const file = await countLines(link.url, platform.ca);
    if (file.lines !== RECORDS + 1) throw new Error(`the CSV has ${file.lines} lines, expected ${RECORDS + 1}`);

    const growth = peak - baseline;
    const workerMs = Number(detail.result.durationMs);
    summary.export = {
      records: RECORDS,
      columns: 10,
      elapsedMs: Math.round(elapsedMs),
      workerDurationMs: workerMs,
      fileSizeBytes: detail.result.fileSizeBytes,
      workerRssIdleMiB: Number(mib(baseline).toFixed(1)),
      workerRssPeakMiB: Number(mib(peak).toFixed(1)),
      workerRssGrowthMiB: Number(mib(growth).toFixed(1)),
    };
    lines.push(
      '',
      `background-task-export: ${RECORDS.toLocaleString('en')} records × 10 columns, ${(file.bytes / 1024 ** 2).toFixed(1)} MiB of CSV`,
      `  request to COMPLETED ${(elapsedMs / 1000).toFixed(2)} s (the worker's run ${(workerMs / 1000).toFixed(2)} s)`,
      `  worker RSS idle ${mib(baseline).toFixed(1)} MiB, peak ${mib(peak).toFixed(1)} MiB, growth ${mib(growth).toFixed(1)} MiB`,
    );
    targets.push(judged(`export of ${RECORDS.toLocaleString('en')} records × 10 fields to CSV < ${TARGET_SECONDS} s`, `${(elapsedMs / 1000).toFixed(2)} s`, elapsedMs < TARGET_SECONDS * 1000));
    targets.push(judged(`export worker RSS growth < ${TARGET_RSS_GROWTH_MIB} MiB`, `${mib(growth).toFixed(1)} MiB`, mib(growth) < TARGET_RSS_GROWTH_MIB));
  } finally {
    api.close();
    await worker.stop();
    await platform.stop();
  }
}

export const runExportSection = (scenarios: readonly ExportScenario[], progress: (line: string) => void) =>
  runSection('task-export', scenarios, progress, (bed) => bed.scenario('background-task-export', () => exportScenario(bed)));

export const benchSection = defineBenchSection('background-tasks-export', EXPORT_SCENARIOS, runExportSection);
