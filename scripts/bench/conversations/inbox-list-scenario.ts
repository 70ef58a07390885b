// conversations-inbox-list: GET /v1/conversations/inbox in a team of 100,000 conversations
// (inbox-seed.ts), as the two inbox reaches read it: an agent with DATA_CONVERSATION_INBOX_VIEW
// (their own and the unassigned conversations) and the team's admin (team-wide), each the first
// page and a filtered page, with the caller's read state and following as the inbox answers them.
// Each case: warm-up requests, then REQUESTS one after another. Target: p95 < 20 ms each.
import { judged } from '../events/results.ts';
import { ms, summarizeLatencies } from '../events/stats.ts';
import type { ConversationScenario, ConversationsBed } from './conversations-section.ts';
import { inboxBed, SEEDED_CONVERSATIONS } from './inbox-seed.ts';

const REQUESTS = Number(process.env.BENCH_INBOX_REQUESTS ?? 300);
const WARMUP = 30;
const TARGET_MS = 20;

async function run(bed: ConversationsBed): Promise<void> {
  const { lines, targets, summary, progress } = bed.section;
  const inbox = await inboxBed(bed);
  const cases: [string, string, string][] = [
    ['own + unassigned, first page', inbox.agentToken, ''],
    ['own + unassigned, filtered (status=OPEN,PENDING&channel=EMAIL)', inbox.agentToken, 'status=OPEN,PENDING&channel=EMAIL'],
    ['team-wide, first page', inbox.adminToken, ''],
    ['team-wide, filtered (status=OPEN&assigned=unassigned&priority=HIGH,URGENT)', inbox.adminToken, 'status=OPEN&assigned=unassigned&priority=HIGH,URGENT'],
  ];
  lines.push('', `conversations-inbox-list: GET /v1/conversations/inbox, ${SEEDED_CONVERSATIONS.toLocaleString('en')} conversations in the team, ${REQUESTS} requests a case, one at a time`);
  const results: Record<string, unknown> = {};
  for (const [label, token, query] of cases) {
    const path = `/v1/conversations/inbox${query ? `?${query}` : ''}`;
    progress(`conversations-inbox-list: ${label}`);
    let total = 0;
    for (let i = 0; i < WARMUP; i++) {
      const answer = await inbox.get(token, path);
      if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`);
      total = answer.body.meta.pagination.total;
    }
    const times: number[] = [];
    for (let i = 0; i < REQUESTS; i++) times.push((await inbox.get(token, path)).ms);
    const s = summarizeLatencies(times);
    const p95 = [...times].sort((a, b) => a - b)[Math.ceil(0.95 * times.length) - 1]!;
    results[label] = { p50: s.p50, p95, p99: s.p99, max: s.max, total };
    lines.push(`  ${label}: p50 ${ms(s.p50)}, p95 ${ms(p95)}, p99 ${ms(s.p99)}, max ${ms(s.max)} (${total.toLocaleString('en')} in reach)`);
    targets.push(judged(`inbox list ${label}: p95 < ${TARGET_MS} ms`, ms(p95), p95 < TARGET_MS, { scale: ['conversations', 100_000, SEEDED_CONVERSATIONS] }));
  }
  summary.inboxList = { conversations: SEEDED_CONVERSATIONS, requests: REQUESTS, cases: results };
}

export const conversationScenario: ConversationScenario = { id: 'conversations-inbox-list', run };
