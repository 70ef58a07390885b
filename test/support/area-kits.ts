// Every area's test kit (test/support/area-kit.ts), found by its file name: `test/<area>/<area>.kit.ts`
// for a module <area> of src/main/modules.ts. The route-table suites read the areas' races, id-route
// bodies, read queries and world builders from here, so adding an area edits nothing shared. A kit
// that breaks the rules (misnamed, for no module, or holding another area's route) fails every
// suite that loads it, naming the file.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { RestRoute } from '../../rest-adapter/route.ts';
import { modules } from '../../src/main/modules.ts';
import type { RaceTable } from '../concurrency/race-kit.ts';
import type { AreaTestKit, BodyFor, QueryFor } from './area-kit.ts';

export interface FoundKit {
  /** the module's name, and the kit's folder under test/ */
  area: string;
  /** repository-relative */
  file: string;
  kit: AreaTestKit;
}

const TEST = fileURLToPath(new URL('../', import.meta.url));
const routeKey = (route: RestRoute) => `${route.method} ${route.path}`;
const areaOfRoute = new Map(modules.flatMap((m) => m.routes.map((r) => [routeKey(r), m.name] as const)));
const moduleOrder = modules.map((m) => m.name);

/** the kit file of `area` */
export const kitFile = (area: string) => `test/${area}/${area}.kit.ts`;

/** the kit file that holds what the suites need of `route`: that of the module whose routes contain it */
export function kitFileFor(route: RestRoute | string): string {
  const area = areaOfRoute.get(typeof route === 'string' ? route : routeKey(route));
  return area ? kitFile(area) : 'test/<area>/<area>.kit.ts';
}

const kitFiles = fs
  .readdirSync(TEST, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .flatMap((d) => fs.readdirSync(path.join(TEST, d.name)).filter((f) => f.endsWith('.kit.ts')).map((f) => ({ folder: d.name, name: f })));

/** in module order (the order the route world is built in) */
export const areaKits: readonly FoundKit[] = (
  await Promise.all(
    kitFiles.map(async ({ folder, name }): Promise<FoundKit> => {
      const file = `test/${folder}/${name}`;
      if (name !== `${folder}.kit.ts` || !moduleOrder.includes(folder)) {
        throw new Error(`${file}: a test kit is test/<area>/<area>.kit.ts, <area> the name of a module in src/main/modules.ts`);
      }
      const { kit } = (await import(pathToFileURL(path.join(TEST, folder, name)).href)) as { kit?: AreaTestKit };
      if (!kit || typeof kit !== 'object') throw new Error(`${file}: exports no \`kit\` (an AreaTestKit, test/support/area-kit.ts)`);
      return { area: folder, file, kit };
    }),
  )
).sort((a, b) => moduleOrder.indexOf(a.area) - moduleOrder.indexOf(b.area));

/**
 * One table of every kit's entries under `part`. An entry for a served route belongs to the kit
 * of the route's area; one for a route no module serves is left to the suite to report.
 */
function merged<T>(part: 'races' | 'idRouteBodies' | 'readQueries'): Record<string, T> {
  const table: Record<string, T> = {};
  for (const { area, file, kit } of areaKits) {
    for (const [key, entry] of Object.entries((kit[part] ?? {}) as Record<string, T>)) {
      const owner = areaOfRoute.get(key);
      if (owner && owner !== area) throw new Error(`${file}: \`${key}\` is a route of ${owner}; its ${part} belong in ${kitFile(owner)}`);
      if (key in table) throw new Error(`${file}: \`${key}\` has ${part} in ${kitOfEntry.get(key)} too`);
      table[key] = entry;
      kitOfEntry.set(key, file);
    }
  }
  return table;
}

/** `METHOD /path` → the kit file its entries came from */
export const kitOfEntry = new Map<string, string>();

/** every write route's races (test/concurrency/write-routes.test.ts) */
export const WRITE_RACES: RaceTable = merged('races');
/** a body per id route that takes one (test/tenancy) */
export const ID_ROUTE_BODIES: Record<string, BodyFor> = merged('idRouteBodies');
/** the query a GET route is read with, where the default is not enough (test/tenancy/read-queries.ts) */
export const READ_QUERIES: Record<string, QueryFor> = merged('readQueries');
/** path parameters the world fills with a value no team owns (the same for every team): never "another team's id" */
export const NOT_TEAM_IDS: ReadonlySet<string> = new Set(areaKits.flatMap(({ kit }) => kit.notTeamIds ?? []));
