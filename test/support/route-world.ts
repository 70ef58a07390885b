// One of everything a route's path can name, built for a team through the API: the route-table
// suites (fuzz, tenant isolation, concurrency) fill every `{param}` of every served route from it,
// so a route added later is covered without a new test. Each area builds its own part, in the
// `world` of its test kit (test/<area>/<area>.kit.ts, found by test/support/area-kits.ts); the parts
// are built one after the other in module order, each seeing the ids of the areas before it. A
// route with a path parameter no area builds fails those suites naming the kit to add it to.
import { randomBytes } from 'node:crypto';
import type { Env } from '../../src/app/config.ts';
import { modules } from '../../src/main/modules.ts';
import type { RestRoute } from '../../rest-adapter/route.ts';
import type { WorldContext, WorldIds, WorldPart } from './area-kit.ts';
import { NOT_TEAM_IDS, areaKits, kitFileFor, type FoundKit } from './area-kits.ts';
import type { TeamFixture } from './fixtures.ts';
import type { StartOptions, TestServer } from './server.ts';

export { NOT_TEAM_IDS };

/** every served REST route, in module order */
export const servedRoutes: readonly RestRoute[] = modules.flatMap((m) => m.routes);

/**
 * Routes of other credential families that name nothing of a team: those of kits marked `teamless`
 * (constituent sign-in, with its own tokens) and the public routes (a signer's link, the first-party sign-in). A team credential
 * selecting another team changes nothing there.
 */
export const teamlessRoutes: ReadonlySet<RestRoute> = new Set([
  ...areaKits.filter(({ kit }) => kit.teamless).flatMap(({ area }) => modules.find((m) => m.name === area)?.routes ?? []),
  ...servedRoutes.filter((r) => r.extension?.public),
]);

/**
 * useServer options for a suite that builds worlds: its webhook targets the loopback discard port,
 * and its file is promoted by a job, so the server runs its workers, on a database of the suite's
 * own (job queues are global to a database: another file's workers, with another storage folder,
 * would take the promotion).
 */
export const routeWorldServer = (database: string, env: Partial<Env> = {}): StartOptions & { ownDatabase: string } => ({
  // mail-domain verification asks a closed loopback port: refused at once, the check answers PENDING;
  // the team assistant is on, its model a closed port too: a run started by a suite fails at once
  env: { WEBHOOK_ALLOW_LOOPBACK: true, MAIL_DOMAIN_DNS_SERVERS: '127.0.0.1:9', AI_BASE_URL: 'http://127.0.0.1:9/v1', AI_MODEL: 'route-world', AI_MAX_RETRIES: 0, ...env },
  runJobs: true,
  ownDatabase: database,
});

/** the `{name}`s of a route's path */
export const pathParams = (path: string): string[] => [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);

export interface RouteWorld {
  team: TeamFixture;
  /** path parameter name → an id of this team's resource (for NOT_TEAM_IDS: a value every team has), in module order */
  ids: Record<string, string>;
  /** names and titles given to this team's resources (a response to another team must contain none) */
  names: string[];
}

/** Builds the world for `team`; `label` goes into every name so leaks are recognisable. */
export async function buildRouteWorld(server: TestServer, team: TeamFixture, label = `w${randomBytes(3).toString('hex')}`): Promise<RouteWorld> {
  const call = (method: string, path: string, body?: unknown) => server.request(method, path, { token: team.apiKey, body });
  const name = (what: string) => `${label} ${what}`;
  const builders = areaKits.filter((k) => k.kit.world);
  const parts = new Map<FoundKit, WorldPart>();
  /** the ids of the areas built in turn so far: an area sees those before it, whenever one built alongside finishes */
  const before: WorldIds = {};
  const build = async (area: FoundKit, world: Pick<WorldContext, 'ids' | 'need'>): Promise<WorldPart> => {
    try {
      const part = await area.kit.world!({ server, team, call, name, label, ...world });
      parts.set(area, part);
      return part;
    } catch (error) {
      throw new Error(`${area.file}: ${(error as Error).message}`, { cause: error });
    }
  };

  // an area whose part waits on a background job (the media library's promotion) is built alongside the others
  const alongside = Promise.all(
    builders.filter((k) => k.kit.worldAlongside).map((area) => build(area, { ids: {}, need: () => Promise.reject(new Error('a part built alongside gets no ids of other areas')) })),
  );
  alongside.catch(() => {}); // awaited below: failing before then is not an unhandled rejection
  const builtSoFar = (): WorldIds => Object.assign({}, ...[...parts.values()].map((p) => p.ids));
  async function need(...params: string[]): Promise<WorldIds> {
    if (params.some((p) => !(p in before))) await alongside;
    const ids = builtSoFar();
    const missing = params.filter((p) => !(p in ids));
    if (missing.length) throw new Error(`route world: no area before this one, nor one built alongside, builds ${missing.map((p) => `{${p}}`).join(', ')}`);
    return Object.fromEntries(params.map((p) => [p, ids[p]!]));
  }
  for (const area of builders.filter((k) => !k.kit.worldAlongside)) Object.assign(before, (await build(area, { ids: { ...before }, need })).ids);
  await alongside;

  // the parts in module order, those built alongside too: the same world whichever finished first
  const ids: WorldIds = {};
  const names: string[] = [];
  for (const area of builders) {
    const part = parts.get(area)!;
    for (const [param, id] of Object.entries(part.ids)) {
      if (param in ids) throw new Error(`route world: ${area.file} builds {${param}}, which an area before it built too`);
      ids[param] = id;
    }
    names.push(...(part.names ?? []).map(name));
  }
  return { team, ids, names };
}

/** what a suite says of a path parameter no area's world builds */
export const noBuilder = (route: RestRoute, param: string): string =>
  `${route.method} ${route.path}: no builder for {${param}}; add it to the \`world\` of ${kitFileFor(route)}`;

/**
 * Where `ids` holds a route's parameter: `${method} ${path} {param}` when an area built it for its
 * own routes only (a parameter name two areas use for different things: {sessionSimplyId} of a
 * sign-in and of an assistant conversation), else the parameter's name.
 */
export function paramKey(ids: Readonly<Record<string, string>>, route: RestRoute, param: string): string {
  const scoped = `${route.method} ${route.path} {${param}}`;
  return scoped in ids ? scoped : param;
}

/** The route's path with every parameter taken from `ids`; throws naming a parameter the world lacks. */
export function fillPath(route: RestRoute, ids: Record<string, string>): string {
  return route.path.replace(/\{(\w+)\}/g, (_, param: string) => {
    const id = ids[paramKey(ids, route, param)];
    if (!id) throw new Error(noBuilder(route, param));
    return encodeURIComponent(id);
  });
}
