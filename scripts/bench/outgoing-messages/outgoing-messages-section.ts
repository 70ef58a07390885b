// The outgoing-messages section of `npm run bench` (docs/benchmark.md "Outgoing messages"), judged
// against its targets, on a platform server of its own (`svc start`, workers in-process) over
// a fresh database, handing mail to a local SMTP sink:
//   outgoing-messages-send  one EMAIL message to 10,000 recipients (records with an email field):
//                           time from the move to SENDING until every recipient row is QUEUED
//                           (resolved and handed to the mail transport; target < 5 s), and the
//                           delivery throughput into the sink (target ≥ 200 messages/s on 2 cores).
// MESSAGE_SEND_RATE is raised to its maximum (10,000/s) so the pacing does not set the figures.
import { ApiClient } from '../events/api-client.ts';
import { connectDatabase } from '../events/databases.ts';
import { startPlatform, svcEnvironment } from '../events/platform-process.ts';
import { judged, rate, seconds } from '../events/results.ts';
import { startSmtpSink } from '../events/smtp-sink.ts';
import { wallClockMs } from '../events/stats.ts';
import { defineBenchSection } from '../bench-section.ts';
import { runSection } from '../section-bed.ts';

export const OUTGOING_MESSAGE_SCENARIOS = ['outgoing-messages-send'] as const;
export type OutgoingMessageScenario = (typeof OUTGOING_MESSAGE_SCENARIOS)[number];

const RECIPIENTS = Number(process.env.BENCH_OUTGOING_RECIPIENTS ?? 10_000);
const QUEUED_TARGET_MS = 5_000;
const THROUGHPUT_TARGET = 200;
const WAIT_LIMIT_MS = 10 * 60_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function ok(api: ApiClient, method: string, url: string, body: unknown, status = 200): Promise<any> {
  const response = await api.request(method, url, body);
  if (response.status !== status) throw new Error(`${method} ${url}: ${response.status} ${JSON.stringify(response.body).slice(0, 500)}`);
  return response.body.data;
}

/** A collection of `count` people with an email address each, through the batch route. */
async function seedPeople(api: ApiClient, count: number, progress: (line: string) => void): Promise<{ collection: string; email: string; name: string }> {
  const collection = await ok(api, 'POST', '/v1/data-collections', {
    name: 'Bench recipients',
    fields: [
      { title: 'Name', dataType: 'PLAIN_TEXT', isRequired: true },
      { title: 'Email', dataType: 'EMAIL_ADDRESS' },
    ],
    dataRecordCalculatedNameFormula: '{name}',
  }, 201);
  const fields = Object.fromEntries((collection.fields as { columnName: string; id: string }[]).map((f) => [f.columnName, f.id]));
  for (let start = 0; start < count; start += 100) {
    const records = Array.from({ length: Math.min(100, count - start) }, (_, i) => ({ fields: { [fields.name!]: `Recipient ${start + i}`, [fields.email!]: `r${start + i}@example.test` } }));
    await ok(api, 'POST', '/v1/data-records/batch', { dataCollectionSimplyId: collection.id, records });
    if ((start / 100) % 20 === 19) progress(`outgoing-messages: ${start + 100} of ${count} recipients created`);
  }
  return { collection: collection.id, email: fields.email!, name: fields.name! };
}

export const runOutgoingMessagesSection = (scenarios: readonly OutgoingMessageScenario[], progress: (line: string) => void) =>
  runSection('outgoing', scenarios, progress, async (bed) => {
    const { database, lines, targets, summary } = bed;
    const sink = await startSmtpSink();
    bed.onCleanup(() => sink.close());
    const boot = await bed.bootstrap('Bench outgoing');
    const platform = await startPlatform(svcEnvironment({ ...bed.env, PORT: '0', SMTP_URL: sink.url, MESSAGE_SEND_RATE: '10000', RATE_LIMIT_PER_MINUTE: '1000000' }));
    bed.onCleanup(() => platform.stop());
    const db = await connectDatabase(database.url);
    bed.onCleanup(() => db.end());
    await bed.scenario('outgoing-messages-send', async () => {
      const api = new ApiClient({ baseUrl: platform.baseUrl, ca: platform.ca, apiKey: boot.apiKey, sockets: 2 });
      progress(`outgoing-messages: creating ${RECIPIENTS.toLocaleString('en')} recipients`);
      const people = await seedPeople(api, RECIPIENTS, progress);
      // a verified domain and its sender, as verification would leave them
      await db.query(
        `WITH team AS (SELECT id FROM "Team" WHERE "simplyId" = $1),
              domain AS (INSERT INTO "TeamMailDomain" ("simplyId", "teamId", domain, "verificationToken", status, "verifiedAt", "updatedAt")
                         SELECT 'mdm-BENC-HDMN-2222', id, 'bench.example', 'bench-token-bench-token-bench-tok', 'VERIFIED', now(), now() FROM team RETURNING id, "teamId")
         INSERT INTO "MessageSender" ("simplyId", "teamId", name, "deliveryMethod", "emailAddress", "domainId", "isDefault", "updatedAt")
         SELECT 'msn-BENC-HSND-2222', "teamId", 'Bench', 'EMAIL', 'news@bench.example', id, true, now() FROM domain`,
        [boot.teamSimplyId],
      );
      await db.query('VACUUM ANALYZE "DataRecord", "DataRecordMembership"');
      const message = await ok(api, 'POST', '/v1/outgoing-messages', {
        internalName: 'Bench send',
        subjectLine: 'Hello {{name}}',
        contentType: 'HTML',
        htmlContent: '<p>Dear {{name}},</p><p>this is the bench message, rendered for {{record.name}}.</p>',
        textContent: 'Dear {{name}}, this is the bench message.',
        recipients: { dataCollectionSimplyId: people.collection, emailFieldSimplyId: people.email },
      }, 201);
      const readiness = await ok(api, 'GET', `/v1/outgoing-messages/${message.id}/send-readiness`, undefined);
      if (!readiness.ready) throw new Error(`not ready: ${JSON.stringify(readiness.blockers)}`);
      const { rows: [row] } = await db.query<{ id: string }>(`SELECT id::text FROM "OutgoingMessage" WHERE "simplyId" = $1`, [message.id]);
      progress(`outgoing-messages: sending to ${RECIPIENTS.toLocaleString('en')} recipients`);
      const move = await api.request('PUT', `/v1/outgoing-messages/${message.id}/status`, { status: 'SENDING' });
      if (move.status !== 200) throw new Error(`move to SENDING: ${move.status} ${JSON.stringify(move.body).slice(0, 500)}`);
      const movedAt = move.sentAt;
      let queuedAt = 0;
      let resolvedAt = 0;
      const deadline = Date.now() + WAIT_LIMIT_MS;
      while (!queuedAt) {
        const { rows } = await db.query<{ total: string; pending: string }>(
          `SELECT count(*) AS total, count(*) FILTER (WHERE state = 'PENDING') AS pending FROM "OutgoingMessageRecipient" WHERE "outgoingMessageId" = $1`,
          [row!.id],
        );
        const now = wallClockMs();
        if (!resolvedAt && Number(rows[0]!.total) > 0) resolvedAt = now;
        if (Number(rows[0]!.total) >= RECIPIENTS && Number(rows[0]!.pending) === 0) queuedAt = now;
        else if (Date.now() > deadline) throw new Error(`recipients not all queued after ${WAIT_LIMIT_MS / 1000} s: ${JSON.stringify(rows[0])}`);
        else await sleep(20);
      }
      while (sink.arrivals.length < RECIPIENTS) {
        if (Date.now() > deadline) throw new Error(`only ${sink.arrivals.length} of ${RECIPIENTS} mails reached the sink`);
        await sleep(50);
      }
      const arrivals = sink.arrivals.map((a) => a.receivedAt).sort((a, b) => a - b);
      const first = arrivals[0]!;
      const last = arrivals.at(-1)!;
      const overall = (RECIPIENTS * 1000) / (last - movedAt);
      const steady = ((RECIPIENTS - 1) * 1000) / Math.max(1, last - first);
      const queuedMs = queuedAt - movedAt;
      const { rows: [status] } = await db.query<{ status: string }>(`SELECT status FROM "OutgoingMessage" WHERE id = $1`, [row!.id]);
      summary.send = {
        recipients: RECIPIENTS,
        resolvedMs: resolvedAt - movedAt,
        queuedMs,
        firstMailMs: first - movedAt,
        lastMailMs: last - movedAt,
        deliveredPerSecond: overall,
        steadyPerSecond: steady,
        distinctMails: sink.distinct(),
        finalStatus: status?.status,
      };
      lines.push(
        '',
        `outgoing-messages-send: one message to ${RECIPIENTS.toLocaleString('en')} recipients (MESSAGE_SEND_RATE 10,000/s, mail into a local SMTP sink)`,
        `  recipients resolved (first rows visible) after ${seconds(resolvedAt - movedAt)}; all QUEUED after ${seconds(queuedMs)}; message ${status?.status}`,
        `  mails in the sink: first after ${seconds(first - movedAt)}, last after ${seconds(last - movedAt)}; ${rate(overall)} from the move, ${rate(steady)} first to last; ${sink.distinct()} distinct`,
      );
      targets.push(judged('outgoing message to 10,000: resolved and queued < 5 s', seconds(queuedMs), queuedMs < QUEUED_TARGET_MS, { scale: ['BENCH_OUTGOING_RECIPIENTS', 10_000, RECIPIENTS] }));
      targets.push(judged('outgoing message: ≥ 200 messages/s into a local SMTP sink', rate(overall), overall >= THROUGHPUT_TARGET, { scale: ['BENCH_OUTGOING_RECIPIENTS', 10_000, RECIPIENTS] }));
    });
  });

export const benchSection = defineBenchSection('outgoing-messages', OUTGOING_MESSAGE_SCENARIOS, runOutgoingMessagesSection);
