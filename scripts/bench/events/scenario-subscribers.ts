// graphql-ws fan-out (docs/benchmark.md "Events"): S subscribers of `dataRecordChanges` on one collection,
// selecting the record, in forked client processes (subscriber-clients.ts). One writer creates
// single records (POST /v1/data-records) one at a time, BENCH_EVENTS_WRITE_INTERVAL_MS apart:
//   1. W writes with no subscriber: the write's own latency alone;
//   2. the server's RSS, then S clients connect and subscribe; writes until every client has
//      received one (the protocol does not say when a subscription is live);
//   3. W measured writes: each receipt's delay from the moment its write was sent, and the
//      writes' own latency;
//   4. every client disconnects; the server's RSS is watched for BENCH_EVENTS_RSS_SETTLE seconds
//      and its last value compared with the one before subscribing.
import type { ApiClient } from './api-client.ts';
import { startCpuSplit, watchRss } from './process-meter.ts';
import { processRss } from '../memory-sampler.ts';
import { cpuLine, judged, seconds, type EventScenarioResult } from './results.ts';
import { openBed, recordFields, waitUntil, type Bed, type SectionContext } from './scenario-bed.ts';
import { ms, summarizeLatencies, wallClockMs } from './stats.ts';
import { SubscriberClients } from './subscriber-clients.ts';

const SUBSCRIPTION = `subscription Changes($c: String!) {
  dataRecordChanges(dataCollectionSimplyId: $c) {
    changeType eventId dataRecordSimplyId occurredAt
    record { id name fields createdAt updatedAt }
  }
}`;
const CONNECTS_IN_FLIGHT_PER_PROCESS = 50;
const WARM_UP_WRITES = 20;
const LIVE_TIMEOUT_MS = 60_000;
/** after the last measured write, how long receipts may still come in */
const RECEIPT_GRACE_MS = 10_000;
const MiB = 1024 * 1024;

interface Write {
  id: string;
  sentAt: number;
  latencyMs: number;
}

async function writeOne(api: ApiClient, bed: Bed, n: number): Promise<Write> {
  const response = await api.request('POST', '/v1/data-records', { dataCollectionSimplyId: bed.collection.id, fields: recordFields(bed.collection, n) });
  if (response.status !== 201 || typeof response.body?.data?.id !== 'string') throw new Error(`record create: ${response.status} ${JSON.stringify(response.body).slice(0, 1000)}`);
  return { id: response.body.data.id, sentAt: response.sentAt, latencyMs: response.doneAt - response.sentAt };
}

/** `count` writes one at a time, started `intervalMs` apart (or at once after a slower one) */
async function pacedWrites(bed: Bed, count: number, intervalMs: number, first: number): Promise<Write[]> {
  const writes: Write[] = [];
  const start = wallClockMs();
  for (let i = 0; i < count; i++) {
    const wait = start + i * intervalMs - wallClockMs();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    writes.push(await writeOne(bed.api, bed, first + i));
  }
  return writes;
}

export async function runSubscriberScenario(ctx: SectionContext): Promise<EventScenarioResult> {
  const { subscribers, clientProcesses, subscriberWrites, writeIntervalMs, rssSettleSeconds } = ctx.settings;
  const bed = await openBed(ctx, 'events-subscribers');
  const clients = new SubscriberClients(Math.min(clientProcesses, subscribers));
  try {
    let n = 0;
    await pacedWrites(bed, WARM_UP_WRITES, writeIntervalMs, n);
    n += WARM_UP_WRITES;
    const alone = await pacedWrites(bed, subscriberWrites, writeIntervalMs, n);
    n += subscriberWrites;
    const rssBefore = processRss(bed.platform.pid);

    await clients.ready;
    const connectStarted = wallClockMs();
    const connected = await clients.connect({
      url: `${bed.platform.baseUrl.replace(/^https:/, 'wss:')}/graphql`,
      ca: bed.platform.ca,
      connectionParams: { authorization: `Bearer ${ctx.team.apiKey}` },
      query: SUBSCRIPTION,
      variables: { c: bed.collection.id },
      field: 'dataRecordChanges',
      count: subscribers,
      concurrency: CONNECTS_IN_FLIGHT_PER_PROCESS,
    });
    const connectMs = wallClockMs() - connectStarted;
    ctx.progress(`  events-subscribers: ${connected.connected} of ${subscribers} clients connected in ${seconds(connectMs)} (${connected.failed} failed${connected.firstError ? `: ${connected.firstError}` : ''}); waiting until every one receives`);
    const liveDeadline = wallClockMs() + LIVE_TIMEOUT_MS;
    let live = await clients.status();
    while (live.live < connected.connected && wallClockMs() < liveDeadline) {
      await writeOne(bed.api, bed, n++);
      await new Promise((resolve) => setTimeout(resolve, 500));
      live = await clients.status();
    }
    // writes already answered may still be on their way to some clients
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    await clients.reset();

    const cpu = startCpuSplit({ server: bed.platform.pid, postmaster: () => ctx.databases.postmasterPid(), clients: () => clients.pids() });
    const rssDuring = watchRss(bed.platform.pid);
    const measured = await pacedWrites(bed, subscriberWrites, writeIntervalMs, n);
    await waitUntil(async () => (await clients.status()).receipts >= measured.length * connected.connected, wallClockMs() + RECEIPT_GRACE_MS, 250);
    const cpuSplit = cpu.stop();
    const rssPeak = rssDuring.stop().maxBytes;
    // every subscriber asked for should receive every write: one that never connected misses them all
    const collected = await clients.collect(Object.fromEntries(measured.map((w) => [w.id, w.sentAt])));
    const expected = measured.length * subscribers;
    const afterWrites = await clients.status();

    await clients.disconnect();
    const settle = watchRss(bed.platform.pid, 500);
    await new Promise((resolve) => setTimeout(resolve, rssSettleSeconds * 1000));
    const rssAfter = settle.stop().lastBytes;

    const receipt = summarizeLatencies(collected.latencies, collected.missing);
    const writeAlone = summarizeLatencies(alone.map((w) => w.latencyMs));
    const writeWith = summarizeLatencies(measured.map((w) => w.latencyMs));
    const writeCost = writeWith.p99 - writeAlone.p99;
    const rssGrowth = rssBefore && rssAfter ? rssAfter / rssBefore - 1 : null;
    const mib = (bytes: number | null) => (bytes === null ? 'n/a' : `${(bytes / MiB).toFixed(0)} MiB`);
    const scale: [string, number, number] = ['BENCH_EVENTS_SUBSCRIBERS', 5000, subscribers];
    const lines = [
      `${connected.connected} of ${subscribers} graphql-ws clients in ${clients.pids().length} processes connected in ${seconds(connectMs)}` +
        `${connected.failed ? ` (${connected.failed} failed: ${connected.firstError})` : ''}; ${live.live} live before measuring`,
      `${measured.length} writes, ${writeIntervalMs} ms apart: ${expected - collected.missing} of ${expected} receipts; ` +
        `write → receipt p50 ${ms(receipt.p50)}, p90 ${ms(receipt.p90)}, p99 ${ms(receipt.p99)}, max ${ms(receipt.max)}`,
      `  duplicates ${collected.duplicates}, record null ${collected.nullRecords}, error messages ${afterWrites.errors}${afterWrites.firstError ? ` (${afterWrites.firstError})` : ''}, sockets closed by the server ${afterWrites.closed}`,
      `the write (POST /v1/data-records) alone: p50 ${ms(writeAlone.p50)}, p99 ${ms(writeAlone.p99)}; with the subscribers: p50 ${ms(writeWith.p50)}, p99 ${ms(writeWith.p99)}`,
      `server RSS: ${mib(rssBefore)} before subscribing, at most ${mib(rssPeak)} with subscribers, ${mib(rssAfter)} ${rssSettleSeconds} s after they left`,
      cpuLine(cpuSplit),
    ];
    return {
      scenario: 'events-subscribers',
      title: `graphql-ws fan-out: ${subscribers} subscribers of one collection, selecting the record`,
      figures: {
        subscribers,
        connected: connected.connected,
        failed: connected.failed,
        connectSeconds: connectMs / 1000,
        writes: measured.length,
        writeIntervalMs,
        receipts: { expected, missing: collected.missing, duplicates: collected.duplicates, nullRecords: collected.nullRecords, errors: afterWrites.errors, latency: receipt },
        writeLatency: { alone: writeAlone, withSubscribers: writeWith },
        rss: { beforeBytes: rssBefore, peakBytes: rssPeak, afterBytes: rssAfter, settleSeconds: rssSettleSeconds },
      },
      lines,
      targets: [
        judged(`subscribers: write → receipt p99 < 200 ms with ${subscribers.toLocaleString('en')} subscribers`, `${ms(receipt.p99)} (${collected.missing} missing)`, receipt.p99 < 200, { scale }),
        judged('subscribers: the write p99 within 10 ms of the same write without subscribers', `${ms(writeWith.p99)} vs ${ms(writeAlone.p99)} (${writeCost >= 0 ? '+' : ''}${writeCost.toFixed(1)} ms)`, writeCost <= 10, { scale }),
        judged(
          'subscribers: server RSS back within 20 % after they disconnect',
          `${mib(rssBefore)} → ${mib(rssAfter)}${rssGrowth === null ? '' : ` (${rssGrowth >= 0 ? '+' : ''}${(rssGrowth * 100).toFixed(0)} %)`}`,
          rssGrowth !== null && rssGrowth <= 0.2,
          { scale },
        ),
      ],
      cpu: cpuSplit,
      listenerWarnings: bed.platform.listenerWarnings(),
    };
  } finally {
    await clients.close();
    await bed.close();
  }
}
