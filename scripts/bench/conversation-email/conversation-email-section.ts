// The conversations' email section of `npm run bench` (docs/benchmark.md), judged against its
// target, on a platform server of its own (`svc start` with the inbound SMTP listener) over a
// fresh database:
//   conversation-email-inbound  mails sent over SMTP to the listener, 4 at a time: half start a
//                               conversation through the team's inbound address, half answer
//                               one of those conversations (In-Reply-To naming its first mail), each
//                               with a quoted block and a signature to strip. The message is
//                               committed before the listener answers 250, so the latency is from
//                               the first SMTP byte to that answer; the last mail of each lane is
//                               read back through the API (p95 < 2 s)
import net from 'node:net';
import nodemailer from 'nodemailer';
import { ApiClient } from '../events/api-client.ts';
import { startPlatform, svcEnvironment } from '../events/platform-process.ts';
import { judged } from '../events/results.ts';
import { summarizeLatencies } from '../events/stats.ts';
import { defineBenchSection } from '../bench-section.ts';
import { runSection, type SectionBed } from '../section-bed.ts';

export const CONVERSATION_EMAIL_SCENARIOS = ['conversation-email-inbound'] as const;
export type ConversationEmailScenario = (typeof CONVERSATION_EMAIL_SCENARIOS)[number];

const MAILS = 400;
const LANES = 4;
const DOMAIN = 'reply.bench.test';
const TARGET_MS = 2000;

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function mail(i: number, to: string, inReplyTo: string | null): { raw: string; messageId: string; from: string } {
  const from = `visitor${inReplyTo ? i - 1 : i}@bench-senders.example`;
  const messageId = `<bench-${i}-${Date.now()}@bench-senders.example>`;
  const raw = [
    `From: Visitor ${i} <${from}>`, `To: ${to}`, `Subject: ${inReplyTo ? 'Re: ' : ''}Question ${i}`, `Message-ID: ${messageId}`,
    ...(inReplyTo ? [`In-Reply-To: ${inReplyTo}`, `References: ${inReplyTo}`] : []),
    'MIME-Version: 1.0', 'Content-Type: text/plain; charset=utf-8', '',
    `Hello, this is mail ${i}. Could you tell me more about the membership?`, '', 'Thanks,', 'A visitor', '-- ', 'Visitor signature line',
    '', 'On Mon, 1 Dec 2026 at 10:00, Team <team@bench.test> wrote:', '> An earlier message', '> quoted here', '',
  ].join('\r\n');
  return { raw, messageId, from };
}

async function inboundScenario(bed: SectionBed<ConversationEmailScenario>): Promise<void> {
  const { lines, targets, summary } = bed;
  const team = await bed.bootstrap('Bench conversation email');
  const smtpPort = await freePort();
  const platform = await startPlatform(svcEnvironment({ ...bed.env, PORT: '0', INBOUND_SMTP_PORT: String(smtpPort), INBOUND_SMTP_HOST: '127.0.0.1', INBOUND_MAIL_DOMAIN: DOMAIN }));
  try {
    const api = new ApiClient({ baseUrl: platform.baseUrl, ca: platform.ca, apiKey: team.apiKey, sockets: 2 });
    const answer = await api.request('POST', '/graphql', { query: '{ conversationEmailAddresses { inboundAddress } }' });
    const inbox = answer.body?.data?.conversationEmailAddresses?.inboundAddress as string | undefined;
    if (!inbox) throw new Error(`conversationEmailAddresses answered ${answer.status}: ${JSON.stringify(answer.body).slice(0, 300)}`);
    const latencies: number[] = [];
    const lastOfLane: string[] = [];
    const lane = async (laneIndex: number) => {
      const transport = nodemailer.createTransport({ host: '127.0.0.1', port: smtpPort, secure: false, ignoreTLS: true, pool: false });
      try {
        let previous: string | null = null;
        for (let n = 0; n < MAILS / LANES; n++) {
          const i = laneIndex * (MAILS / LANES) + n;
          // even mails start a conversation, odd ones answer the one the mail before started
          const m = mail(i, inbox, n % 2 === 1 ? previous : null);
          const started = performance.now();
          await transport.sendMail({ envelope: { from: m.from, to: [inbox] }, raw: m.raw });
          latencies.push(performance.now() - started);
          previous = m.messageId;
          lastOfLane[laneIndex] = m.from;
        }
      } finally {
        transport.close();
      }
    };
    const began = performance.now();
    await Promise.all(Array.from({ length: LANES }, (_, i) => lane(i)));
    const seconds = (performance.now() - began) / 1000;
    // read back: every lane's last sender has a conversation with two messages, the reply stripped
    for (const from of lastOfLane) {
      const page = await api.request('GET', `/v1/conversations?channel=EMAIL&limit=100`);
      const conversation = (page.body.data as any[]).find((c) => c.visitorEmail === from);
      if (!conversation || conversation.messageCount !== 2) throw new Error(`the conversation of ${from} is missing or incomplete: ${JSON.stringify(conversation).slice(0, 300)}`);
      if (String(conversation.lastMessagePreview).includes('quoted here')) throw new Error('the quoted block was not stripped');
    }
    const s = { ...summarizeLatencies(latencies), p95: [...latencies].sort((a, b) => a - b)[Math.ceil(0.95 * latencies.length) - 1]! };
    summary.inbound = { mails: MAILS, lanes: LANES, mailsPerSecond: MAILS / seconds, ...s };
    lines.push(
      '',
      `conversation-email-inbound: ${MAILS} mails over SMTP to the inbound listener, ${LANES} at a time (half new conversations, half threaded replies)`,
      `  inbound mail → stored message: p50 ${s.p50.toFixed(1)} ms, p95 ${s.p95.toFixed(1)} ms, p99 ${s.p99.toFixed(1)} ms, max ${s.max.toFixed(1)} ms; ${(MAILS / seconds).toFixed(0)} mails/s`,
    );
    targets.push(judged(`inbound email → conversation message, p95 < ${TARGET_MS} ms`, `${s.p95.toFixed(0)} ms`, s.p95 < TARGET_MS));
  } finally {
    await platform.stop();
  }
}

export const runConversationEmailSection = (scenarios: readonly ConversationEmailScenario[], progress: (line: string) => void) =>
  runSection('conversation-email', scenarios, progress, async (bed) => {
    await bed.scenario('conversation-email-inbound', () => inboundScenario(bed));
  });

export const benchSection = defineBenchSection('conversation-email', CONVERSATION_EMAIL_SCENARIOS, runConversationEmailSection);
