// Routing and staffing's part of the conversations test kit (conversations.kit.ts spreads it in):
// the races of its write routes, the bodies of its id routes, and a rule, an SLA policy and a
// canned response in the route world.
import { expectSame, distinct } from '../concurrency/race-checks.ts';
import { N, succeeded, type RaceKit, type RaceTable } from '../concurrency/race-kit.ts';
import { fresh, ok, type BodyFor, type WorldContext, type WorldPart } from '../support/area-kit.ts';

const RULES = '/v1/conversations/assignment-rules';
const RULE = `${RULES}/{assignmentRuleSimplyId}`;
const POLICIES = '/v1/conversations/sla-policies';
const POLICY = `${POLICIES}/{slaPolicySimplyId}`;
const USE = '/v1/conversations/canned-responses/{cannedResponseSimplyId}/use';
const TARGETS = { NORMAL: { firstResponseMinutes: 60, resolutionMinutes: 480 } };

const rule = async (kit: RaceKit, body: Record<string, unknown> = {}) => (await kit.admin('POST', RULES, { name: fresh('rule'), actionType: 'AI', ...body })).id as string;
const policy = async (kit: RaceKit) => (await kit.admin('POST', POLICIES, { name: fresh('policy'), targets: TARGETS })).id as string;
const positions = async (kit: RaceKit) => ((await kit.admin('GET', RULES)) as any[]).map((r) => r.position);

export const routingRaces: RaceTable = {
  [`POST ${RULES}`]: [
    {
      what: 'N creates at position 1',
      async run(kit) {
        const xs = await kit.race(Array.from({ length: N }, (_, i) => ({ method: 'POST', path: RULES, body: { name: fresh(`rule ${i}`), actionType: 'UNASSIGNED', position: 1 } })));
        kit.expectAnswers(xs, ['201']);
        expectSame(kit, 'distinct ids', distinct(succeeded(xs).map((x) => x.response.body.data.id)), true, xs);
        expectSame(kit, 'positions 1..n', await positions(kit), succeeded(xs).map((_, i) => i + 1), xs);
      },
    },
  ],
  [`PUT ${RULES}/reorder`]: [
    {
      what: 'N different orders',
      async run(kit) {
        const ids = [await rule(kit), await rule(kit), await rule(kit)];
        const orders = Array.from({ length: N }, (_, i) => [...ids.slice(i % 3), ...ids.slice(0, i % 3)]);
        const xs = await kit.race(orders.map((o) => ({ method: 'PUT', path: `${RULES}/reorder`, body: { orderedRuleSimplyIds: o } })));
        kit.expectAnswers(xs, ['200']);
        const after = ((await kit.admin('GET', RULES)) as any[]).map((r) => r.id);
        if (!orders.some((o) => JSON.stringify(o) === JSON.stringify(after))) kit.problem(`the order ${after} is none of those sent`, xs);
        expectSame(kit, 'positions 1..n', await positions(kit), [1, 2, 3], xs);
      },
    },
  ],
  [`PUT ${RULE}`]: [
    {
      what: 'N changes of one rule',
      async run(kit) {
        const id = await rule(kit);
        const xs = await kit.race(Array.from({ length: N }, (_, i) => ({ method: 'PUT', path: `${RULES}/${id}`, body: { name: `name ${i}` } })));
        kit.expectAnswers(xs, ['200']);
        const after = await kit.admin('GET', `${RULES}/${id}`);
        if (!/^name \d$/.test(after.name)) kit.problem(`name ${after.name}`, xs);
      },
    },
  ],
  [`DELETE ${RULE}`]: [
    {
      what: 'N deletes of one of two rules',
      async run(kit) {
        const [first] = [await rule(kit), await rule(kit)];
        const xs = await kit.race({ method: 'DELETE', path: `${RULES}/${first}` });
        kit.expectAnswers(xs, ['200', '404 NOT_FOUND']);
        expectSame(kit, 'deleted once', succeeded(xs).length, 1, xs);
        expectSame(kit, 'positions closed up', await positions(kit), [1], xs);
      },
    },
  ],
  [`POST ${POLICIES}`]: [
    {
      what: 'N default policies at once',
      async run(kit) {
        const xs = await kit.race(Array.from({ length: N }, (_, i) => ({ method: 'POST', path: POLICIES, body: { name: fresh(`p${i}`), targets: TARGETS, isDefault: true } })));
        kit.expectAnswers(xs, ['201']);
        const defaults = ((await kit.admin('GET', POLICIES)) as any[]).filter((p) => p.isDefault);
        expectSame(kit, 'one default policy', defaults.length, 1, xs);
      },
    },
  ],
  [`PUT ${POLICY}`]: [
    {
      what: 'N policies made the default at once',
      async run(kit) {
        const ids = [];
        for (let i = 0; i < N; i++) ids.push(await policy(kit));
        const xs = await kit.race(ids.map((id) => ({ method: 'PUT', path: `${POLICIES}/${id}`, body: { isDefault: true } })));
        kit.expectAnswers(xs, ['200']);
        const defaults = ((await kit.admin('GET', POLICIES)) as any[]).filter((p) => p.isDefault);
        expectSame(kit, 'one default policy', defaults.length, 1, xs);
      },
    },
  ],
  [`DELETE ${POLICY}`]: [
    {
      what: 'N deletes of one policy',
      async run(kit) {
        const id = await policy(kit);
        const xs = await kit.race({ method: 'DELETE', path: `${POLICIES}/${id}` });
        kit.expectAnswers(xs, ['200', '404 NOT_FOUND']);
        expectSame(kit, 'deleted once', succeeded(xs).length, 1, xs);
      },
    },
  ],
  ['PUT /v1/conversations/presence']: [
    {
      what: 'N presence changes of one agent',
      async run(kit) {
        const statuses = ['ONLINE', 'AWAY', 'OFFLINE'];
        const bodies = Array.from({ length: N }, (_, i) => ({ userSimplyId: kit.team.userSimplyId, status: statuses[i % 3] }));
        const xs = await kit.race(bodies.map((body) => ({ method: 'PUT', path: '/v1/conversations/presence', body })));
        kit.expectAnswers(xs, ['200']);
        const rows = await kit.server.app.services.prisma.conversationAgentPresence.count({ where: { teamId: kit.team.teamId } });
        expectSame(kit, 'one presence row', rows, 1, xs);
      },
    },
  ],
  [`POST ${USE}`]: [
    {
      what: 'N uses of one canned response',
      async run(kit) {
        const template = await kit.admin('POST', '/v1/content-templates', { name: fresh('canned'), textContent: 'Hello {{record.name}}', usageTypes: ['CANNED_RESPONSE'] });
        const conversation = await kit.admin('POST', '/v1/conversations', { subject: fresh('race') });
        const path = USE.replace('{cannedResponseSimplyId}', template.contentTemplateSimplyId);
        const xs = await kit.race({ method: 'POST', path, body: { conversationSimplyId: conversation.id } });
        kit.expectAnswers(xs, ['200']);
        const counts = succeeded(xs).map((x) => x.response.body.data.useCount).sort((p: number, q: number) => p - q);
        expectSame(kit, 'use counts 1..n', counts, counts.map((_: number, i: number) => i + 1), xs);
      },
    },
  ],
};

export const routingIdRouteBodies: Record<string, BodyFor> = {
  [`PUT ${RULE}`]: () => ({ isEnabled: false }),
  [`PUT ${POLICY}`]: () => ({ warningPercent: 75 }),
  [`POST ${USE}`]: (own) => ({ conversationSimplyId: own.conversationSimplyId }),
};

export async function routingWorld({ call, name }: WorldContext): Promise<WorldPart> {
  const slaPolicySimplyId = (await ok(await call('POST', POLICIES, { name: name('SLA policy'), targets: TARGETS }), 'create an SLA policy')).id as string;
  const assignmentRuleSimplyId = (await ok(await call('POST', RULES, { name: name('Assignment rule'), actionType: 'UNASSIGNED', conditions: { channels: ['FORM'] }, slaPolicyId: slaPolicySimplyId }), 'create an assignment rule')).id as string;
  const canned = await ok(await call('POST', '/v1/content-templates', { name: name('Canned response'), textContent: name('Canned text'), usageTypes: ['CANNED_RESPONSE'] }), 'create a canned response');
  return {
    ids: { assignmentRuleSimplyId, slaPolicySimplyId, cannedResponseSimplyId: canned.contentTemplateSimplyId },
    names: ['SLA policy', 'Assignment rule', 'Canned response', 'Canned text'],
  };
}
