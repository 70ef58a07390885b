// The files section of `npm run bench` (docs/benchmark.md "Files"), judged against its
// targets, on a platform server of its own (`svc start`, local storage, built-in scanner) over a
// fresh database:
//   files-upload     a 100 MiB upload through the local driver's signed endpoint: throughput
//                    against writing the same bytes to disk with a bare Node stream in the same
//                    run (≥ 70 %), and the server's RSS growth (< 50 MiB)
//   files-promotion  a 1 MiB JPEG from `complete` to COMPLETED (p50 < 500 ms)
//   files-variants   every variant of a 12-megapixel JPEG (< 3 s; in process, scripts/bench/image-variants.ts)
//   files-list       GET /v1/files, a page of 25, with 10,000 files in the team (p95 < 25 ms)
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import sharp from 'sharp';
import { ApiClient } from '../events/api-client.ts';
import { queryDatabase } from '../events/databases.ts';
import { startPlatform, svcEnvironment, type PlatformProcess } from '../events/platform-process.ts';
import { watchRss } from '../events/process-meter.ts';
import { judged } from '../events/results.ts';
import { summarizeLatencies } from '../events/stats.ts';
import { runImageVariantsBench } from '../image-variants.ts';
import { postFormFromFile } from './multipart-post.ts';
import { defineBenchSection } from '../bench-section.ts';
import { runScenarios } from '../section-bed.ts';

export const FILE_SCENARIOS = ['files-upload', 'files-promotion', 'files-variants', 'files-list'] as const;
export type FileScenario = (typeof FILE_SCENARIOS)[number];


const MIB = 1024 * 1024;
const UPLOAD_BYTES = 100 * MIB;
const PROMOTIONS = 20;
const LISTED_FILES = 10_000;
const LIST_REQUESTS = 500;

const sha256File = async (file: string) => {
  const hash = createHash('sha256');
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('base64');
};
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Writes `bytes` of random data in 1 MiB pieces (incompressible, like a real video). */
function writeRandomFile(file: string, bytes: number): void {
  const fd = fs.openSync(file, 'w');
  try {
    for (let written = 0; written < bytes; written += MIB) fs.writeSync(fd, randomBytes(Math.min(MIB, bytes - written)));
  } finally {
    fs.closeSync(fd);
  }
}

/** The baseline: the same bytes copied to a file with a bare Node stream, flushed to disk. */
async function bareStreamWriteMs(source: string, folder: string): Promise<number> {
  const target = path.join(folder, `bare-${randomBytes(4).toString('hex')}`);
  const started = performance.now();
  await pipeline(fs.createReadStream(source, { highWaterMark: MIB }), fs.createWriteStream(target, { flush: true }));
  const ms = performance.now() - started;
  fs.rmSync(target, { force: true });
  return ms;
}

export const runFilesSection = (scenarios: readonly FileScenario[], progress: (line: string) => void) =>
  runScenarios(scenarios, progress, async (section) => {
    const { lines, targets, summary } = section;
    const wanted = new Set(scenarios);
    await section.scenario('files-variants', async () => {
      const variants = await runImageVariantsBench({ runs: 5, progress });
      lines.push('', 'files-variants: every variant of a 12-megapixel JPEG (in process)', ...variants.lines.map((l) => `  ${l}`));
      targets.push(...variants.targets);
      summary.variants = variants.summary;
    });
    // the variants run in process: no cluster for them alone, and none idling while they are measured
    if (scenarios.every((s) => s === 'files-variants')) return;

    const bed = await section.openBed('files');
    const { root, dataDir, database } = bed;
    let platform: PlatformProcess | null = null;
    bed.onCleanup(() => platform?.stop());
    // one stretch: the scenarios share the server, and a broken server breaks them all
    await bed.guard('files section', async () => {
      const team = await bed.bootstrap('Bench files');
      platform = await startPlatform(svcEnvironment(bed.env));
      const api = new ApiClient({ baseUrl: platform.baseUrl, ca: platform.ca, apiKey: team.apiKey, sockets: 4 });
      progress(`files: server ${platform.baseUrl} (pid ${platform.pid})`);

      if (wanted.has('files-upload')) {
        const source = path.join(root, 'upload.bin');
        writeRandomFile(source, UPLOAD_BYTES);
        const checksum = await sha256File(source);
        const bare: number[] = [];
        const posted: number[] = [];
        const growth: number[] = [];
        for (let run = 0; run < 3; run++) {
          bare.push(await bareStreamWriteMs(source, dataDir));
          const intent = await api.expect(201, 'POST', '/v1/file-uploads', {
            filename: 'video.mp4',
            contentType: 'video/mp4',
            fileSizeBytes: UPLOAD_BYTES,
            checksumSha256: checksum,
          });
          const rss = watchRss(platform.pid, 50);
          const before = rss.stop().lastBytes ?? 0;
          const during = watchRss(platform.pid, 50);
          const started = performance.now();
          const answer = await postFormFromFile({ url: intent.upload.url, fields: intent.upload.fields, file: source, contentType: 'video/mp4', ca: platform.ca });
          posted.push(performance.now() - started);
          const peak = during.stop().maxBytes ?? before;
          growth.push(peak - before);
          if (answer.status >= 300) throw new Error(`upload answered ${answer.status}: ${answer.text}`);
          await api.request('POST', '/v1/files/temp-cleanup', { fileUploadSimplyIds: [intent.fileUploadSimplyId] });
        }
        const mibPerSecond = (ms: number) => UPLOAD_BYTES / MIB / (ms / 1000);
        const uploadRate = mibPerSecond(median(posted));
        const bareRate = mibPerSecond(median(bare));
        const ratio = uploadRate / bareRate;
        const maxGrowth = Math.max(...growth);
        summary.upload = { bytes: UPLOAD_BYTES, uploadMs: posted, bareMs: bare, uploadMiBps: uploadRate, bareMiBps: bareRate, ratio, rssGrowthBytes: growth };
        lines.push(
          '',
          'files-upload: 100 MiB through the local driver (HTTPS multipart, hashed, flushed), 3 runs, medians',
          `  upload ${uploadRate.toFixed(0)} MiB/s; bare Node stream to disk ${bareRate.toFixed(0)} MiB/s; ratio ${ratio.toFixed(2)}`,
          `  server RSS growth during the upload: at most ${(maxGrowth / MIB).toFixed(1)} MiB`,
        );
        targets.push(judged('100 MiB upload ≥ 70 % of a bare stream write', `${(ratio * 100).toFixed(0)} %`, ratio >= 0.7));
        targets.push(judged('server RSS grows < 50 MiB during a 100 MiB upload', `${(maxGrowth / MIB).toFixed(1)} MiB`, maxGrowth < 50 * MIB));
        fs.rmSync(source, { force: true });
      }

      if (wanted.has('files-promotion')) {
        // grain compresses poorly: 1400 × 1000 of it is a JPEG of just over 1 MiB
        const noise = randomBytes(1400 * 1000 * 3);
        const jpeg = await sharp(noise, { raw: { width: 1400, height: 1000, channels: 3 } }).jpeg({ quality: 88 }).toBuffer();
        const file = path.join(root, 'photo.jpg');
        fs.writeFileSync(file, jpeg);
        const checksum = createHash('sha256').update(jpeg).digest('base64');
        const latencies: number[] = [];
        for (let i = 0; i < PROMOTIONS + 2; i++) {
          const intent = await api.expect(201, 'POST', '/v1/file-uploads', { filename: `photo-${i}.jpg`, contentType: 'image/jpeg', fileSizeBytes: jpeg.length, checksumSha256: checksum });
          const answer = await postFormFromFile({ url: intent.upload.url, fields: intent.upload.fields, file, contentType: 'image/jpeg', ca: platform.ca });
          if (answer.status >= 300) throw new Error(`upload answered ${answer.status}: ${answer.text}`);
          const started = performance.now();
          let status = (await api.request('POST', `/v1/file-uploads/${intent.fileUploadSimplyId}/complete`)).body.data.status as string;
          while (status === 'PENDING') {
            await new Promise((r) => setTimeout(r, 5));
            status = (await api.request('GET', `/v1/file-uploads/${intent.fileUploadSimplyId}`)).body.data.status;
          }
          if (status !== 'COMPLETED') throw new Error(`promotion ended ${status}`);
          // the first two warm the server up (sharp, the scanner, the job queue)
          if (i >= 2) latencies.push(performance.now() - started);
        }
        const s = summarizeLatencies(latencies);
        summary.promotion = { jpegBytes: jpeg.length, latenciesMs: latencies, ...s };
        lines.push('', `files-promotion: ${PROMOTIONS} JPEGs of ${(jpeg.length / MIB).toFixed(2)} MiB, complete → COMPLETED (status polled every 5 ms)`, `  p50 ${s.p50.toFixed(0)} ms, p90 ${s.p90.toFixed(0)} ms, max ${s.max.toFixed(0)} ms`);
        targets.push(judged('1 MiB JPEG promotion p50 < 500 ms', `${s.p50.toFixed(0)} ms`, s.p50 < 500));
      }

      if (wanted.has('files-list')) {
        progress(`files: seeding ${LISTED_FILES.toLocaleString('en')} files`);
        await queryDatabase(
          database.url,
          `WITH team AS (SELECT id, "simplyId" FROM "Team" WHERE "simplyId" = $1),
                made AS (
                  INSERT INTO "StoredFile" ("simplyId", "teamId", filename, "nameKey", "fileType", "mimeType", "fileSizeBytes", "checksumSha256", "storageKey", "createdByKind", "createdById", "createdAt", "updatedAt")
                  SELECT 'file-' || upper(substr(md5(g::text || random()::text), 1, 4)) || '-' || upper(substr(md5(g::text), 5, 4)) || '-' || lpad(g::text, 4, '0'),
                         team.id, 'document-' || g || '.pdf', 'document-' || g || '.pdf', 'DOCUMENT', 'application/pdf', 1000 + g, 'x', 'teams/' || team."simplyId" || '/objects/seed-' || g,
                         'API_KEY', 'seed', now() - (g || ' seconds')::interval, now()
                    FROM team, generate_series(1, $2::int) AS g
                  RETURNING id, "teamId", filename, "fileSizeBytes", "storageKey")
           INSERT INTO "FileVersion" ("teamId", "fileId", "versionNumber", filename, "mimeType", "fileSizeBytes", "checksumSha256", "storageKey", "createdByKind")
           SELECT "teamId", id, 1, filename, 'application/pdf', "fileSizeBytes", 'x', "storageKey", 'API_KEY' FROM made`,
          [team.teamSimplyId, LISTED_FILES],
        );
        // the steady state autovacuum reaches: statistics, and a visibility map for index-only counts
        await queryDatabase(database.url, 'VACUUM ANALYZE "StoredFile"');
        const path25 = '/v1/files?page=1&pageSize=25';
        for (let i = 0; i < 50; i++) await api.request('GET', path25);
        const latencies: number[] = [];
        for (let i = 0; i < LIST_REQUESTS; i++) {
          const response = await api.request('GET', i % 2 === 0 ? path25 : `/v1/files?page=${1 + (i % 50)}&pageSize=25&sortBy=filename&sortOrder=asc`);
          if (response.status !== 200) throw new Error(`list answered ${response.status}`);
          latencies.push(response.doneAt - response.sentAt);
        }
        const s = summarizeLatencies(latencies);
        const p95 = [...latencies].sort((a, b) => a - b)[Math.ceil(0.95 * latencies.length) - 1]!;
        summary.list = { files: LISTED_FILES, requests: LIST_REQUESTS, p50: s.p50, p95, max: s.max };
        lines.push('', `files-list: GET /v1/files (pageSize 25; newest first, and by filename on pages 1-50) with ${LISTED_FILES.toLocaleString('en')} files, ${LIST_REQUESTS} sequential requests`, `  p50 ${s.p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms, max ${s.max.toFixed(1)} ms`);
        targets.push(judged('file list of 25 at 10,000 files p95 < 25 ms', `${p95.toFixed(1)} ms`, p95 < 25));
      }
    }, () => platform?.outputTail());
  });

export const benchSection = defineBenchSection('files', FILE_SCENARIOS, runFilesSection);
