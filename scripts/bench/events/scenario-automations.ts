// Automation executions (docs/benchmark.md "Events"): one RECORD_CREATED automation on the collection whose
// one action is cheap (SEND_USER_NOTIFICATION to the bench admin: a row, no outside call), then
// N records written quickly through the batch route. Executions/s: finished executions (any
// final status) between the first and the last completedAt, read from the database the server
// writes its execution log to (polled with one count every 250 ms, outside the server).
import { connectDatabase, queryDatabase } from './databases.ts';
import { startCpuSplit } from './process-meter.ts';
import { cpuLine, judged, pacedWrites, rate, seconds, type EventScenarioResult } from './results.ts';
import { openBed, waitUntil, writeRecords, type SectionContext } from './scenario-bed.ts';
import { ms, perSecondRange, summarizeLatencies, sustainedRate } from './stats.ts';

const FINAL = `status NOT IN ('QUEUED', 'RUNNING')`;

export async function runAutomationScenario(ctx: SectionContext): Promise<EventScenarioResult> {
  const { events, batchSize, writers, recordsPerSecond, timeoutSeconds } = ctx.settings;
  const bed = await openBed(ctx, 'events-automations');
  try {
    const automation = await bed.api.expect(201, 'POST', '/v1/automations', {
      name: 'Bench: notify on every new record',
      triggerType: 'RECORD_CREATED',
      dataCollectionSimplyId: bed.collection.id,
      actions: [{ actionType: 'SEND_USER_NOTIFICATION', actionConfig: { userSimplyId: ctx.team.userSimplyId, title: 'New record {{record.name}}' } }],
    });
    const poller = await connectDatabase(bed.database.url);
    const finished = async () => {
      const { rows } = await poller.query<{ n: string }>(
        `SELECT count(*) AS n FROM "AutomationExecution" e JOIN "Automation" a ON a.id = e."automationId" WHERE a."simplyId" = $1 AND ${FINAL}`,
        [automation.id],
      );
      return Number(rows[0]!.n);
    };

    const cpu = startCpuSplit({ server: bed.platform.pid, postmaster: () => ctx.databases.postmasterPid() });
    const writes = await writeRecords(bed, events, batchSize, writers, recordsPerSecond);
    ctx.progress(`  events-automations: ${events} records in ${seconds(writes.lastDoneAt - writes.firstSentAt)}; waiting for executions`);
    const complete = await waitUntil(async () => (await finished()) >= events, writes.firstSentAt + timeoutSeconds * 1000, 250).finally(() => poller.end());
    const cpuSplit = cpu.stop();

    // completion times, and the trigger's occurredAt (the record's domain event), in ms since the epoch
    const rows = await queryDatabase<{ status: string; completed: number; occurred: number | null }>(
      bed.database.url,
      `SELECT e.status, extract(epoch FROM e."completedAt") * 1000 AS completed, extract(epoch FROM d."occurredAt") * 1000 AS occurred
         FROM "AutomationExecution" e
         JOIN "Automation" a ON a.id = e."automationId"
         LEFT JOIN "DomainEvent" d ON d."eventId" = e."triggerEventId"
        WHERE a."simplyId" = $1 AND ${FINAL}`,
      [automation.id],
    );
    const completions = rows.map((r) => Number(r.completed));
    const { perSecond, lastMs } = sustainedRate(completions);
    const statuses: Record<string, number> = {};
    for (const r of rows) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
    const missing = Math.max(0, events - rows.length);
    const latency = summarizeLatencies(
      rows.filter((r) => r.occurred !== null).map((r) => Number(r.completed) - Number(r.occurred)),
      missing + rows.filter((r) => r.occurred === null).length,
    );
    const range = perSecondRange(completions);
    const lines = [
      `${events} records written in ${seconds(writes.lastDoneAt - writes.firstSentAt)}; ${rows.length} of ${events} executions finished${complete ? '' : ` within ${timeoutSeconds} s (BENCH_EVENTS_TIMEOUT)`} ` +
        `(${Object.entries(statuses).map(([s, n]) => `${s} ${n}`).join(', ') || 'none'}), ${rate(perSecond)} between first and last completion` +
        (range ? ` (whole seconds: ${range.min}-${range.max})` : '') +
        (lastMs === null ? '' : `, last one ${seconds(lastMs - writes.firstSentAt)} after the first write`),
      `  record event → execution completed: p50 ${ms(latency.p50)}, p99 ${ms(latency.p99)}`,
      cpuLine(cpuSplit),
    ];
    const succeeded = statuses.SUCCEEDED ?? 0;
    return {
      scenario: 'events-automations',
      title: 'automation executions (RECORD_CREATED → SEND_USER_NOTIFICATION)',
      figures: { events, complete, executionsPerSecond: perSecond, finished: rows.length, statuses, latency, perSecondRange: range },
      lines,
      targets: [
        judged('automations: ≥ 200 executions/s', `${rate(perSecond)} (${rows.length}/${events} finished, ${succeeded} SUCCEEDED)`, perSecond >= 200 && succeeded === rows.length, {
          scale: ['BENCH_EVENTS', 5000, events],
          notJudged: pacedWrites(recordsPerSecond),
        }),
      ],
      cpu: cpuSplit,
      listenerWarnings: bed.platform.listenerWarnings(),
    };
  } finally {
    await bed.close();
  }
}
