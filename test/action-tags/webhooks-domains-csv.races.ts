// Races on the CSV import, the resolver domains and the lifecycle webhooks of action tags, and their
// part of the route world (spread into action-tags.kit.ts):
//   - N applies of one CSV with one Idempotency-Key write it once (the others replay that answer);
//     with different bodies one applies and the others are refused (409 IDEMPOTENCY_KEY_REUSED);
//   - one row per domain name and team; the allowance holds under parallel adds; checks racing a
//     delete end in the delete;
//   - the 25-subscription limit holds under parallel creates; one delete wins.
import { randomBytes } from 'node:crypto';
import { setActionTagPlan } from '../../src/modules/action-tags/action-tag-plan.service.ts';
import { expectOneDeletion, expectSame } from '../concurrency/race-checks.ts';
import { N, succeeded, type Exchange, type RaceKit, type RaceTable } from '../concurrency/race-kit.ts';
import { fresh, ok, type BodyFor, type WorldContext, type WorldPart } from '../support/area-kit.ts';

const IMPORT = '/v1/action-tags/imports/csv';
const DOMAINS = '/v1/action-tags/domains';
const DOMAIN = `${DOMAINS}/{actionTagsDomainSimplyId}`;
const HOOKS = '/v1/action-tags/webhooks';
const HOOK = `${HOOKS}/{actionTagWebhookSimplyId}`;
const HOOK_LIMIT = 25;

const domainName = () => `race-${randomBytes(5).toString('hex')}.example`;
const subscription = { eventType: 'ACTION_TAG_CREATED', targetUrl: 'https://127.0.0.1:9/hooks/tags', retryCount: 0 };

/** Domains need a paid plan with room: the kit's team gets one. */
const paid = (kit: RaceKit, domainAllowance = 50) => setActionTagPlan(kit.server.app.services, kit.team.teamSimplyId, { preset: 'paid-500', domainAllowance }, null);

/** The CSV import's body is the file itself (text/csv) and its key a header: the race kit sends JSON, so these are sent here. */
async function raceImports(kit: RaceKit, bodies: string[], key: string): Promise<Exchange[]> {
  return Promise.all(
    bodies.map(async (csv) => {
      const sent = { method: 'POST', path: IMPORT, body: csv };
      const response = await kit.server.request('POST', IMPORT, { token: kit.caller.token, teamId: kit.caller.teamId, rawBody: csv, headers: { 'content-type': 'text/csv', 'idempotency-key': key } });
      return { sent, response };
    }),
  );
}

const tagCount = (kit: RaceKit) => kit.server.app.services.prisma.actionTag.count({ where: { teamId: kit.team.teamId } });

export const extrasRaces: RaceTable = {
  [`POST ${IMPORT}`]: [
    {
      what: 'N applies of one file with one Idempotency-Key: written once, the others replay it',
      async run(kit) {
        const csv = `name,actionUrl\r\n${fresh('Race import')},https://example.org/a\r\n${fresh('Race import')},https://example.org/b\r\n`;
        const xs = await raceImports(kit, Array.from({ length: N }, () => csv), `key-${randomBytes(6).toString('hex')}`);
        kit.expectAnswers(xs, ['200']);
        expectSame(kit, 'first applies', succeeded(xs).filter((x) => x.response.body.data.replayed === false).length, 1, xs);
        expectSame(kit, 'tags written', await tagCount(kit), 2, xs);
        expectSame(kit, 'one answer', new Set(succeeded(xs).map((x) => JSON.stringify(x.response.body.data.rows))).size, 1, xs);
      },
    },
    {
      what: 'N different files with one Idempotency-Key: one applies, the others are refused',
      async run(kit) {
        const bodies = Array.from({ length: N }, (_, i) => `name,actionUrl\r\n${fresh(`Race file ${i}`)},https://example.org/${i}\r\n`);
        const xs = await raceImports(kit, bodies, `key-${randomBytes(6).toString('hex')}`);
        kit.expectAnswers(xs, ['200', '409 IDEMPOTENCY_KEY_REUSED']);
        expectSame(kit, 'applied', succeeded(xs).length, 1, xs);
        expectSame(kit, 'tags written', await tagCount(kit), 1, xs);
      },
    },
  ],
  [`POST ${DOMAINS}`]: [
    {
      what: 'N adds of one domain: one row',
      async run(kit) {
        await paid(kit);
        const domain = domainName();
        const xs = await kit.race({ method: 'POST', path: DOMAINS, body: { domain } });
        kit.expectAnswers(xs, ['201']);
        expectSame(kit, 'successful adds', succeeded(xs).length, 1, xs);
        const rows: { domain: string }[] = await kit.admin('GET', `${DOMAINS}?limit=100`);
        expectSame(kit, 'rows of the domain', rows.filter((d) => d.domain === domain).length, 1, xs);
      },
    },
    {
      what: 'N different domains with room for 3: at most 3',
      async run(kit) {
        await paid(kit, 3);
        const xs = await kit.race(Array.from({ length: N }, () => ({ method: 'POST', path: DOMAINS, body: { domain: domainName() } })));
        kit.expectAnswers(xs, ['201', '409 ACTION_TAG_DOMAIN_LIMIT_REACHED']);
        const rows: unknown[] = await kit.admin('GET', `${DOMAINS}?limit=100`);
        expectSame(kit, 'domains', rows.length, Math.min(3, succeeded(xs).length), xs);
        if (rows.length > 3) kit.problem(`${rows.length} domains where the plan allows 3`, xs);
      },
    },
  ],
  [`POST ${DOMAIN}/verify`]: [
    {
      what: 'N checks of one domain (no DNS answer: each stays PENDING with the reason)',
      async run(kit) {
        await paid(kit);
        const d = await kit.admin('POST', DOMAINS, { domain: domainName() });
        const xs = await kit.race({ method: 'POST', path: `${DOMAINS}/${d.id}/verify` });
        kit.expectAnswers(xs, ['200']);
        for (const x of succeeded(xs)) if (x.response.body.data.status !== 'PENDING' || !x.response.body.data.lastCheckError) kit.problem('a check answered without PENDING and a reason', [x]);
      },
    },
    {
      what: 'checks racing the removal of the domain',
      async run(kit) {
        await paid(kit);
        const d = await kit.admin('POST', DOMAINS, { domain: domainName() });
        const xs = await kit.race([{ method: 'DELETE', path: `${DOMAINS}/${d.id}` }, ...Array.from({ length: N - 1 }, () => ({ method: 'POST', path: `${DOMAINS}/${d.id}/verify` }))]);
        kit.expectAnswers(xs, ['200', '404 NOT_FOUND']);
        if (xs[0]!.response.status !== 200) kit.problem('the removal did not succeed', [xs[0]!]);
        expectSame(kit, 'domain after the race', (await kit.adminResponse('GET', `${DOMAINS}/${d.id}`)).status, 404, xs);
      },
    },
  ],
  [`DELETE ${DOMAIN}`]: [
    {
      what: 'N removals of one domain',
      async run(kit) {
        await paid(kit);
        const d = await kit.admin('POST', DOMAINS, { domain: domainName() });
        const xs = await kit.race({ method: 'DELETE', path: `${DOMAINS}/${d.id}` });
        kit.expectAnswers(xs, ['200', '404 NOT_FOUND']);
        await expectOneDeletion(kit, xs, { method: 'DELETE', path: `${DOMAINS}/${d.id}` });
      },
    },
  ],
  [`POST ${HOOKS}`]: [
    {
      what: `N subscriptions created at once by a team 4 short of the ${HOOK_LIMIT} limit`,
      async run(kit) {
        for (let made = 0; made < HOOK_LIMIT - 4; made += N) {
          await Promise.all(Array.from({ length: Math.min(N, HOOK_LIMIT - 4 - made) }, () => kit.admin('POST', HOOKS, subscription)));
        }
        const xs = await kit.race({ method: 'POST', path: HOOKS, body: subscription });
        kit.expectAnswers(xs, ['201']);
        const created = succeeded(xs).length;
        if (created > 4) kit.problem(`${created} subscriptions were created where 4 places were left`, xs);
        const listed = (await kit.adminResponse('GET', `${HOOKS}?limit=100`)).body.meta.pagination.total;
        expectSame(kit, 'subscriptions', listed, HOOK_LIMIT - 4 + created, xs);
      },
    },
  ],
  [`PUT ${HOOK}`]: [
    {
      what: 'N different retry settings: one of them stays',
      async run(kit) {
        const id = (await kit.admin('POST', HOOKS, subscription)).id;
        const bodies = Array.from({ length: N }, (_, i) => ({ retryCount: i + 1, retryDelaySeconds: 10 * (i + 1) }));
        const xs = await kit.race(bodies.map((body) => ({ method: 'PUT', path: `${HOOKS}/${id}`, body })));
        kit.expectAnswers(xs, ['200']);
        const hook = await kit.admin('GET', `${HOOKS}/${id}`);
        if (!bodies.some((b) => b.retryCount === hook.retryCount && b.retryDelaySeconds === hook.retryDelaySeconds)) kit.problem(`settings mixed from several updates: ${JSON.stringify(hook)}`, xs);
      },
    },
  ],
  [`DELETE ${HOOK}`]: [
    {
      what: 'N deletes of one subscription',
      async run(kit) {
        const id = (await kit.admin('POST', HOOKS, subscription)).id;
        const xs = await kit.race({ method: 'DELETE', path: `${HOOKS}/${id}` });
        kit.expectAnswers(xs, ['200', '404 NOT_FOUND']);
        await expectOneDeletion(kit, xs, { method: 'DELETE', path: `${HOOKS}/${id}` });
      },
    },
  ],
};

export const extrasIdRouteBodies: Record<string, BodyFor> = {
  [`PUT ${HOOK}`]: () => ({ retryCount: 2 }),
};

/** A PENDING resolver domain (the world team gets a paid plan for it) and a lifecycle webhook. */
export async function extrasWorld({ server, team, call }: WorldContext): Promise<WorldPart> {
  await setActionTagPlan(server.app.services, team.teamSimplyId, { preset: 'paid-500' }, null);
  const domain = await ok(await call('POST', DOMAINS, { domain: `world-${randomBytes(5).toString('hex')}.example` }), 'add an action-tag domain');
  const hook = await ok(await call('POST', HOOKS, subscription), 'create an action-tag webhook');
  return { ids: { actionTagsDomainSimplyId: domain.id, actionTagWebhookSimplyId: hook.id } };
}
