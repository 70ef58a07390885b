// The inbox of a team with 100,000 conversations: a page is one statement and its total one more,
// whatever the page holds (no statement per conversation), read in index order without sorting
// the team's conversations, and quick at the pages and filters agents use. Seeded with one
// INSERT … SELECT in the shape the service writes.
import { beforeAll, describe, expect, it } from 'vitest';
import { expectOk } from '../support/expect-envelope.ts';
import { countSql } from '../support/sql-counter.ts';
import { useServer } from '../support/use-server.ts';
import { call, FEATURES, memberWith, type Caller } from './conversation-fixtures.ts';

const CONVERSATIONS = 100_000;

describe('the inbox at 100,000 conversations', () => {
  const { server, teams: [team] } = useServer({ teams: 1, ownDatabase: 'conversation_inbox_scale' });
  let supervisor: Caller & { userSimplyId: string };
  let agent: Caller & { userSimplyId: string };
  let sql: ReturnType<typeof countSql>;

  beforeAll(async () => {
    // one counter per pool: it wraps the pool's connections once
    [supervisor, agent] = await Promise.all([memberWith(server, team, [FEATURES.inboxAll]), memberWith(server, team, [FEATURES.inbox])]);
    const { pool, prisma } = server.app.services;
    const agentId = (await prisma.user.findUniqueOrThrow({ where: { simplyId: agent.userSimplyId } })).id;
    await pool.query(
      `INSERT INTO "Conversation" ("simplyId", "teamId", subject, channel, status, priority, "assignedUserId", "visitorEmail", "visitorEmailKey", "searchText",
         "replyToken", "createdByKind", "messageCount", "lastMessageAt", "createdAt", "updatedAt")
       SELECT 'cnv-' || upper(substr(md5(g::text), 1, 4)) || '-' || upper(substr(md5(g::text), 5, 4)) || '-' || upper(substr(md5(g::text), 9, 4)),
              $1, 'Subject ' || g, (ARRAY['CHAT','EMAIL','FORM','SMS'])[1 + g % 4], (ARRAY['OPEN','PENDING','RESOLVED','CLOSED','ESCALATED'])[1 + g % 5],
              (ARRAY['LOW','NORMAL','HIGH','URGENT'])[1 + g % 4], CASE WHEN g % 10 = 0 THEN $2::bigint ELSE NULL END,
              'visitor' || g || '@example.org', 'visitor' || g || '@example.org', 'subject ' || g || ' visitor' || g || '@example.org',
              md5('reply' || g), 'SEED', g % 7, now() - (g || ' seconds')::interval, now() - (g || ' seconds')::interval, now()
         FROM generate_series(1, $3::int) AS g`,
      [team.teamId, agentId, CONVERSATIONS],
    );
    await pool.query('VACUUM ANALYZE "Conversation"');
    sql = countSql(pool);
  }, 180_000);

  it('answers a page in two statements, from the index, at the usual filters', async () => {
    const pages = [
      [supervisor, ''],
      [supervisor, 'offset=500'],
      [supervisor, 'status=OPEN,PENDING'],
      [supervisor, `assignedUserId=${agent.userSimplyId}`],
      [supervisor, 'assigned=unassigned&priority=URGENT'],
      [agent, ''],
      [agent, 'assigned=me&status=OPEN'],
      [agent, 'unread=true'],
      [supervisor, 'q=visitor4242%40'],
    ] as const;
    for (const [who, query] of pages) {
      await call(server, who, 'GET', `/v1/conversations/inbox?${query}`); // warm: credential, plan
      const started = performance.now();
      let response!: Awaited<ReturnType<typeof call>>;
      const statements = await sql.measure(async () => {
        response = await call(server, who, 'GET', `/v1/conversations/inbox?${query}`);
      });
      const ms = performance.now() - started;
      expect(expectOk(response).length, query).toBeGreaterThan(0);
      expect(statements.length, `${query}: ${statements.join('\n---\n')}`).toBeLessThanOrEqual(2);
      expect(ms, query).toBeLessThan(1500);
    }
    const total = (await call(server, supervisor, 'GET', '/v1/conversations/inbox?snoozed=any')).body.meta.pagination.total;
    expect(total).toBe(CONVERSATIONS);
  });

  it('reads the default page in lastMessageAt order from its index, without sorting the team', async () => {
    const { rows } = await server.app.services.pool.query(
      `EXPLAIN SELECT c.id FROM "Conversation" c
        WHERE c."teamId" = $1 AND c."mergedIntoId" IS NULL AND (c."snoozedUntil" IS NULL OR c."snoozedUntil" <= now())
        ORDER BY c."lastMessageAt" DESC, c.id DESC LIMIT 25`,
      [team.teamId],
    );
    const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
    expect(plan).toMatch(/Index Scan using "Conversation_teamId_lastMessageAt_id_idx"/);
    expect(plan).not.toMatch(/Sort|Seq Scan/);
  });

  it('summarizes a person’s inbox in one statement', async () => {
    await call(server, agent, 'GET', '/v1/conversations/inbox/unread-summary');
    const statements = await sql.measure(async () => {
      const summary = expectOk(await call(server, agent, 'GET', '/v1/conversations/inbox/unread-summary'));
      expect(summary.mine.total).toBe(CONVERSATIONS / 10);
    });
    expect(statements).toHaveLength(1);
  });
});
