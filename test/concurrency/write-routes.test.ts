// Every write route of the REST table under N parallel requests: identical ones on one row, and
// conflicting ones (one unique name, one limit, different values for one row). Every answer must
// be a 2xx or a documented refusal in the error envelope (409 for a uniqueness or state conflict or
// a write that kept colliding, 404 for a thing another request already deleted, 400 for
// validation), never a 5xx; what is left must be consistent (one row per unique name, the last
// writer's whole value, counters and ranks that add up). Each race runs in a team of its own,
// once with the team's API key and once with its team-admin user. Problems are collected over all
// routes and reported in one assertion. The races are each area's (`races` in
// test/<area>/<area>.kit.ts): a write route without them fails naming the kit to add them to.
import { beforeAll, describe, expect, it } from 'vitest';
import { createTeam, type TeamFixture } from '../support/fixtures.ts';
import { WRITE_RACES, kitFileFor, kitOfEntry } from '../support/area-kits.ts';
import { routeWorldServer, servedRoutes } from '../support/route-world.ts';
import { useServer } from '../support/use-server.ts';
import { createRaceKit, type Caller, type CallerKind, type RaceCase } from './race-kit.ts';

const BOTH: readonly CallerKind[] = ['API key', 'team-admin user'];
/** races run side by side (each of N requests): enough to overlap, few enough for two shared cores */
const RACES_AT_ONCE = 4;

async function inTurns<T>(items: readonly T[], lanes: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: lanes }, async () => {
    while (next < items.length) await work(items[next++]!);
  }));
}

describe('parallel requests on every write route', () => {
  // the file races wait for promotions: the server runs its workers, on a database of its own
  const { server, teams: [operator] } = useServer({ teams: 1, ...routeWorldServer('write_races', { RATE_LIMIT_PER_MINUTE: 1_000_000 }) });
  let systemAdmin: TeamFixture;

  beforeAll(async () => {
    systemAdmin = await createTeam(server, { isSystemAdmin: true });
  });

  function callerOf(kind: CallerKind, team: TeamFixture): Caller {
    if (kind === 'API key') return { kind, token: team.apiKey };
    if (kind === 'team-admin user') return { kind, token: team.userToken, teamId: team.teamSimplyId };
    if (kind === 'system admin') return { kind, token: systemAdmin.userToken, teamId: systemAdmin.teamSimplyId };
    return { kind };
  }

  it('answers each race with 2xx or a documented refusal and leaves a consistent state', async () => {
    const problems: string[] = [];
    const writeRoutes = servedRoutes.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`);
    for (const key of writeRoutes) if (!WRITE_RACES[key]?.length) problems.push(`${key}: a write route without races; add race cases for \`${key}\` to ${kitFileFor(key)}`);
    for (const key of Object.keys(WRITE_RACES)) if (!writeRoutes.includes(key)) problems.push(`${key}: has races (${kitOfEntry.get(key)}) but is not a served write route`);

    const runs = writeRoutes.flatMap((key) => (WRITE_RACES[key] ?? []).flatMap((race: RaceCase) => (race.callers ?? BOTH).map((kind) => ({ key, race, kind }))));
    await inTurns(runs, RACES_AT_ONCE, async ({ key, race, kind }) => {
      // a team of the race's own (its admin is the operator's user: no new password to hash)
      const team = await createTeam(server, { email: operator.email });
      const kit = createRaceKit(server, team, callerOf(kind, team), `${key} — ${race.what}`);
      try {
        await race.run(kit);
      } catch (error) {
        kit.problem(`the race could not run: ${(error as Error).message}`);
      }
      problems.push(...kit.problems);
    });
    expect(problems.length, `${problems.length} problems:\n\n${problems.join('\n\n')}\n`).toBe(0);
  }, 300_000);
});
