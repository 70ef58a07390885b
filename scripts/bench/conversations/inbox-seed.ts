// The 100,000-conversation team the inbox-list and analytics scenarios share (seeded once per
// section run): a team of its own (so the other scenarios' counts are untouched), 20 agents with
// the own-and-unassigned inbox feature (one of them signed in), and the team's admin for the
// team-wide view. Conversations, messages, read markers and the analytics rollups are written with
// INSERT … SELECT in the shape the services write them, spread over the last 365 days:
//   status     OPEN 25 %, PENDING 10 %, ESCALATED 5 %, RESOLVED 40 %, CLOSED 20 %
//   assignee   unassigned 20 %, else one of the 20 agents
//   channel    CHAT 45 %, EMAIL 35 %, FORM 10 %, SMS 5 %, WHATSAPP 5 %
//   messages   1-6 a conversation (3.5 on average); 2 % snoozed; the signed-in agent has read half
import { randomBytes } from 'node:crypto';
import https from 'node:https';
import pg from 'pg';
import { hashPassword } from '../../../src/app/auth/passwords.ts';
import { membershipId, userId } from '../../../src/app/ids.ts';
import type { BootstrappedTeam } from '../section-bed.ts';
import type { ConversationsBed } from './conversations-section.ts';

export const SEEDED_CONVERSATIONS = Number(process.env.BENCH_INBOX_CONVERSATIONS ?? 100_000);
const AGENTS = 20;

export interface InboxBed {
  team: BootstrappedTeam;
  teamId: string;
  /** a signed-in agent with DATA_CONVERSATION_INBOX_VIEW (their own and the unassigned conversations) */
  agentToken: string;
  agentSimplyId: string;
  /** the team's admin, signed in: the team-wide inbox */
  adminToken: string;
  pool: pg.Pool;
  /** GET as `token` in the team: status, ms */
  get(token: string, path: string): Promise<{ status: number; ms: number; body: any }>;
}

/** a pseudo-random 0…n-1 of g per `salt` (md5), so the attributes are independent of each other */
const pick = (salt: string, n: number) => `((('x' || substr(md5(g || '${salt}'), 1, 8))::bit(32)::int & 2147483647) % ${n})`;

const seeded = new WeakMap<ConversationsBed, Promise<InboxBed>>();

export function inboxBed(bed: ConversationsBed): Promise<InboxBed> {
  let made = seeded.get(bed);
  if (!made) {
    made = seed(bed);
    seeded.set(bed, made);
  }
  return made;
}

async function seed(bed: ConversationsBed): Promise<InboxBed> {
  const { section, platform } = bed;
  const pool = new pg.Pool({ connectionString: section.env.DATABASE_URL, max: 2 });
  section.onCleanup(() => pool.end());
  const team = await section.bootstrap('Bench inbox');
  const agent = new https.Agent({ keepAlive: true, ca: platform.ca, maxSockets: 2 });
  section.onCleanup(() => agent.destroy());
  const request = (method: string, path: string, token: string, body?: unknown) =>
    new Promise<{ status: number; ms: number; body: any }>((resolve, reject) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const started = performance.now();
      const req = https.request(
        `${platform.baseUrl}${path}`,
        { method, agent, headers: { ...(token ? { authorization: `Bearer ${token}`, 'x-team-id': team.teamSimplyId } : {}), ...(payload ? { 'content-type': 'application/json' } : {}) } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', reject);
          res.on('end', () => {
            const ms = performance.now() - started;
            const text = Buffer.concat(chunks).toString('utf8');
            let parsed: unknown = text;
            try {
              parsed = JSON.parse(text);
            } catch {
              // not JSON
            }
            resolve({ status: res.statusCode ?? 0, ms, body: parsed });
          });
        },
      );
      req.on('error', reject);
      req.end(payload);
    });

  section.progress(`conversations inbox bed: seeding ${SEEDED_CONVERSATIONS} conversations`);
  const started = performance.now();
  const teamId = (await pool.query(`SELECT id FROM "Team" WHERE "simplyId" = $1`, [team.teamSimplyId])).rows[0].id as string;
  const role = await request('POST', '/v1/team-roles', team.apiKey, { name: 'Bench inbox agents', featurePermissions: [{ name: 'DATA_CONVERSATION_INBOX_VIEW', level: 'EDIT' }] });
  if (role.status !== 201) throw new Error(`role: ${role.status} ${JSON.stringify(role.body).slice(0, 300)}`);
  const roleId = (await pool.query(`SELECT id FROM "TeamRole" WHERE "teamId" = $1 AND "simplyId" = $2`, [teamId, role.body.data.teamRoleSimplyId])).rows[0].id;
  const password = randomBytes(12).toString('hex');
  const passwordHash = await hashPassword(password);
  const agentIds: string[] = [];
  let agentSimplyId = '';
  let agentEmail = '';
  for (let i = 0; i < AGENTS; i++) {
    const simplyId = userId.create();
    const email = `inbox-agent-${i}-${randomBytes(3).toString('hex')}@bench.test`;
    const user = (await pool.query(`INSERT INTO "User" ("simplyId", email, "passwordHash", "updatedAt") VALUES ($1, $2, $3, now()) RETURNING id`, [simplyId, email, passwordHash])).rows[0].id;
    await pool.query(`INSERT INTO "TeamMembership" ("simplyId", "teamId", "userId", "teamRoleId", "updatedAt") VALUES ($1, $2, $3, $4, now())`, [membershipId.create(), teamId, user, roleId]);
    agentIds.push(String(user));
    if (i === 0) [agentSimplyId, agentEmail] = [simplyId, email];
  }

  // conversations: g = 1…N, spread by hash-like arithmetic so every filter sees a realistic mix
  await pool.query(
    `INSERT INTO "Conversation" ("simplyId", "teamId", subject, channel, status, priority, "assignedUserId", "assignedAt", "visitorName", "visitorEmail", "visitorEmailKey",
       "searchText", "replyToken", "createdByKind", "messageCount", "lastMessageAt", "lastMessagePreview", "lastMessageAuthorType", "lastEndUserMessageAt",
       "firstResponseAt", "resolvedAt", "snoozedUntil", "createdAt", "updatedAt")
     SELECT 'cnv-' || upper(substr(md5('b' || g), 1, 4)) || '-' || upper(substr(md5('b' || g), 5, 4)) || '-' || upper(substr(md5('b' || g), 9, 4)),
            $1, 'Question ' || g, x.channel, x.status, (ARRAY['LOW','NORMAL','NORMAL','NORMAL','HIGH','URGENT'])[1 + ${pick('p', 6)}],
            x.assignee, CASE WHEN x.assignee IS NULL THEN NULL ELSE x.created + interval '2 minutes' END,
            'Visitor ' || g, 'visitor' || g || '@example.org', 'visitor' || g || '@example.org', 'question ' || g || ' visitor ' || g || ' visitor' || g || '@example.org',
            md5('reply-b' || g), 'SEED', x.messages, x.last, 'The latest message of conversation ' || g, CASE WHEN x.messages % 2 = 0 THEN 'AGENT' ELSE 'END_USER' END, x.created,
            CASE WHEN g % 10 <> 0 THEN x.created + make_interval(secs => 30 + (g * 37) % 7200) END,
            CASE WHEN x.status IN ('RESOLVED', 'CLOSED') THEN x.last END,
            CASE WHEN ${pick('z', 50)} = 0 THEN now() + interval '1 day' END, x.created, x.last
       FROM generate_series(1, $2::int) AS g,
            LATERAL (SELECT now() - make_interval(secs => (g::float8 / $2) * 365 * 86400) AS created) AS c,
            LATERAL (SELECT c.created,
                            least(now(), c.created + make_interval(secs => (g * 7919) % 172800)) AS last,
                            1 + ${pick('m', 6)} AS messages,
                            CASE WHEN ${pick('u', 5)} = 0 THEN NULL ELSE ($3::bigint[])[1 + ${pick('a', AGENTS)}] END AS assignee,
                            (ARRAY['CHAT','CHAT','CHAT','CHAT','CHAT','CHAT','CHAT','CHAT','CHAT','EMAIL','EMAIL','EMAIL','EMAIL','EMAIL','EMAIL','EMAIL','FORM','FORM','SMS','WHATSAPP'])[1 + ${pick('c', 20)}] AS channel,
                            (ARRAY['OPEN','OPEN','OPEN','OPEN','OPEN','PENDING','PENDING','ESCALATED','RESOLVED','RESOLVED','RESOLVED','RESOLVED','RESOLVED','RESOLVED','RESOLVED','RESOLVED','CLOSED','CLOSED','CLOSED','CLOSED'])[1 + ${pick('s', 20)}] AS status) AS x`,
    [teamId, SEEDED_CONVERSATIONS, agentIds],
  );
  // messages: the thread of each conversation (the inbox reads none of them; they are what a real table holds)
  await pool.query(
    `INSERT INTO "ConversationMessage" ("simplyId", "teamId", "conversationId", channel, "authorType", "authorCredentialKind", content, "createdAt")
     SELECT 'cvm-' || upper(substr(md5(c.id || '-' || k), 1, 4)) || '-' || upper(substr(md5(c.id || '-' || k), 5, 4)) || '-' || upper(substr(md5(c.id || '-' || k), 9, 4)),
            c."teamId", c.id, c.channel, CASE WHEN k % 2 = 1 THEN 'END_USER' ELSE 'AGENT' END, 'SYSTEM', 'Message ' || k || ' of conversation ' || c.id,
            c."createdAt" + (c."lastMessageAt" - c."createdAt") * (k::float8 / c."messageCount")
       FROM "Conversation" c, generate_series(1, c."messageCount") AS k WHERE c."teamId" = $1`,
    [teamId],
  );
  // the signed-in agent has read half of what they can see
  await pool.query(
    `INSERT INTO "ConversationReadMarker" ("teamId", "conversationId", "userId", "readThroughAt", "updatedAt")
     SELECT c."teamId", c.id, $2, c."lastMessageAt", now() FROM "Conversation" c
      WHERE c."teamId" = $1 AND (c."assignedUserId" IS NULL OR c."assignedUserId" = $2) AND c.id % 2 = 0`,
    [teamId, agentIds[0]],
  );
  await seedRollups(pool, teamId);
  await pool.query('VACUUM ANALYZE "Conversation", "ConversationMessage", "ConversationReadMarker", "ConversationAnalyticsState", "ConversationAnalyticsDay", "ConversationAnalyticsBucket"');
  section.progress(`conversations inbox bed: seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  const login = await request('POST', '/v1/auth/login', '', { email: agentEmail, password });
  if (login.status !== 200) throw new Error(`agent login: ${login.status} ${JSON.stringify(login.body).slice(0, 300)}`);
  const adminLogin = await request('POST', '/v1/auth/login', '', { email: team.email, password: team.password });
  if (adminLogin.status !== 200) throw new Error(`admin login: ${adminLogin.status}`);
  return {
    team,
    teamId,
    agentToken: login.body.data.accessToken,
    agentSimplyId,
    adminToken: adminLogin.body.data.accessToken,
    pool,
    get: (token, path) => request('GET', path, token),
  };
}

/**
 * The analytics rollups of the seeded conversations, as analytics-track.ts would have kept them
 * (UTC days: the team has no default SLA policy): the state rows, the day rows (created by status
 * now, assignments, first responses, resolutions, SLA outcomes: 85 % met) and the histograms.
 */
async function seedRollups(pool: pg.Pool, teamId: string): Promise<void> {
  const bucket = (seconds: string) => `CASE WHEN ${seconds} < 1 THEN 0 ELSE least(209, 1 + floor(log(2, (${seconds})::numeric) * 8))::int END`;
  await pool.query(
    `INSERT INTO "ConversationAnalyticsState" ("teamId", "conversationId", "createdDay", channel, "agentUserId", status, "firstResponseAt", "resolvedAt", "resolvedDay",
       "resolvedAgentUserId", "resolutionBucket", "slaFirstResponse", "slaResolution", "slaResolutionDay", "slaResolutionAgentUserId")
     SELECT c."teamId", c.id, (c."createdAt" AT TIME ZONE 'UTC')::date, c.channel, coalesce(c."assignedUserId", 0), c.status, c."firstResponseAt", c."resolvedAt",
            (c."resolvedAt" AT TIME ZONE 'UTC')::date, CASE WHEN c."resolvedAt" IS NOT NULL THEN coalesce(c."assignedUserId", 0) END,
            CASE WHEN c."resolvedAt" IS NOT NULL THEN ${bucket(`extract(epoch FROM c."resolvedAt" - c."createdAt")`)} END,
            CASE WHEN c."firstResponseAt" IS NOT NULL THEN CASE WHEN c.id % 7 = 0 THEN 'BREACHED' ELSE 'MET' END END,
            CASE WHEN c."resolvedAt" IS NOT NULL THEN CASE WHEN c.id % 6 = 0 THEN 'BREACHED' ELSE 'MET' END END,
            (c."resolvedAt" AT TIME ZONE 'UTC')::date, CASE WHEN c."resolvedAt" IS NOT NULL THEN coalesce(c."assignedUserId", 0) END
       FROM "Conversation" c WHERE c."teamId" = $1`,
    [teamId],
  );
  const day = (column: string) => `(${column} AT TIME ZONE 'UTC')::date`;
  await pool.query(
    `INSERT INTO "ConversationAnalyticsDay" ("teamId", day, channel, "agentUserId", "statusOpen", "statusPending", "statusEscalated", "statusResolved", "statusClosed",
       assigned, "firstResponses", resolutions, "firstResponseMet", "firstResponseBreached", "resolutionMet", "resolutionBreached")
     SELECT $1, e.day, e.channel, e.agent, sum(e.open)::int, sum(e.pending)::int, sum(e.escalated)::int, sum(e.resolved)::int, sum(e.closed)::int,
            sum(e.assigned)::int, sum(e.fr)::int, sum(e.res)::int, sum(e.frm)::int, sum(e.frb)::int, sum(e.rm)::int, sum(e.rb)::int
       FROM (
         SELECT s."createdDay" AS day, s.channel, s."agentUserId" AS agent, (s.status = 'OPEN')::int AS open, (s.status = 'PENDING')::int AS pending,
                (s.status = 'ESCALATED')::int AS escalated, (s.status = 'RESOLVED')::int AS resolved, (s.status = 'CLOSED')::int AS closed,
                0 AS assigned, 0 AS fr, 0 AS res, 0 AS frm, 0 AS frb, 0 AS rm, 0 AS rb
           FROM "ConversationAnalyticsState" s WHERE s."teamId" = $1
         UNION ALL
         SELECT ${day('c."assignedAt"')}, c.channel, c."assignedUserId", 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0 FROM "Conversation" c WHERE c."teamId" = $1 AND c."assignedAt" IS NOT NULL
         UNION ALL
         SELECT ${day('s."firstResponseAt"')}, s.channel, s."agentUserId", 0, 0, 0, 0, 0, 0, 1, 0, (s."slaFirstResponse" = 'MET')::int, (s."slaFirstResponse" = 'BREACHED')::int, 0, 0
           FROM "ConversationAnalyticsState" s WHERE s."teamId" = $1 AND s."firstResponseAt" IS NOT NULL
         UNION ALL
         SELECT s."resolvedDay", s.channel, s."resolvedAgentUserId", 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, (s."slaResolution" = 'MET')::int, (s."slaResolution" = 'BREACHED')::int
           FROM "ConversationAnalyticsState" s WHERE s."teamId" = $1 AND s."resolvedAt" IS NOT NULL
       ) e
      GROUP BY e.day, e.channel, e.agent`,
    [teamId],
  );
  await pool.query(
    `INSERT INTO "ConversationAnalyticsBucket" ("teamId", day, channel, "agentUserId", metric, bucket, count)
     SELECT $1, e.day, e.channel, e.agent, e.metric, e.bucket, count(*)::int
       FROM (
         SELECT ${day('s."firstResponseAt"')} AS day, s.channel, s."agentUserId" AS agent, 1 AS metric,
                ${bucket(`extract(epoch FROM s."firstResponseAt" - c."createdAt")`)} AS bucket
           FROM "ConversationAnalyticsState" s JOIN "Conversation" c ON c."teamId" = s."teamId" AND c.id = s."conversationId"
          WHERE s."teamId" = $1 AND s."firstResponseAt" IS NOT NULL
         UNION ALL
         SELECT s."resolvedDay", s.channel, s."resolvedAgentUserId", 2, s."resolutionBucket" FROM "ConversationAnalyticsState" s WHERE s."teamId" = $1 AND s."resolvedAt" IS NOT NULL
       ) e
      GROUP BY 2, 3, 4, 5, 6`,
    [teamId],
  );
}
