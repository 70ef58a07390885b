// What an area hands the route-table suites (concurrency, tenancy, fuzz): one object, `kit`,
// exported by `test/<area>/<area>.kit.ts`, where <area> is the module's name (src/main/modules.ts).
// test/support/area-kits.ts finds every kit by its file name, so adding an area adds its kit and
// edits nothing shared. Each entry is keyed `${method} ${path}` as in the route table and belongs
// to the kit of the area whose routes hold it. The suites fail naming the kit file to add to when
// a route lacks what they need: races for a write route, a body for an id route that takes one, a
// query for a GET that cannot be read without one, a world builder for a path parameter.
import { randomBytes } from 'node:crypto';
import type { RaceTable } from '../concurrency/race-kit.ts';
import type { TeamFixture } from './fixtures.ts';
import type { TestResponse, TestServer } from './server.ts';

/** ids of the team's resources, by path parameter name */
export type WorldIds = Record<string, string>;

/** the route takes a body but works without one */
export const NO_BODY = Symbol('no body');

/**
 * A body for a route that takes an id in the path and a body: valid for the caller's own
 * resources (`own`: the caller's world), so a request naming another team's id gets past
 * validation to the lookup, and what it is answered says whether that id is visible.
 */
export type BodyFor = (own: WorldIds) => unknown;

/** The query string (without `?`) a GET route is read with; `ids` are the reading team's own. */
export type QueryFor = (ids: WorldIds) => string;

export interface WorldContext {
  server: TestServer;
  team: TeamFixture;
  /** a request as the team's API key */
  call(method: string, path: string, body?: unknown): Promise<TestResponse>;
  /** `what` with the world's label, so a leak of it is recognisable */
  name(what: string): string;
  /** the world's label (in every name) */
  label: string;
  /** the ids built by the areas before this one in module order (an area built alongside joins once done: see `need`) */
  ids: Readonly<WorldIds>;
  /** the named ids, waiting for the areas built alongside when one of those builds them; throws naming an id no area builds */
  need(...params: string[]): Promise<WorldIds>;
}

export interface WorldPart {
  /**
   * path parameter name → an id of this team's resource (for `notTeamIds`: a value every team has);
   * `${method} ${path} {param}` for a parameter whose name another area's routes use for something else
   */
  ids: WorldIds;
  /** the `what`s given to `name` for this area's resources (a response to another team must contain none of them) */
  names?: readonly string[];
}

export interface AreaTestKit {
  /** the races of each of the area's write routes (test/concurrency/write-routes.test.ts) */
  races?: RaceTable;
  /** a body for each of the area's routes that take an id in the path and a body (test/tenancy) */
  idRouteBodies?: Record<string, BodyFor>;
  /** the query a GET route is read with where the default (none, or the largest page) will not do: a query that cannot be empty, or a fuller read (test/tenancy) */
  readQueries?: Record<string, QueryFor>;
  /** builds the area's part of the route world (test/support/route-world.ts), in module order */
  world?: (world: WorldContext) => Promise<WorldPart>;
  /**
   * the world part waits on a background job: it is started first, with no ids of the other areas,
   * and built alongside theirs; an area that needs its ids asks `need` for them
   */
  worldAlongside?: boolean;
  /** path parameters the world fills with a value no team owns (the same for every team): never "another team's id" */
  notTeamIds?: readonly string[];
  /** the area's routes serve another credential family and name nothing of a team (constituent sign-in): a team credential selecting another team changes nothing there */
  teamless?: boolean;
}

/** the data of a 2xx answer; throws naming `what` otherwise (a broken world is not a test result) */
export async function ok(response: { status: number; text: string; body: any }, what: string): Promise<any> {
  if (response.status >= 300) throw new Error(`route world: ${what} answered ${response.status} ${response.text}`);
  return response.body.data;
}

/** a name not used before: a body's write is not refused as a duplicate */
export const fresh = (what: string) => `${what} ${randomBytes(3).toString('hex')}`;
