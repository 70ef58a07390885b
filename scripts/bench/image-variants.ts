// The image-variant figures: renderImageVariants (src/modules/files/variants/image-variants.ts)
// on a generated 12 MP photo-like JPEG, once as stored (4000 × 3000 landscape) and once stored
// sideways with EXIF orientation 6 (shown 3000 × 4000, whose RESPONSIVE_1920 is the largest
// variant any 12 MP image gets). Each case: one warm-up, then the median of `runs` timed runs,
// judged against its target (every variant in under 3 s on the 2-core machine).
//
// In process, no server or database. scripts/bench.ts can call runImageVariantsBench; alone:
//   node scripts/bench/image-variants.ts [--runs 5] [--json]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { renderImageVariants } from '../../src/modules/files/variants/image-variants.ts';
import { sampleMemory } from './memory-sampler.ts';
import { targetLines, type TargetOutcome } from './report.ts';

const TARGET_MS = 3000;
const MIB = 1024 * 1024;
const WIDTH = 4000;
const HEIGHT = 3000;

export interface ImageVariantsCase {
  name: string;
  input: { width: number; height: number; orientation: number; bytes: number };
  runs: number;
  /** wall time of one renderImageVariants call, milliseconds */
  p50Ms: number;
  minMs: number;
  maxMs: number;
  /** process CPU time over wall time during the median run, in cores */
  cores: number;
  totalBytes: number;
  /** this process's RSS when the timed runs began and the largest seen during them (200 ms samples), MiB */
  rssStartMib: number;
  rssPeakMib: number;
  variants: { variantType: string; format: string; width: number; height: number; bytes: number }[];
}

export interface ImageVariantsSection {
  /** readable report lines (targets not included: `targets`) */
  lines: string[];
  targets: TargetOutcome[];
  summary: { cases: ImageVariantsCase[] };
}

/**
 * A deterministic photo-like image: a smooth colour field, mid-scale detail and sensor-like grain
 * (flat or noise-only images would flatter or punish the encoders).
 */
async function photoPixels(): Promise<Buffer> {
  let seed = 0x2545f491;
  const bytes = (n: number) => {
    const out = Buffer.alloc(n);
    for (let i = 0; i < n; i++) {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      out[i] = seed & 0xff;
    }
    return out;
  };
  const upscaled = (w: number, h: number) =>
    sharp(bytes(w * h * 3), { raw: { width: w, height: h, channels: 3 } }).resize(WIDTH, HEIGHT, { kernel: 'cubic' }).raw().toBuffer();
  const field = await upscaled(40, 30);
  const detail = await upscaled(400, 300);
  const grain = bytes(WIDTH * HEIGHT * 3);
  const out = Buffer.alloc(WIDTH * HEIGHT * 3);
  for (let i = 0; i < out.length; i++) {
    // grain: a rough bell curve from the sum of two uniform bytes
    const noise = ((grain[i]! + grain[(i * 7919) % grain.length]!) / 2 - 128) * 0.25;
    out[i] = Math.max(0, Math.min(255, Math.round(20 + field[i]! * 0.7 + (detail[i]! - 128) * 0.25 + noise)));
  }
  return out;
}

async function writePhoto(pixels: Buffer, file: string, orientation: number): Promise<void> {
  await sharp(pixels, { raw: { width: WIDTH, height: HEIGHT, channels: 3 } })
    .jpeg({ quality: 90 })
    .withExif({ IFD0: { Make: 'Bench', Model: 'Synthetic' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 30/1' } })
    .withMetadata({ orientation })
    .toFile(file);
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

async function measure(name: string, file: string, orientation: number, runs: number, progress: (line: string) => void): Promise<ImageVariantsCase> {
  progress(`image variants, ${name}: warm-up and ${runs} runs…`);
  await renderImageVariants(file);
  const times: { ms: number; cores: number }[] = [];
  let last: Awaited<ReturnType<typeof renderImageVariants>> | null = null;
  const rssStartMib = process.memoryUsage().rss / MIB;
  const memory = sampleMemory();
  for (let i = 0; i < runs; i++) {
    const cpu = process.cpuUsage();
    const started = performance.now();
    last = await renderImageVariants(file);
    const ms = performance.now() - started;
    const used = process.cpuUsage(cpu);
    times.push({ ms, cores: (used.user + used.system) / 1000 / ms });
  }
  const rssPeakMib = memory.stop().rssMaxBytes / MIB;
  const p50Ms = median(times.map((t) => t.ms));
  const variants = last!.variants.map((v) => ({ variantType: v.variantType, format: v.format, width: v.width, height: v.height, bytes: v.bytes.length }));
  return {
    name,
    input: { width: last!.width, height: last!.height, orientation, bytes: fs.statSync(file).size },
    runs,
    p50Ms,
    minMs: Math.min(...times.map((t) => t.ms)),
    maxMs: Math.max(...times.map((t) => t.ms)),
    cores: times.reduce((a, t) => (Math.abs(t.ms - p50Ms) < Math.abs(a.ms - p50Ms) ? t : a)).cores,
    totalBytes: variants.reduce((sum, v) => sum + v.bytes, 0),
    rssStartMib,
    rssPeakMib,
    variants,
  };
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;

function caseLines(c: ImageVariantsCase): string[] {
  const lines = [
    `${c.name}: ${c.input.width}×${c.input.height} shown, ${kib(c.input.bytes)} JPEG; p50 ${c.p50Ms.toFixed(0)} ms ` +
      `(min ${c.minMs.toFixed(0)}, max ${c.maxMs.toFixed(0)}, ${c.runs} runs), ${c.cores.toFixed(2)} cores busy, ` +
      `${c.variants.length} variants, ${kib(c.totalBytes)} in all; RSS ${c.rssStartMib.toFixed(0)} MiB before, peak ${c.rssPeakMib.toFixed(0)} MiB`,
  ];
  for (const v of c.variants) lines.push(`  ${v.variantType.padEnd(16)} ${v.format.padEnd(4)} ${`${v.width}×${v.height}`.padStart(9)} ${kib(v.bytes).padStart(9)}`);
  return lines;
}

export async function runImageVariantsBench(options: { runs?: number; progress?: (line: string) => void } = {}): Promise<ImageVariantsSection> {
  const runs = options.runs ?? 5;
  const progress = options.progress ?? ((line: string) => process.stderr.write(`${line}\n`));
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`runs must be a whole number ≥ 1 (got ${runs})`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-image-variants-'));
  try {
    progress('image variants: generating a 12 MP photo…');
    const landscape = path.join(dir, 'landscape.jpg');
    const sideways = path.join(dir, 'sideways.jpg');
    {
      const pixels = await photoPixels();
      await writePhoto(pixels, landscape, 1);
      await writePhoto(pixels, sideways, 6);
    }
    const cases = [
      await measure('12 MP landscape', landscape, 1, runs, progress),
      await measure('12 MP EXIF-rotated portrait', sideways, 6, runs, progress),
    ];
    const worst = cases.reduce((a, b) => (b.p50Ms > a.p50Ms ? b : a));
    const targets: TargetOutcome[] = [
      {
        target: `every image variant of a 12 MP JPEG < ${TARGET_MS / 1000} s`,
        cell: null,
        value: `p50 ${(worst.p50Ms / 1000).toFixed(2)} s (${worst.name}, ${os.availableParallelism()} cores)`,
        met: worst.p50Ms < TARGET_MS,
        informational: false,
      },
    ];
    const lines = ['', 'image variants (renderImageVariants, in process):', ...cases.flatMap(caseLines)];
    return { lines, targets, summary: { cases } };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' }, json: { type: 'boolean', default: false } } });
  const section = await runImageVariantsBench({ runs: Number(values.runs) });
  const out = values.json ? process.stderr : process.stdout;
  for (const line of [...section.lines, ...targetLines(section.targets)]) out.write(`${line}\n`);
  if (values.json) process.stdout.write(`${JSON.stringify({ ...section.summary, targets: section.targets }, null, 2)}\n`);
  process.exitCode = section.targets.every((t) => t.met !== false) ? 0 : 1;
}
