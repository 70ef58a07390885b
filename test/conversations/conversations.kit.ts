// Conversations in the route-table suites (test/support/area-kit.ts): the races of their write
// routes, the bodies of their id routes, and a conversation (tied to the world's record, with a
// message and a second conversation to merge into) in the route world.
import { randomBytes } from 'node:crypto';
import { expectOneOf, expectSame, expectSuccesses, distinct } from '../concurrency/race-checks.ts';
import { N, succeeded, type RaceKit, type RaceTable } from '../concurrency/race-kit.ts';
import { PERSON_ONLY } from '../concurrency/race-person.ts';
import { fresh, ok, type AreaTestKit } from '../support/area-kit.ts';
import { widgetIdRouteBodies, widgetRaces, widgetWorld } from './widget-kit.ts';
import { routingIdRouteBodies, routingRaces, routingWorld } from './routing-kit.ts';
import { aiIdRouteBodies, aiRaces, aiWorldIds } from './ai-kit.ts';

const ONE = '/v1/conversations/{conversationSimplyId}';
const INBOX_ONE = '/v1/conversations/inbox/{conversationSimplyId}';
/** the world's second conversation: what a merge body names */
const MERGE_TARGET = 'conversations: merge target';

async function conversation(kit: RaceKit, body: Record<string, unknown> = {}): Promise<string> {
  return (await kit.admin('POST', '/v1/conversations', { subject: fresh('race'), visitorEmail: `visitor-${randomBytes(4).toString('hex')}@example.org`, ...body })).id;
}

async function read(kit: RaceKit, id: string): Promise<any> {
  return kit.admin('GET', `/v1/conversations/${id}`);
}

/** the thread as the table reads it (oldest first) */
async function thread(kit: RaceKit, id: string): Promise<any[]> {
  return kit.admin('GET', `/v1/conversations/${id}/messages?limit=100`);
}

/** N posts on one conversation: all stored, in a strict order, counted once each, the conversation's activity at the last. */
async function expectPosts(kit: RaceKit, path: string) {
  const id = await conversation(kit);
  const xs = await kit.race(Array.from({ length: N }, (_, i) => ({ method: 'POST', path: path.replace('{conversationSimplyId}', id), body: { content: `message ${i}` } })));
  kit.expectAnswers(xs, ['201']);
  const messages = await thread(kit, id);
  const after = await read(kit, id);
  expectSame(kit, 'messages stored', messages.length, succeeded(xs).length, xs);
  expectSame(kit, 'messageCount', after.messageCount, messages.length, xs);
  const times = messages.map((m) => Date.parse(m.createdAt));
  expectSame(kit, 'message times strictly increasing', times.every((t, i) => i === 0 || t > times[i - 1]!), true, xs);
  if (messages.length) expectSame(kit, 'lastMessageAt', after.lastMessageAt, messages.at(-1).createdAt, xs);
}

const conversationRaces: RaceTable = {
  'POST /v1/conversations': [
    {
      what: 'N creates',
      async run(kit) {
        const xs = await kit.race(Array.from({ length: N }, (_, i) => ({ method: 'POST', path: '/v1/conversations', body: { subject: fresh(`race ${i}`) } })));
        kit.expectAnswers(xs, ['201']);
        expectSame(kit, 'distinct ids', distinct(succeeded(xs).map((x) => x.response.body.data.id)), true, xs);
        const page = await kit.adminResponse('GET', '/v1/conversations?limit=100');
        expectSame(kit, 'conversations listed', page.body.meta.pagination.total, succeeded(xs).length, xs);
      },
    },
  ],
  [`PUT ${ONE}`]: [
    {
      what: 'N different status and priority changes',
      async run(kit) {
        const id = await conversation(kit);
        const statuses = ['OPEN', 'PENDING', 'RESOLVED', 'CLOSED', 'ESCALATED'];
        const priorities = ['LOW', 'NORMAL', 'HIGH', 'URGENT'];
        const bodies = Array.from({ length: N }, (_, i) => ({ status: statuses[i % statuses.length], priority: priorities[i % priorities.length] }));
        const xs = await kit.race(bodies.map((body) => ({ method: 'PUT', path: `/v1/conversations/${id}`, body })));
        kit.expectAnswers(xs, ['200']);
        const after = await read(kit, id);
        expectOneOf(kit, 'status and priority', { status: after.status, priority: after.priority }, bodies, xs);
        const stamped = after.resolvedAt !== null;
        if (after.status === 'RESOLVED' && !stamped) kit.problem('a RESOLVED conversation without resolvedAt', xs);
        if (['OPEN', 'PENDING', 'ESCALATED'].includes(after.status) && stamped) kit.problem(`an ${after.status} conversation with resolvedAt`, xs);
      },
    },
  ],
  [`POST ${ONE}/messages`]: [{ what: 'N posts on one conversation', run: (kit) => expectPosts(kit, `${ONE}/messages`) }],
  [`POST ${INBOX_ONE}/messages`]: [{ what: 'N inbox posts on one conversation', run: (kit) => expectPosts(kit, `${INBOX_ONE}/messages`) }],
  [`POST ${INBOX_ONE}/read`]: [
    {
      what: 'N reads racing new messages',
      callers: PERSON_ONLY,
      async run(kit) {
        const id = await conversation(kit);
        await kit.admin('POST', `/v1/conversations/${id}/messages`, { content: 'first', authorType: 'END_USER' });
        const [xs] = await Promise.all([
          kit.race({ method: 'POST', path: `/v1/conversations/inbox/${id}/read` }),
          kit.admin('POST', `/v1/conversations/${id}/messages`, { content: 'second', authorType: 'END_USER' }),
        ]);
        kit.expectAnswers(xs, ['200']);
        const counts = new Set(xs.map((x) => x.response.body?.data?.unreadCount));
        if ([...counts].some((n) => n !== 0 && n !== 1)) kit.problem(`unread counts answered ${JSON.stringify([...counts])}, expected 0 or 1`, xs);
        const markers = await kit.server.app.services.prisma.conversationReadMarker.count({ where: { teamId: kit.team.teamId } });
        expectSame(kit, 'read markers', markers, 1, xs);
      },
    },
  ],
  [`PUT ${INBOX_ONE}/takeover`]: [
    {
      what: 'N takeovers of an AI-handled conversation',
      callers: PERSON_ONLY,
      async run(kit) {
        const id = await conversation(kit);
        await kit.admin('PUT', `/v1/conversations/inbox/${id}/assign-ai`);
        const xs = await kit.race({ method: 'PUT', path: `/v1/conversations/inbox/${id}/takeover` });
        kit.expectAnswers(xs, ['200']);
        const after = await read(kit, id);
        expectSame(kit, 'after the takeovers', { assignedUserId: after.assignedUserId, aiHandling: after.aiHandling }, { assignedUserId: kit.team.userSimplyId, aiHandling: false }, xs);
      },
    },
  ],
  [`PUT ${INBOX_ONE}/assign-ai`]: [
    {
      what: 'N hand-overs to the AI',
      async run(kit) {
        const id = await conversation(kit);
        const xs = await kit.race({ method: 'PUT', path: `/v1/conversations/inbox/${id}/assign-ai` });
        kit.expectAnswers(xs, ['200']);
        expectSame(kit, 'aiHandling', (await read(kit, id)).aiHandling, true, xs);
      },
    },
  ],
  [`PUT ${INBOX_ONE}/snooze`]: [
    {
      what: 'N snoozes to different times',
      async run(kit) {
        const id = await conversation(kit);
        const bodies = Array.from({ length: N }, (_, i) => ({ until: new Date(Date.now() + (i + 1) * 3_600_000).toISOString() }));
        const xs = await kit.race(bodies.map((body) => ({ method: 'PUT', path: `/v1/conversations/inbox/${id}/snooze`, body })));
        kit.expectAnswers(xs, ['200']);
        const after = await read(kit, id);
        expectOneOf(kit, 'snoozedUntil', { until: after.snoozedUntil }, bodies.map((b) => ({ until: new Date(b.until).toISOString() })), xs);
      },
    },
  ],
  [`PUT ${INBOX_ONE}/unsnooze`]: [
    {
      what: 'N wake-ups of a snoozed conversation',
      async run(kit) {
        const id = await conversation(kit);
        await kit.admin('PUT', `/v1/conversations/inbox/${id}/snooze`, { until: new Date(Date.now() + 3_600_000).toISOString() });
        const xs = await kit.race({ method: 'PUT', path: `/v1/conversations/inbox/${id}/unsnooze` });
        kit.expectAnswers(xs, ['200']);
        expectSame(kit, 'isSnoozed', (await read(kit, id)).isSnoozed, false, xs);
      },
    },
  ],
  [`POST ${INBOX_ONE}/merge`]: [
    {
      what: 'N merges of one conversation into another',
      async run(kit) {
        const [source, target] = [await conversation(kit), await conversation(kit)];
        for (const id of [source, target]) await kit.admin('POST', `/v1/conversations/${id}/messages`, { content: `in ${id}` });
        const xs = await kit.race({ method: 'POST', path: `/v1/conversations/inbox/${source}/merge`, body: { into: target } });
        kit.expectAnswers(xs, ['200', '409 CONVERSATION_MERGED']);
        expectSuccesses(kit, xs, 1, 'a conversation is merged once');
        expectSame(kit, 'the surviving thread', (await thread(kit, target)).length, 2, xs);
        const merges = await kit.server.app.services.prisma.conversationMerge.count({ where: { teamId: kit.team.teamId } });
        expectSame(kit, 'merge records', merges, 1, xs);
      },
    },
    {
      what: 'N conversations merged into one at once',
      async run(kit) {
        const target = await conversation(kit);
        const sources = [];
        for (let i = 0; i < N; i++) sources.push(await conversation(kit));
        for (const id of sources) await kit.admin('POST', `/v1/conversations/${id}/messages`, { content: `in ${id}` });
        const xs = await kit.race(sources.map((id) => ({ method: 'POST', path: `/v1/conversations/inbox/${id}/merge`, body: { into: target } })));
        kit.expectAnswers(xs, ['200']);
        const after = await read(kit, target);
        expectSame(kit, 'messageCount of the surviving conversation', after.messageCount, succeeded(xs).length, xs);
        expectSame(kit, 'its thread', (await thread(kit, target)).length, succeeded(xs).length, xs);
      },
    },
  ],
  [`POST ${INBOX_ONE}/follow`]: [
    {
      what: 'N follows',
      callers: PERSON_ONLY,
      async run(kit) {
        const id = await conversation(kit);
        const xs = await kit.race({ method: 'POST', path: `/v1/conversations/inbox/${id}/follow` });
        kit.expectAnswers(xs, ['200']);
        expectSame(kit, 'followers', await kit.server.app.services.prisma.conversationFollower.count({ where: { teamId: kit.team.teamId } }), 1, xs);
      },
    },
  ],
  [`DELETE ${INBOX_ONE}/follow`]: [
    {
      what: 'N unfollows racing a follow',
      callers: PERSON_ONLY,
      async run(kit) {
        const id = await conversation(kit);
        const path = `/v1/conversations/inbox/${id}/follow`;
        const xs = await kit.race([{ method: 'POST', path }, ...Array.from({ length: N - 1 }, () => ({ method: 'DELETE', path }))]);
        kit.expectAnswers(xs, ['200']);
        const rows = await kit.server.app.services.prisma.conversationFollower.count({ where: { teamId: kit.team.teamId } });
        if (rows > 1) kit.problem(`${rows} follower rows for one person`, xs);
      },
    },
  ],
};

export const kit: AreaTestKit = {
  races: { ...conversationRaces, ...widgetRaces, ...routingRaces, ...aiRaces },
  readQueries: {
    // the fuller read: a daily series besides the totals
    'GET /v1/conversations/analytics': () => 'granularity=day',
  },
  idRouteBodies: {
    ...widgetIdRouteBodies,
    ...routingIdRouteBodies,
    ...aiIdRouteBodies,
    [`PUT ${ONE}`]: () => ({ priority: 'HIGH' }),
    [`POST ${ONE}/messages`]: () => ({ content: fresh('message') }),
    [`POST ${INBOX_ONE}/messages`]: () => ({ content: fresh('message') }),
    [`POST ${INBOX_ONE}/read`]: () => ({}),
    [`PUT ${INBOX_ONE}/snooze`]: () => ({ until: new Date(Date.now() + 3_600_000).toISOString() }),
    [`POST ${INBOX_ONE}/merge`]: (own) => ({ into: own[MERGE_TARGET] }),
  },
  async world(world) {
    const { call, name, ids } = world;
    const make = async (what: string, record: string | undefined) =>
      (await ok(await call('POST', '/v1/conversations', { subject: name(what), visitorName: name('Visitor'), visitorEmail: `visitor-${randomBytes(4).toString('hex')}@example.org`, ...(record ? { dataRecordSimplyId: record } : {}) }), `create ${what}`)).id as string;
    const conversationSimplyId = await make('Conversation', ids.dataRecordSimplyId);
    const message = await ok(await call('POST', `/v1/conversations/${conversationSimplyId}/messages`, { content: name('Message'), authorType: 'END_USER' }), 'post a message');
    const target = await make('Merge target', undefined);
    const widgets = await widgetWorld(world);
    const routing = await routingWorld(world);
    return { ids: { conversationSimplyId, [MERGE_TARGET]: target, ...aiWorldIds(message.id), ...widgets.ids, ...routing.ids }, names: ['Conversation', 'Visitor', 'Message', 'Merge target', ...widgets.names, ...(routing.names ?? [])] };
  },
};
