// Webhooks in the route-table suites (test/support/area-kit.ts): the races of their write routes,
// the body of their replacement, and a subscription in the route world.
//
// Races on webhook subscriptions, including the 100-per-team limit under parallel creates.
import { freshWebhook, readAll } from '../concurrency/fresh-resources.ts';
import { expectOneDeletion, expectOneOf, expectSame } from '../concurrency/race-checks.ts';
import { N, succeeded, type RaceKit, type RaceTable } from '../concurrency/race-kit.ts';
import { ok, type AreaTestKit } from '../support/area-kit.ts';

const LIMIT = 100;
const subscription = { eventType: 'DATA_RECORD_UPDATED', targetUrl: 'https://127.0.0.1:9/hooks/race', retryCount: 0 };

async function subscriptions(kit: RaceKit, count: number): Promise<void> {
  for (let made = 0; made < count; made += N) {
    await Promise.all(Array.from({ length: Math.min(N, count - made) }, () => kit.admin('POST', '/v1/webhooks', subscription)));
  }
}

const webhookRaces: RaceTable = {
  'POST /v1/webhooks': [
    {
      what: 'N identical subscriptions',
      async run(kit) {
        const xs = await kit.race({ method: 'POST', path: '/v1/webhooks', body: subscription });
        kit.expectAnswers(xs, ['201']);
        expectSame(kit, 'subscriptions', (await readAll(kit, '/v1/webhooks')).length, succeeded(xs).length, xs);
      },
    },
    {
      what: `N subscriptions created at once by a team 4 short of the ${LIMIT} limit`,
      async run(kit) {
        await subscriptions(kit, LIMIT - 4);
        const xs = await kit.race({ method: 'POST', path: '/v1/webhooks', body: subscription });
        kit.expectAnswers(xs, ['201']);
        const created = succeeded(xs).length;
        if (created > 4) kit.problem(`${created} subscriptions were created where 4 places were left: the team has ${LIMIT - 4 + created}, the limit is ${LIMIT}`, xs);
        expectSame(kit, 'subscriptions', (await readAll(kit, '/v1/webhooks')).length, LIMIT - 4 + created, xs);
      },
    },
  ],
  'PUT /v1/webhooks/{webhookSimplyId}': [
    {
      what: 'N identical updates',
      async run(kit) {
        const id = await freshWebhook(kit);
        const xs = await kit.race({ method: 'PUT', path: `/v1/webhooks/${id}`, body: { retryCount: 5, isPaused: true } });
        kit.expectAnswers(xs, ['200']);
        const hook = await kit.admin('GET', `/v1/webhooks/${id}`);
        expectSame(kit, 'retryCount and isPaused', { retryCount: hook.retryCount, isPaused: hook.isPaused }, { retryCount: 5, isPaused: true }, xs);
      },
    },
    {
      what: 'N different retry settings',
      async run(kit) {
        const id = await freshWebhook(kit);
        const bodies = Array.from({ length: N }, (_, i) => ({ retryCount: i + 1, retryDelaySeconds: 10 * (i + 1) }));
        const xs = await kit.race(bodies.map((body) => ({ method: 'PUT', path: `/v1/webhooks/${id}`, body })));
        kit.expectAnswers(xs, ['200']);
        const hook = await kit.admin('GET', `/v1/webhooks/${id}`);
        expectOneOf(kit, 'retry settings', { retryCount: hook.retryCount, retryDelaySeconds: hook.retryDelaySeconds }, bodies, xs);
      },
    },
  ],
  'DELETE /v1/webhooks/{webhookSimplyId}': [
    {
      what: 'N deletes of one subscription',
      async run(kit) {
        const id = await freshWebhook(kit);
        const xs = await kit.race({ method: 'DELETE', path: `/v1/webhooks/${id}` });
        kit.expectAnswers(xs, ['200', '404 NOT_FOUND']);
        await expectOneDeletion(kit, xs, { method: 'DELETE', path: `/v1/webhooks/${id}` }, `/v1/webhooks/${id}`);
      },
    },
  ],
};

export const kit: AreaTestKit = {
  races: webhookRaces,
  idRouteBodies: {
    'PUT /v1/webhooks/{webhookSimplyId}': () => ({ retryCount: 1 }),
  },
  // its target is the loopback discard port (routeWorldServer allows loopback targets)
  async world({ call }) {
    const webhook = await ok(await call('POST', '/v1/webhooks', { eventType: 'DATA_RECORD_CREATED', targetUrl: 'https://127.0.0.1:9/hooks/in', retryCount: 0 }), 'create webhook');
    return { ids: { webhookSimplyId: webhook.id } };
  },
};
