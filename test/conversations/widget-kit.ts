// The chat widget routes' part of the conversations kit (conversations.kit.ts spreads it in): the
// races of their write routes, bodies for the id routes, and a widget in the route world.
import { expectOneDeletion, expectOneOf, expectSame, distinct } from '../concurrency/race-checks.ts';
import { N, succeeded, type RaceKit, type RaceTable } from '../concurrency/race-kit.ts';
import { fresh, ok, type BodyFor, type WorldContext } from '../support/area-kit.ts';

const WIDGETS = '/v1/conversations/widgets';
const ONE = `${WIDGETS}/{widgetSimplyId}`;

async function widget(kit: RaceKit): Promise<string> {
  return (await kit.admin('POST', WIDGETS, { name: fresh('race widget'), allowedOrigins: ['https://www.example.org'] })).id;
}

export const widgetRaces: RaceTable = {
  [`POST ${WIDGETS}`]: [
    {
      what: 'N widget creates',
      async run(kit) {
        const xs = await kit.race(Array.from({ length: N }, (_, i) => ({ method: 'POST', path: WIDGETS, body: { name: fresh(`race ${i}`) } })));
        kit.expectAnswers(xs, ['201']);
        expectSame(kit, 'distinct ids', distinct(succeeded(xs).map((x) => x.response.body.data.id)), true, xs);
        expectSame(kit, 'distinct secrets', distinct(succeeded(xs).map((x) => x.response.body.data.identitySecret)), true, xs);
        const page = await kit.adminResponse('GET', `${WIDGETS}?limit=100`);
        expectSame(kit, 'widgets listed', page.body.meta.pagination.total, succeeded(xs).length, xs);
      },
    },
  ],
  [`PUT ${ONE}`]: [
    {
      what: 'N different changes of one widget',
      async run(kit) {
        const id = await widget(kit);
        const bodies = Array.from({ length: N }, (_, i) => ({ name: `Widget ${i}`, defaultPriority: ['LOW', 'NORMAL', 'HIGH', 'URGENT'][i % 4] }));
        const xs = await kit.race(bodies.map((body) => ({ method: 'PUT', path: `${WIDGETS}/${id}`, body })));
        kit.expectAnswers(xs, ['200']);
        const after = await kit.admin('GET', `${WIDGETS}/${id}`);
        expectOneOf(kit, 'name and priority', { name: after.name, defaultPriority: after.defaultPriority }, bodies, xs);
      },
    },
  ],
  [`DELETE ${ONE}`]: [
    {
      what: 'N deletes of one widget',
      async run(kit) {
        const id = await widget(kit);
        const xs = await kit.race({ method: 'DELETE', path: `${WIDGETS}/${id}` });
        kit.expectAnswers(xs, ['200', '404 NOT_FOUND']);
        await expectOneDeletion(kit, xs, { method: 'DELETE', path: `${WIDGETS}/${id}` }, `${WIDGETS}/${id}`);
      },
    },
  ],
  [`POST ${ONE}/tokens`]: [
    {
      what: 'N tokens for one verified visitor',
      async run(kit) {
        const id = await widget(kit);
        const xs = await kit.race({ method: 'POST', path: `${WIDGETS}/${id}/tokens`, body: { identity: { visitorId: 'race-visitor', name: 'Racer' } } });
        kit.expectAnswers(xs, ['201']);
        const minted = succeeded(xs).map((x) => x.response.body.data);
        expectSame(kit, 'distinct tokens', distinct(minted.map((m) => m.token)), true, xs);
        expectSame(kit, 'one visitor', new Set(minted.map((m) => m.visitor.visitorSimplyId)).size, 1, xs);
      },
    },
  ],
  [`POST ${ONE}/simulate`]: [
    {
      what: 'N previews of one widget',
      async run(kit) {
        const id = await widget(kit);
        const xs = await kit.race({ method: 'POST', path: `${WIDGETS}/${id}/simulate`, body: { message: 'race preview' } });
        kit.expectAnswers(xs, ['201']);
        expectSame(kit, 'distinct conversations', distinct(succeeded(xs).map((x) => x.response.body.data.conversation.conversationSimplyId)), true, xs);
      },
    },
  ],
};

export const widgetIdRouteBodies: Record<string, BodyFor> = {
  [`PUT ${ONE}`]: () => ({ name: fresh('Widget') }),
  [`POST ${ONE}/tokens`]: () => ({ identity: { visitorId: 'tenancy-visitor' } }),
  [`POST ${ONE}/simulate`]: () => ({ message: fresh('preview') }),
};

/** A widget of the world's team, with one visitor conversation (the world's names in both). */
export async function widgetWorld({ call, name }: WorldContext): Promise<{ ids: Record<string, string>; names: string[] }> {
  const made = await ok(await call('POST', WIDGETS, { name: name('Widget'), allowedOrigins: ['https://www.example.org'], appearance: { greeting: name('Greeting') } }), 'create a widget');
  await ok(await call('POST', `${WIDGETS}/${made.id}/simulate`, { visitorName: name('Widget visitor'), message: name('Widget message') }), 'preview the widget');
  return { ids: { widgetSimplyId: made.id }, names: ['Widget', 'Greeting', 'Widget visitor', 'Widget message'] };
}
