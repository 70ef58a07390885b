// conversations-analytics: GET /v1/conversations/analytics over the 100,000 conversations of the
// inbox bed (inbox-seed.ts: a year of them, with their rollups), for the whole year with a weekly
// series, one channel over 90 days, and one agent over the year. Reported, no target.
import { judged } from '../events/results.ts';
import { ms, summarizeLatencies } from '../events/stats.ts';
import type { ConversationScenario, ConversationsBed } from './conversations-section.ts';
import { inboxBed, SEEDED_CONVERSATIONS } from './inbox-seed.ts';

const REQUESTS = Number(process.env.BENCH_ANALYTICS_REQUESTS ?? 100);
const WARMUP = 10;
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

async function run(bed: ConversationsBed): Promise<void> {
  const { lines, targets, summary, progress } = bed.section;
  const inbox = await inboxBed(bed);
  const year = `from=${day(-364)}&to=${day(0)}`;
  const cases: [string, string][] = [
    ['365 days, weekly series', `${year}&granularity=week`],
    ['90 days of EMAIL, daily series', `from=${day(-89)}&to=${day(0)}&channel=EMAIL&granularity=day`],
    ['365 days of one agent', `${year}&assignedUserId=${inbox.agentSimplyId}`],
  ];
  lines.push('', `conversations-analytics: GET /v1/conversations/analytics over ${SEEDED_CONVERSATIONS.toLocaleString('en')} conversations in a year (daily rollups), ${REQUESTS} requests a case, one at a time`);
  const results: Record<string, unknown> = {};
  for (const [label, query] of cases) {
    progress(`conversations-analytics: ${label}`);
    const path = `/v1/conversations/analytics?${query}`;
    let created = 0;
    for (let i = 0; i < WARMUP; i++) {
      const answer = await inbox.get(inbox.adminToken, path);
      if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`);
      created = answer.body.data.created;
    }
    const times: number[] = [];
    for (let i = 0; i < REQUESTS; i++) times.push((await inbox.get(inbox.adminToken, path)).ms);
    const s = summarizeLatencies(times);
    const p95 = [...times].sort((a, b) => a - b)[Math.ceil(0.95 * times.length) - 1]!;
    results[label] = { p50: s.p50, p95, p99: s.p99, max: s.max, created };
    lines.push(`  ${label}: p50 ${ms(s.p50)}, p95 ${ms(p95)}, max ${ms(s.max)} (${created.toLocaleString('en')} conversations counted)`);
    targets.push(judged(`analytics ${label}: p95 (reported)`, ms(p95), true, { informational: true }));
  }
  summary.analytics = { conversations: SEEDED_CONVERSATIONS, requests: REQUESTS, cases: results };
}

export const conversationScenario: ConversationScenario = { id: 'conversations-analytics', run };
