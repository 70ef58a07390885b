// Tenant isolation over the whole route table: team B, through its API key and its team-admin
// user, names team A's ids in paths, bodies and queries. Each answer must be the answer for an id
// that exists nowhere (the same status, code and message), never a 2xx, and no answer to B may carry
// A's ids, secrets or names. Afterwards A reads everything of its own again: nothing changed.
// Routes are taken from the table, so a route added later is covered without a new test; one with
// a body or a required query its area's kit (test/<area>/<area>.kit.ts) does not give fails naming it.
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { NOT_TEAM_IDS, buildRouteWorld, fillPath, paramKey, pathParams, routeWorldServer, servedRoutes, teamlessRoutes, type RouteWorld } from '../support/route-world.ts';
import type { RestRoute } from '../../rest-adapter/route.ts';
import { untilBackgroundIdle } from '../support/background-idle.ts';
import { useServer } from '../support/use-server.ts';
import { ID_ROUTE_BODIES, kitFileFor } from '../support/area-kits.ts';
import { CROSS_REFERENCE_CASES } from './cross-reference-cases.ts';
import { findTraces, foreignTraces, type ForeignTraces } from './leak-scan.ts';
import { lookalikeId } from './lookalike-ids.ts';
import { readQuery } from './read-queries.ts';
import { readTeamState, stateChanges } from './team-state.ts';
import { envelopeAnswer, envelopeProblem } from '../support/envelope-problems.ts';
import { callersOf, describeExchange, distinguishable, exchange, sentText, type Caller, type Exchange, type Sent } from './tenant-answers.ts';

const routeKey = (route: RestRoute) => `${route.method} ${route.path}`;

/**
 * a credential kind the route never serves is refused before any id is looked at (the protected
 * communication history serves signed-in users only: API keys are refused whatever the record; a
 * space-bookings source connection serves its spaces app's OAuth tokens only)
 */
const REFUSED_BEFORE_LOOKUP = new Set(['IDP_REQUIRED', 'PROTECTED_HISTORY_AUTH_REQUIRED', 'SVC_SPACES_OAUTH_CLIENT_REQUIRED']);
const refusedBeforeLookup = (x: Exchange) => x.response.status === 403 && REFUSED_BEFORE_LOOKUP.has(x.response.body?.error?.code);

/** one assertion listing every failure (route, credential, request, status, body excerpt) */
function expectNoFailures(failures: string[]): void {
  expect(failures.length, `${failures.length} failures:\n\n${failures.join('\n\n')}\n`).toBe(0);
}

/** every non-empty choice of the path parameters that carry the other team's id (the rest: the caller's own) */
function foreignChoices(params: string[]): string[][] {
  const choices: string[][] = [];
  for (let mask = 1; mask < 1 << params.length; mask++) choices.push(params.filter((_, i) => mask & (1 << i)));
  return choices;
}

describe('tenant isolation over every served route', () => {
  const { server, teams } = useServer({ teams: 2, ...routeWorldServer('tenancy', { RATE_LIMIT_PER_MINUTE: 1_000_000 }) });
  const labelA = `tenantA${randomBytes(3).toString('hex')}`;
  let a: RouteWorld;
  let b: RouteWorld;
  /** B's ids, plus what only the cross-reference cases need */
  let ownOfB: Record<string, string>;
  let tracesOfA: ForeignTraces;
  let stateOfA: Map<string, string>;

  beforeAll(async () => {
    [a, b] = await Promise.all([buildRouteWorld(server, teams[0], labelA), buildRouteWorld(server, teams[1], `tenantB${randomBytes(3).toString('hex')}`)]);
    const referenceField = await server.request('POST', `/v1/data-collections/${b.ids.dataCollectionSimplyId}/fields`, {
      token: b.team.apiKey,
      body: { title: 'reference', dataType: 'SINGLE_DATA_RECORD' },
    });
    if (referenceField.status !== 201) throw new Error(`reference field: ${referenceField.status} ${referenceField.text}`);
    ownOfB = { ...b.ids, referenceFieldSimplyId: referenceField.body.data.id };
    tracesOfA = foreignTraces(a, labelA);
    // the server runs its workers (the worlds' files): what the worlds set off must be done before A's state is taken
    await untilBackgroundIdle(server);
    stateOfA = await readTeamState(server, a);
  });

  /** a 5xx, a broken envelope or one of A's traces in an answer to B */
  function answerProblems(x: Exchange): string[] {
    const envelope = envelopeProblem(envelopeAnswer(x.response));
    const problems = envelope ? [envelope] : [];
    if (x.response.status >= 500) problems.push('server error');
    const traces = findTraces(x.response.text, tracesOfA, sentText(x.sent));
    if (traces.length) problems.push(`carries team A's ${traces.join(', ')}`);
    return problems;
  }

  /**
   * Sends `request(foreign)` once with A's id(s) and once with lookalikes; the first must be
   * answered exactly as the second, which must not be a 2xx when `mustFail`.
   */
  async function compareWithLookalike(caller: Caller, label: string, foreign: string[], request: (ids: string[]) => Sent, mustFail: boolean): Promise<string[]> {
    const lookalikes = foreign.map(lookalikeId);
    // one after the other: a write that succeeds for both must not show the other's value in its answer
    const withForeign = await exchange(server, caller, request(foreign));
    const withLookalike = await exchange(server, caller, request(lookalikes));
    const failures: string[] = [];
    const report = (problem: string, x: Exchange) => failures.push(`${label}: ${problem}\n  ${describeExchange(x)}`);
    for (const p of answerProblems(withForeign)) report(p, withForeign);
    for (const p of answerProblems(withLookalike)) report(p, withLookalike);
    if (mustFail && withForeign.response.status < 300) report("team A's id was accepted (2xx)", withForeign);
    if (mustFail && withLookalike.response.status !== 404 && !refusedBeforeLookup(withLookalike)) {
      report('an id that exists nowhere is not answered 404 (does the request reach the lookup?)', withLookalike);
    }
    const seen = distinguishable(withForeign.response, foreign);
    const unseen = distinguishable(withLookalike.response, lookalikes);
    if (JSON.stringify(seen) !== JSON.stringify(unseen)) {
      report(`answered unlike an id that exists nowhere: ${JSON.stringify(seen)} vs ${JSON.stringify(unseen)}`, withForeign);
    }
    return failures;
  }

  // first, before B names any of A's ids: a role of B's may keep an id B itself gave it
  it("shows B none of A's things in any read of its own", async () => {
    const failures: string[] = [];
    await Promise.all(
      servedRoutes
        .filter((route) => route.method === 'GET')
        .flatMap((route) =>
          callersOf(b.team).map(async (caller) => {
            const query = readQuery(route, b.ids);
            if (query instanceof Error) return void failures.push(query.message);
            const x = await exchange(server, caller, { method: 'GET', path: `${fillPath(route, b.ids)}${query}` });
            for (const p of answerProblems(x)) failures.push(`${routeKey(route)}: ${p}\n  ${describeExchange(x)}`);
          }),
        ),
    );
    expectNoFailures(failures);
  });

  it("answers B naming A's ids in the path exactly as ids that exist nowhere", async () => {
    const failures: string[] = [];
    await Promise.all(
      servedRoutes
        .filter((route) => pathParams(route.path).length > 0)
        .map(async (route) => {
          const key = routeKey(route);
          const bodyFor = ID_ROUTE_BODIES[key];
          if (route.body && !bodyFor) {
            failures.push(`${key}: takes a body but has none; add a body for \`${key}\` valid for the caller's own ids to idRouteBodies in ${kitFileFor(route)}`);
            return;
          }
          const params = pathParams(route.path).filter((p) => !NOT_TEAM_IDS.has(p));
          for (const foreignParams of foreignChoices(params)) {
            for (const caller of callersOf(b.team)) {
              const request = (ids: string[]): Sent => {
                const filled = { ...b.ids, ...Object.fromEntries(foreignParams.map((p, i) => [paramKey(b.ids, route, p), ids[i]!])) };
                return { method: route.method, path: fillPath(route, filled), body: bodyFor?.(b.ids) };
              };
              const label = `${key} with A's ${foreignParams.join(' and ')}`;
              failures.push(...(await compareWithLookalike(caller, label, foreignParams.map((p) => a.ids[paramKey(a.ids, route, p)]!), request, true)));
            }
          }
        }),
    );
    expectNoFailures(failures);
  });

  it("answers B naming A's ids in bodies and queries as ids that exist nowhere", async () => {
    const failures: string[] = [];
    for (const c of CROSS_REFERENCE_CASES) {
      if (!servedRoutes.some((r) => routeKey(r) === c.route)) failures.push(`${c.route} (${c.what}): not a served route; update test/tenancy/cross-reference-cases.ts`);
    }
    // in turn: several cases write the same thing of B's (its role, its webhook, its automation)
    for (const c of CROSS_REFERENCE_CASES) {
      for (const caller of callersOf(b.team)) {
        const method = c.route.split(' ')[0]!;
        const request = ([id]: string[]): Sent => ({ method, ...c.request(ownOfB, id!) });
        failures.push(...(await compareWithLookalike(caller, `${c.route} (${c.what}, A's ${c.ref})`, [a.ids[c.ref]!], request, false)));
      }
    }
    expectNoFailures(failures);
  });

  it("refuses B's user selecting A's team on every route that names A's things", async () => {
    const failures: string[] = [];
    const intruder: Caller = { name: "B's user, A's team selected", token: b.team.userToken, teamId: a.team.teamSimplyId };
    const routes = servedRoutes.filter((r) => !teamlessRoutes.has(r) && (r.method === 'GET' || (pathParams(r.path).length > 0 && (!r.body || ID_ROUTE_BODIES[routeKey(r)]))));
    await Promise.all(
      routes.map(async (route) => {
        const query = route.method === 'GET' ? readQuery(route, a.ids) : '';
        if (query instanceof Error) return void failures.push(query.message);
        const x = await exchange(server, intruder, { method: route.method, path: `${fillPath(route, a.ids)}${query}`, body: ID_ROUTE_BODIES[routeKey(route)]?.(b.ids) });
        const problems = answerProblems(x);
        if (x.response.status !== 403 || x.response.body?.error?.code !== 'PERMISSION_DENIED') problems.push('not 403 PERMISSION_DENIED');
        for (const p of problems) failures.push(`${routeKey(route)}: ${p}\n  ${describeExchange(x)}`);
      }),
    );
    expectNoFailures(failures);
  });

  it("leaves everything of A's as it was", async () => {
    const changes = stateChanges(stateOfA, await readTeamState(server, a));
    expect(changes.length, `team A's reads changed after team B's attempts:\n${changes.join('\n')}\n`).toBe(0);
  });
});
