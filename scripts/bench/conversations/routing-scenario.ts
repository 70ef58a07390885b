// conversations-routing-balance: balanced assignment under load (docs/api/conversations.md "How a
// conversation is assigned"). Two platform instances (each with its job workers) on one database;
// a pool rule over a team role of AGENTS agents (a few with small limits); CONVERSATIONS
// conversations started through both instances at once while agents go off and on line; then
// every conversation is routed. Reported from the database afterwards:
//   double assignments   conversations with more than one ASSIGNMENT (each assignment queues exactly one)
//   over a limit         agents with more open conversations than their limit
//   load spread          max - min open load among the eligible agents at the end (online, under their limit)
// Targets: 0, 0, at most 1. BENCH_ROUTING_CONVERSATIONS sets the count (default 10 000).
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { ApiClient } from '../events/api-client.ts';
import { startPlatform, svcEnvironment } from '../events/platform-process.ts';
import { judged, seconds } from '../events/results.ts';
import { summarizeLatencies } from '../events/stats.ts';
import type { ConversationScenario, ConversationsBed } from './conversations-section.ts';

const AGENTS = 20;
const SMALL_LIMIT_AGENTS = 4;
const SMALL_LIMIT = 150;
const CONVERSATIONS = Number(process.env.BENCH_ROUTING_CONVERSATIONS ?? 10_000);
const IN_FLIGHT = 24;
const SETTLE_TIMEOUT_MS = 10 * 60_000;
const group = () => randomBytes(6).toString('hex').toUpperCase().replace(/(.{4})(.{4})(.{4})/, '$1-$2-$3').replace(/[^A-Z0-9-]/g, 'A');

async function data(api: ApiClient, method: string, path: string, body?: unknown): Promise<any> {
  const answer = await api.request(method, path, body);
  if (answer.status >= 300) throw new Error(`${method} ${path} answered ${answer.status}: ${JSON.stringify(answer.body).slice(0, 300)}`);
  return (answer.body as { data: unknown }).data;
}

async function run(bed: ConversationsBed): Promise<void> {
  const { lines, targets, summary, progress, onCleanup, env } = bed.section;
  const a = bed.platform;
  const b = await startPlatform(svcEnvironment({ ...env, PORT: '0', RATE_LIMIT_PER_MINUTE: '1000000', RATE_LIMIT_ANONYMOUS_PER_MINUTE: '1000000' }));
  onCleanup(() => b.stop());
  const pool = new pg.Pool({ connectionString: env.DATABASE_URL, max: 2 });
  onCleanup(() => pool.end());
  const apiA = new ApiClient({ baseUrl: a.baseUrl, ca: a.ca, apiKey: bed.team.apiKey, sockets: IN_FLIGHT / 2 });
  const apiB = new ApiClient({ baseUrl: b.baseUrl, ca: b.ca, apiKey: bed.team.apiKey, sockets: IN_FLIGHT / 2 });
  onCleanup(() => (apiA.close(), apiB.close()));

  // agents: members of a role with the inbox feature (written directly: the bench needs many at once)
  const role = await data(apiA, 'POST', '/v1/team-roles', { name: 'Bench agents', featurePermissions: [{ name: 'DATA_CONVERSATION_INBOX_VIEW', level: 'EDIT' }] });
  const team = (await pool.query(`SELECT id FROM "Team" WHERE "simplyId" = $1`, [bed.team.teamSimplyId])).rows[0].id;
  const roleId = (await pool.query(`SELECT id FROM "TeamRole" WHERE "teamId" = $1 AND "simplyId" = $2`, [team, role.teamRoleSimplyId])).rows[0].id;
  const agents: string[] = [];
  for (let i = 0; i < AGENTS; i++) {
    const simplyId = `usr-${group()}`;
    const user = (await pool.query(`INSERT INTO "User" ("simplyId", email, "updatedAt") VALUES ($1, $2, now()) RETURNING id`, [simplyId, `agent-${i}-${randomBytes(3).toString('hex')}@bench.test`])).rows[0].id;
    await pool.query(`INSERT INTO "TeamMembership" ("simplyId", "teamId", "userId", "teamRoleId", "updatedAt") VALUES ($1, $2, $3, $4, now())`, [`tul-${group()}`, team, user, roleId]);
    agents.push(simplyId);
  }
  await data(apiA, 'POST', '/v1/conversations/assignment-rules', { name: 'Everyone', actionType: 'POOL', poolTeamRoleId: role.teamRoleSimplyId });
  const presence = (api: ApiClient, userSimplyId: string, status: string, maxOpenConversations?: number) =>
    data(api, 'PUT', '/v1/conversations/presence', { userSimplyId, status, ...(maxOpenConversations === undefined ? {} : { maxOpenConversations }) });
  for (const [i, id] of agents.entries()) await presence(apiA, id, 'ONLINE', i < SMALL_LIMIT_AGENTS ? SMALL_LIMIT : 1000);

  // agents go off and on line while conversations arrive (through both instances); heartbeats keep the others online
  const offline = new Set<string>();
  let stopToggling = false;
  const toggling = (async () => {
    let k = 0;
    while (!stopToggling) {
      const id = agents[SMALL_LIMIT_AGENTS + (k++ % (AGENTS - SMALL_LIMIT_AGENTS))]!;
      if (offline.has(id)) {
        offline.delete(id);
        await presence(k % 2 ? apiA : apiB, id, 'ONLINE');
      } else if (offline.size < 3) {
        offline.add(id);
        await presence(k % 2 ? apiA : apiB, id, 'OFFLINE');
      }
      for (const other of agents) if (!offline.has(other)) await presence(apiB, other, 'ONLINE');
      await new Promise((r) => setTimeout(r, 1500));
    }
  })();

  progress(`conversations-routing-balance: starting ${CONVERSATIONS} conversations through two instances`);
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async (_, lane) => {
      for (let i = next++; i < CONVERSATIONS; i = next++) {
        await data(lane % 2 ? apiB : apiA, 'POST', '/v1/conversations', { subject: `Bench ${i}` });
        if (i % 1000 === 999) progress(`  ${i + 1} started`);
      }
    }),
  );
  const createdMs = performance.now() - started;
  // everyone back online for the rest: waiting conversations drain to whoever has the fewest
  stopToggling = true;
  await toggling;
  for (const id of agents) await presence(apiA, id, 'ONLINE');
  const heartbeat = setInterval(() => void Promise.all(agents.map((id) => presence(apiA, id, 'ONLINE'))).catch(() => {}), 20_000);
  try {
    const deadline = Date.now() + SETTLE_TIMEOUT_MS;
    for (;;) {
      const waiting = (await pool.query(`SELECT count(*)::int AS n FROM "ConversationRouting" WHERE "teamId" = $1 AND state = 'PENDING'`, [team])).rows[0].n;
      if (waiting === 0) break;
      if (Date.now() > deadline) throw new Error(`${waiting} conversations still waiting for routing after ${SETTLE_TIMEOUT_MS / 60_000} minutes`);
      await new Promise((r) => setTimeout(r, 1000));
    }
  } finally {
    clearInterval(heartbeat);
  }
  const totalMs = performance.now() - started;

  const doubles = (await pool.query(
    `SELECT count(*)::int AS n FROM (SELECT 1 FROM pgboss.job WHERE name = 'conversations.notify' AND data->>'kind' = 'ASSIGNMENT' AND data->>'teamId' = $1 GROUP BY data->>'conversationId' HAVING count(*) > 1) d`,
    [String(team)],
  )).rows[0].n as number;
  const loads = (await pool.query(
    `SELECT u."simplyId", coalesce(p."maxOpenConversations", 10) AS "limit", (p.status = 'ONLINE' AND p."lastHeartbeatAt" > now() - interval '60 seconds') IS TRUE AS online,
            (SELECT count(*)::int FROM "Conversation" c WHERE c."teamId" = $1 AND c."assignedUserId" = u.id AND c.status IN ('OPEN','PENDING','ESCALATED')) AS open
       FROM "User" u JOIN "ConversationAgentPresence" p ON p."teamId" = $1 AND p."userId" = u.id WHERE u."simplyId" = ANY($2::text[])`,
    [team, agents],
  )).rows as { simplyId: string; limit: number; online: boolean; open: number }[];
  const assigned = loads.reduce((s, l) => s + l.open, 0);
  const overLimit = loads.filter((l) => l.open > l.limit).length;
  const eligible = loads.filter((l) => l.online && l.open < l.limit).map((l) => l.open);
  const spread = eligible.length ? Math.max(...eligible) - Math.min(...eligible) : 0;
  const delays = (await pool.query(`SELECT extract(epoch FROM ("assignedAt" - "createdAt")) * 1000 AS ms FROM "Conversation" WHERE "teamId" = $1 AND "assignedAt" IS NOT NULL`, [team])).rows.map((r) => Number(r.ms));
  const s = summarizeLatencies(delays);
  summary.routingBalance = { conversations: CONVERSATIONS, agents: AGENTS, assigned, doubleAssignments: doubles, agentsOverLimit: overLimit, eligibleLoadSpread: spread, createdSeconds: createdMs / 1000, totalSeconds: totalMs / 1000, assignDelayMs: s };
  lines.push(
    '',
    `conversations-routing-balance: ${CONVERSATIONS} conversations started through two instances (with workers), ${AGENTS} agents in a pool (${SMALL_LIMIT_AGENTS} with limit ${SMALL_LIMIT}), up to 3 off line at a time while they arrive`,
    `  started in ${seconds(createdMs)}, all routed in ${seconds(totalMs)}; ${assigned} assigned; created → assigned p50 ${s.p50.toFixed(0)} ms, p99 ${s.p99.toFixed(0)} ms`,
    `  double assignments ${doubles}; agents over their limit ${overLimit}; open load of the ${eligible.length} eligible agents ${Math.min(...eligible)}-${Math.max(...eligible)} (spread ${spread}); small-limit agents ${loads.filter((l) => l.limit === SMALL_LIMIT).map((l) => l.open).join(', ')}`,
  );
  targets.push(judged('routing: double assignments 0', String(doubles), doubles === 0));
  targets.push(judged('routing: agents over their limit 0', String(overLimit), overLimit === 0));
  targets.push(judged('routing: open load of eligible agents within 1', String(spread), spread <= 1));
  targets.push(judged(`routing: every conversation assigned (${CONVERSATIONS})`, String(assigned), assigned === CONVERSATIONS));
}

export const conversationScenario: ConversationScenario = { id: 'conversations-routing-balance', run };
