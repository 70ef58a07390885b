// The refusal order of every served REST route, walked from the route table (new routes inherit it):
// the credential first (401 without one, before the input is looked at), then the route's tier (403:
// credential kind, feature permission, OAuth scope), then the input (400). Every request here carries
// an input no route accepts (a NUL character in the query, and in the body where the route takes one),
// so any answer but 400 is the credential's or the tier's.
import { beforeAll, describe, expect, it } from 'vitest';
import { publicRoutes, routeKey } from '../../rest-adapter/openapi-checklist.ts';
import type { RestRoute } from '../../rest-adapter/route.ts';
import { createApiKey, createTeam, type TeamFixture } from '../support/fixtures.ts';
import { servedRoutes } from '../support/route-world.ts';
import type { RequestOptions, TestResponse } from '../support/server.ts';
import { useServer } from '../support/use-server.ts';

// many requests without a credential, from one address: not a flood
const suite = useServer({ teams: 1, env: { RATE_LIMIT_PER_MINUTE: 1_000_000, RATE_LIMIT_ANONYMOUS_PER_MINUTE: 1_000_000 } });

const isPublic = publicRoutes(servedRoutes);
const nonPublic = servedRoutes.filter((r) => !isPublic.has(r));
/** the codes of a refusal for the tier: the credential is valid but not the kind, or lacks a permission or a scope */
const TIER_CODES = ['PERMISSION_DENIED', 'IDP_REQUIRED', 'PROTECTED_HISTORY_AUTH_REQUIRED', 'CONSTITUENT_TOKEN_NOT_ALLOWED', 'CONSTITUENT_TOKEN_REQUIRED', 'SVC_SPACES_OAUTH_CLIENT_REQUIRED'];

/** the route's path with every `{param}` filled (the value is never looked up: the input is refused first) */
const pathOf = (route: RestRoute) => route.path.replace(/\{\w+\}/g, 'refusal-order-probe');

/** a request no route accepts: text PostgreSQL cannot store, in the query and (where the route takes one) the body */
function invalidRequest(route: RestRoute, credential: Pick<RequestOptions, 'token' | 'teamId'>): [string, string, RequestOptions] {
  return [route.method, `${pathOf(route)}?refusalOrder=%00`, { ...credential, ...(route.body ? { body: { refusalOrder: '\u0000' } } : {}) }];
}

interface Answer {
  route: RestRoute;
  status: number;
  code: string | undefined;
}

async function askEvery(routes: readonly RestRoute[], credential: Pick<RequestOptions, 'token' | 'teamId'>): Promise<Answer[]> {
  const answers: Answer[] = [];
  // a few at a time: the machine is shared
  for (let i = 0; i < routes.length; i += 8) {
    const batch = routes.slice(i, i + 8);
    const responses: TestResponse[] = await Promise.all(batch.map((route) => suite.server.request(...invalidRequest(route, credential))));
    responses.forEach((r, j) => answers.push({ route: batch[j]!, status: r.status, code: r.body?.error?.code }));
  }
  return answers;
}

const describeAnswers = (answers: Answer[]) => answers.map((a) => `${routeKey(a.route)} → ${a.status} ${a.code}`).join('\n');

describe('the refusal order of every served route: credential (401), tier (403), input (400)', () => {
  let team: TeamFixture;
  /** a team whose admin is also a platform operator: every tier of a team credential is open to its key or its user */
  let operatorTeam: TeamFixture;
  let limitedKey: string;
  let unscopedSession: string;

  beforeAll(async () => {
    team = suite.teams[0];
    operatorTeam = await createTeam(suite.server, { isSystemAdmin: true });
    limitedKey = (await createApiKey(suite.server, team, { name: 'refusal-order limited key', featurePermissions: [] })).key;
    const minted = await suite.server.request('POST', '/v1/session-tokens', { token: team.apiKey, body: { oauthScopes: [] } });
    expect(minted.status, minted.text).toBe(201);
    expect(minted.body.data.oauthScopes).toEqual([]);
    unscopedSession = minted.body.data.token;
  }, 60_000);

  it('the route table has public and non-public routes (the walk below means something)', () => {
    expect(nonPublic.length).toBeGreaterThan(100);
    expect(isPublic.size).toBeGreaterThan(0);
  });

  it('no credential and an invalid input: 401 UNAUTHENTICATED on every non-public route', async () => {
    const answers = await askEvery(nonPublic, {});
    const wrong = answers.filter((a) => a.status !== 401 || a.code !== 'UNAUTHENTICATED');
    expect(wrong, describeAnswers(wrong)).toEqual([]);
  }, 120_000);

  it('no credential on a public route: the input is checked (400), or the route asks for its own token (401)', async () => {
    const answers = await askEvery([...isPublic], {});
    const wrong = answers.filter((a) => !(a.status === 400 && a.code === 'VALIDATION_ERROR') && !(a.status === 401 && a.code === 'UNAUTHENTICATED'));
    expect(wrong, describeAnswers(wrong)).toEqual([]);
  }, 60_000);

  for (const [label, credential] of [
    ['an API key without feature permissions', () => ({ token: limitedKey })],
    ['a session token without OAuth scopes', () => ({ token: unscopedSession })],
  ] as const) {
    it(`${label} and an invalid input: 403 for the tier where it forbids the route, else 400; never 401`, async () => {
      const answers = await askEvery(nonPublic, credential());
      const wrong = answers.filter((a) => !(a.status === 403 && TIER_CODES.includes(a.code!)) && !(a.status === 400 && a.code === 'VALIDATION_ERROR'));
      expect(wrong, describeAnswers(wrong)).toEqual([]);
      // the tier is refused before the input: some routes refuse this credential
      expect(answers.filter((a) => a.status === 403).length, `${label}: no route refused it`).toBeGreaterThan(0);
      // a credential of the team is not refused on the routes every team credential may call
      expect(answers.filter((a) => a.status === 400).length, `${label}: every route refused it`).toBeGreaterThan(0);
    }, 120_000);
  }

  it('a credential holding the tier and an invalid input: 400 VALIDATION_ERROR on every route', async () => {
    const credentials: Pick<RequestOptions, 'token' | 'teamId'>[] = [
      { token: operatorTeam.apiKey },
      { token: operatorTeam.userToken, teamId: operatorTeam.teamSimplyId },
    ];
    const byCredential = await Promise.all(credentials.map((c) => askEvery(servedRoutes, c)));
    const anonymous = await askEvery([...isPublic], {});
    const failing = servedRoutes.filter((route, i) => {
      const answers = [...byCredential.map((a) => a[i]!), ...anonymous.filter((a) => a.route === route)];
      if (answers.some((a) => a.status === 400 && a.code === 'VALIDATION_ERROR')) return false;
      // a constituent's own routes (no constituent is signed in here: constituent-auth's suite covers their input), and
      // the spaces app's (only its OAuth client's tokens: test/space-bookings covers their input)
      return !answers.every((a) => a.code === 'CONSTITUENT_TOKEN_REQUIRED' || a.code === 'SVC_SPACES_OAUTH_CLIENT_REQUIRED' || (a.status === 401 && isPublic.has(route)));
    });
    const detail = failing.map((route) => `${routeKey(route)}: ${byCredential.map((a) => `${a[servedRoutes.indexOf(route)]!.status} ${a[servedRoutes.indexOf(route)]!.code}`).join(', ')}`);
    expect(detail, detail.join('\n')).toEqual([]);
  }, 180_000);
});

describe('GraphQL: an $any inside an $all of auth scopes', () => {
  it('answers an anonymous caller 401 UNAUTHENTICATED, not 403', async () => {
    // messageSettings: tier.teamSettings, { $all: { team, privileged, $any: { teamAdmin, feature } } }
    const { errors } = await suite.server.graphql('query { messageSettings { __typename } }', {});
    expect(errors?.[0]?.extensions?.code, JSON.stringify(errors)).toBe('UNAUTHENTICATED');
    expect(errors?.[0]?.extensions?.status).toBe(401);
  });
});
