// Webhook deliveries (docs/benchmark.md "Events"): N records written quickly through the batch
// route, DATA_RECORD_CREATED subscriptions on their collection, HTTPS receivers answering at once.
//   events-webhooks            one subscription, the records written as fast as the writers go (a
//                              burst): deliveries/s the platform drains, none lost or doubled
//   events-webhooks-sustained  the same with the writes paced at SUSTAINED_RATE records/s: whether
//                              deliveries keep up with that rate, event-to-delivery p99 < 2 s
//   events-webhooks-slow       three: the healthy receiver, one answering after 5 s, one port
//                              refusing connections; the healthy one's deliveries/s
// Event-to-delivery is the receipt at the receiver minus the record's createdAt in the body (the
// write's own timestamp, same clock). Deliveries/s: distinct events received, between the first
// and the last receipt. The scenario waits up to BENCH_EVENTS_TIMEOUT seconds from the first write.
import { startCpuSplit } from './process-meter.ts';
import type { EventScenario } from './settings.ts';
import { cpuLine, judged, pacedWrites, rate, seconds, type EventScenarioResult } from './results.ts';
import { openBed, waitUntil, writeRecords, type SectionContext } from './scenario-bed.ts';
import { ms, perSecondRange, summarizeLatencies, sustainedRate, wallClockMs } from './stats.ts';
import { createReceiverCertificate, refusingOrigin, startWebhookReceiver, type Arrival, type WebhookReceiver } from './webhook-receivers.ts';

const SLOW_ANSWER_MS = 5_000;
/** records/s of the sustained run: the rate the target names */
const SUSTAINED_RATE = 500;

export type WebhookMode = 'burst' | 'sustained' | 'troubled';
const SCENARIO: Record<WebhookMode, EventScenario> = { burst: 'events-webhooks', sustained: 'events-webhooks-sustained', troubled: 'events-webhooks-slow' };
/** after the last expected delivery, how long duplicates may still come in */
const DUPLICATE_GRACE_MS = 1_000;

interface ReceiverFigures {
  received: number;
  distinct: number;
  duplicates: number;
  invalidSignatures: number;
  missing: number;
  perSecond: number;
  perSecondRange: { min: number; max: number } | null;
  latency: ReturnType<typeof summarizeLatencies>;
  /** from the first write sent to the last delivery received */
  endToEndMs: number | null;
}

function receiverFigures(arrivals: Arrival[], expected: number, firstWriteAt: number): ReceiverFigures {
  const first = new Map<string, Arrival>();
  let invalidSignatures = 0;
  for (const a of arrivals) {
    if (!a.signatureValid) invalidSignatures++;
    if (!first.has(a.eventId)) first.set(a.eventId, a);
  }
  const firsts = [...first.values()];
  const times = firsts.map((a) => a.receivedAt);
  const { perSecond, lastMs } = sustainedRate(times);
  const latencies = firsts.filter((a) => a.recordCreatedAt !== null).map((a) => a.receivedAt - a.recordCreatedAt!);
  const missing = Math.max(0, expected - first.size);
  return {
    received: arrivals.length,
    distinct: first.size,
    duplicates: arrivals.length - first.size,
    invalidSignatures,
    missing,
    perSecond,
    perSecondRange: perSecondRange(times),
    // arrivals without a createdAt count as missing from the latency figures
    latency: summarizeLatencies(latencies, missing + (firsts.length - latencies.length)),
    endToEndMs: lastMs === null ? null : lastMs - firstWriteAt,
  };
}

export async function runWebhookScenario(ctx: SectionContext, mode: WebhookMode): Promise<EventScenarioResult> {
  const scenario = SCENARIO[mode];
  const withTroubledTargets = mode === 'troubled';
  const { events, batchSize, writers, timeoutSeconds } = ctx.settings;
  const recordsPerSecond = mode === 'sustained' ? SUSTAINED_RATE : ctx.settings.recordsPerSecond;
  const certificate = await createReceiverCertificate(ctx.dataDir);
  const receivers: WebhookReceiver[] = [];
  const healthy = await startWebhookReceiver(certificate);
  receivers.push(healthy);
  const slow = withTroubledTargets ? await startWebhookReceiver(certificate, { delayMs: SLOW_ANSWER_MS }) : null;
  if (slow) receivers.push(slow);
  const refusing = withTroubledTargets ? await refusingOrigin() : null;
  const bed = await openBed(ctx, scenario, { WEBHOOK_ALLOW_LOOPBACK: 'true', WEBHOOK_CA_FILE: certificate.certFile });
  try {
    const subscribe = async (origin: string) =>
      bed.api.expect(201, 'POST', '/v1/webhooks', {
        eventType: 'DATA_RECORD_CREATED',
        targetUrl: `${origin}/hooks/bench`,
        filterCriteria: { dataCollectionIds: [bed.collection.id] },
      }) as Promise<{ id: string; secret: string }>;
    const healthyHook = await subscribe(healthy.origin);
    healthy.useSecret(healthyHook.secret);
    const slowHook = slow ? await subscribe(slow.origin) : null;
    if (slow && slowHook) slow.useSecret(slowHook.secret);
    const refusingHook = refusing ? await subscribe(refusing) : null;

    const cpu = startCpuSplit({ server: bed.platform.pid, postmaster: () => ctx.databases.postmasterPid() });
    const writes = await writeRecords(bed, events, batchSize, writers, recordsPerSecond);
    ctx.progress(`  ${scenario}: ${events} records in ${writes.requests} batch requests in ${seconds(writes.lastDoneAt - writes.firstSentAt)}; waiting for deliveries`);
    const deadline = writes.firstSentAt + timeoutSeconds * 1000;
    const complete = await waitUntil(() => healthy.distinct() >= events, deadline);
    const cpuSplit = cpu.stop();
    if (complete) await new Promise((resolve) => setTimeout(resolve, DUPLICATE_GRACE_MS));
    const waitedMs = wallClockMs() - writes.firstSentAt;

    const main = receiverFigures(healthy.arrivals, events, writes.firstSentAt);
    const scale: [string, number, number] = ['BENCH_EVENTS', 5000, events];
    const lines = [
      `${events} records written in ${seconds(writes.lastDoneAt - writes.firstSentAt)} (${writes.requests} × POST /v1/data-records/batch, ${writers} in flight${recordsPerSecond ? `, paced at ${recordsPerSecond}/s` : ''})`,
      `${withTroubledTargets ? 'healthy receiver' : 'receiver'}: ${main.distinct} of ${events} events delivered${complete ? '' : ` within ${timeoutSeconds} s (BENCH_EVENTS_TIMEOUT)`}, ` +
        `${rate(main.perSecond)} between first and last delivery` +
        (main.perSecondRange ? ` (whole seconds: ${main.perSecondRange.min}-${main.perSecondRange.max})` : '') +
        (main.endToEndMs === null ? '' : `, last one ${seconds(main.endToEndMs)} after the first write`),
      `  event-to-delivery (record createdAt → receipt): p50 ${ms(main.latency.p50)}, p90 ${ms(main.latency.p90)}, p99 ${ms(main.latency.p99)}, max ${ms(main.latency.max)}`,
      `  duplicates ${main.duplicates}, invalid signatures ${main.invalidSignatures}, not delivered ${main.missing}`,
    ];
    const figures: Record<string, unknown> = { events, writes: { requests: writes.requests, seconds: (writes.lastDoneAt - writes.firstSentAt) / 1000 }, complete, waitedSeconds: waitedMs / 1000, receiver: main };
    const targets = withTroubledTargets
      ? [
          judged(`webhooks: the healthy receiver ≥ 300 deliveries/s beside a 5 s receiver and a refusing one`, `${rate(main.perSecond)} (${main.distinct}/${events} delivered)`, main.perSecond >= 300, {
            scale,
            notJudged: pacedWrites(recordsPerSecond),
          }),
          judged(`webhooks: the healthy receiver's p99 event-to-delivery beside them < 2 s`, ms(main.latency.p99), main.latency.p99 < 2000, { informational: true, scale }),
        ]
      : mode === 'sustained'
        ? [
            // the deliveries keep up with writes at 500/s when each arrives within 2 s of its write
            judged(
              `webhooks: ${SUSTAINED_RATE} events/s sustained over ${events.toLocaleString('en')} events, p99 event-to-delivery < 2 s`,
              `${ms(main.latency.p99)} (${rate(main.perSecond)}, ${main.distinct}/${events} delivered)`,
              main.latency.p99 < 2000 && main.missing === 0,
              { scale },
            ),
          ]
        : [
            judged(`webhooks: ≥ 500 deliveries/s draining a burst of ${events.toLocaleString('en')} events`, `${rate(main.perSecond)} (${main.distinct}/${events} delivered)`, main.perSecond >= 500, {
              scale,
              notJudged: pacedWrites(recordsPerSecond),
            }),
            judged('webhooks: p99 event-to-delivery over the burst', ms(main.latency.p99), main.latency.p99 < 2000, { informational: true, scale }),
            judged(
              'webhooks: none lost or duplicated, every signature valid',
              `${main.missing} not delivered${complete ? '' : ` within ${timeoutSeconds} s`}, ${main.duplicates} duplicates, ${main.invalidSignatures} invalid signatures`,
              main.missing === 0 && main.duplicates === 0 && main.invalidSignatures === 0,
              { scale },
            ),
        ];
    if (slow && slowHook && refusingHook) {
      // the platform's own account of the two troubled subscriptions (docs/api/webhooks.md counters)
      const slowState = await bed.api.expect(200, 'GET', `/v1/webhooks/${slowHook.id}`);
      const refusingState = await bed.api.expect(200, 'GET', `/v1/webhooks/${refusingHook.id}`);
      const slowFigures = receiverFigures(slow.arrivals, events, writes.firstSentAt);
      const counters = (s: any) => `${s.totalDeliveries} deliveries, ${s.successfulDeliveries} succeeded, ${s.failedDeliveries} failed, last ${s.lastDeliveryStatus ?? '-'}`;
      lines.push(
        `slow receiver (answers after ${SLOW_ANSWER_MS / 1000} s): ${slowFigures.received} requests received; platform: ${counters(slowState)}`,
        `refusing target: platform: ${counters(refusingState)}`,
      );
      figures.slowReceiver = { received: slowFigures.received, distinct: slowFigures.distinct, platform: slowState };
      figures.refusingTarget = { platform: refusingState };
    }
    lines.push(cpuLine(cpuSplit));
    return { scenario, title: withTroubledTargets ? 'webhooks: a healthy, a slow and a refusing target' : 'webhooks: one subscription', figures, lines, targets, cpu: cpuSplit, listenerWarnings: bed.platform.listenerWarnings() };
  } finally {
    await bed.close();
    await Promise.all(receivers.map((r) => r.close()));
  }
}
