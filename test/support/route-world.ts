// One of everything a route's path can name, built for a team through the API: the route-table
// suites (fuzz, tenant isolation, concurrency) fill every `{param}` of every served route from it,
// so a route added later is covered without a new test. A route with a path parameter no builder
// here knows fails those suites with a message naming it: add the builder below.
import { randomBytes } from 'node:crypto';
import { modules } from '../../src/app/modules.ts';
import type { RestRoute } from '../../rest-adapter/route.ts';
import { createWizard } from './wizard-fixtures.ts';
import { addMember, createApiKey, type TeamFixture } from './fixtures.ts';
import type { TestServer } from './server.ts';

/** every served REST route, in module order */
export const servedRoutes: readonly RestRoute[] = modules.flatMap((m) => m.routes);

/** what the suites' server needs for the world: its webhook targets the loopback discard port */
export const ROUTE_WORLD_ENV = { WEBHOOK_ALLOW_LOOPBACK: true } as const;

/** the `{name}`s of a route's path */
export const pathParams = (path: string): string[] => [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);

export interface RouteWorld {
  team: TeamFixture;
  /** path parameter name → an id of this team's resource */
  ids: Record<string, string>;
  /** names and titles given to this team's resources (a response to another team must contain none) */
  names: string[];
}

async function ok(response: { status: number; text: string; body: any }, what: string): Promise<any> {
  if (response.status >= 300) throw new Error(`route world: ${what} answered ${response.status} ${response.text}`);
  return response.body.data;
}

/** Builds the world for `team`; `label` goes into every name so leaks are recognisable. */
export async function buildRouteWorld(server: TestServer, team: TeamFixture, label = `w${randomBytes(3).toString('hex')}`): Promise<RouteWorld> {
  const token = team.apiKey;
  const call = (method: string, path: string, body?: unknown) => server.request(method, path, { token, body });
  const name = (what: string) => `${label} ${what}`;

  const collection = await ok(await call('POST', '/v1/data-collections', { name: name('Collection') }), 'create collection');
  const field = await ok(await call('POST', `/v1/data-collections/${collection.id}/fields`, { title: name('Field'), dataType: 'PLAIN_TEXT' }), 'create field');
  const record = await ok(await call('POST', '/v1/data-records', { dataCollectionSimplyId: collection.id, fields: { [field.id]: name('Record') } }), 'create record');
  const view = await ok(await call('POST', '/v1/data-views', { dataCollectionSimplyId: collection.id, name: name('View'), enumDataViewTypeId: 'LIST' }), 'create view');
  const role = await ok(await call('POST', '/v1/team-roles', { name: name('Role') }), 'create role');
  const webhook = await ok(await call('POST', '/v1/webhooks', { eventType: 'DATA_RECORD_CREATED', targetUrl: 'https://127.0.0.1:9/hooks/in', retryCount: 0 }), 'create webhook');
  const automation = await ok(
    await call('POST', '/v1/automations', {
      name: name('Automation'),
      triggerType: 'RECORD_CREATED',
      dataCollectionSimplyId: collection.id,
      isEnabled: false,
      actions: [{ actionType: 'UPDATE_FIELDS', actionConfig: { fields: { [field.id]: 'x' } } }],
    }),
    'create automation',
  );
  const session = await ok(await call('POST', '/v1/session-tokens', {}), 'mint session token');
  const apiKey = await createApiKey(server, team, { name: name('Key') });
  const member = await addMember(server, team);
  const wizard = await createWizard(server, token, { name: name('Wizard'), dataCollectionSimplyId: collection.id, steps: [{ title: name('Step') }] });
  const mail = await server.app.services.mail.enqueue({ teamId: team.teamId, to: ['world@example.test'], subject: name('Mail'), text: 'body', source: 'SYSTEM' });

  const ids: Record<string, string> = {
    dataCollectionSimplyId: collection.id,
    dataFieldSimplyId: field.id,
    dataRecordSimplyId: record.id,
    recordSimplyId: record.id,
    dataViewSimplyId: view.id,
    teamRoleSimplyId: role.id,
    webhookSimplyId: webhook.id,
    automationSimplyId: automation.id,
    automationActionSimplyId: automation.actions[0].id,
    sessionTokenId: session.id,
    apiKeySimplyId: apiKey.id,
    userSimplyId: member.userSimplyId,
    dataWizardSimplyId: wizard.dataWizardSimplyId,
    mailSimplyId: mail.simplyId,
  };
  return { team, ids, names: ['Collection', 'Field', 'Record', 'View', 'Role', 'Automation', 'Key', 'Wizard', 'Step', 'Mail'].map(name) };
}

/** The route's path with every parameter taken from `ids`; throws naming a parameter the world lacks. */
export function fillPath(route: RestRoute, ids: Record<string, string>): string {
  return route.path.replace(/\{(\w+)\}/g, (_, param: string) => {
    const id = ids[param];
    if (!id) throw new Error(`${route.method} ${route.path}: no builder for {${param}} in test/support/route-world.ts`);
    return encodeURIComponent(id);
  });
}
