// The usual suite: one test server, started (with a few teams) before the suite's tests and
// closed after them.
import { afterAll, beforeAll } from 'vitest';
import { createTeam, type TeamFixture } from './fixtures.ts';
import { late } from './late.ts';
import { createMigratedDatabase } from './migrated-database.ts';
import { startTestServer, type StartOptions, type TestServer } from './server.ts';

type Tuple<N extends number, T, Acc extends T[] = []> = Acc['length'] extends N ? Acc : Tuple<N, T, [...Acc, T]>;

export interface ServerSuite<N extends number> {
  server: TestServer;
  /** created in parallel, right after the server started */
  teams: Tuple<N, TeamFixture>;
}

/**
 * Registers the suite's beforeAll (start, then create `teams` teams) and afterAll (close) hooks.
 * The suite's own hooks registered after this call run after the start and before the close.
 */
export function useServer<N extends number = 0>(options: StartOptions & { teams?: N; ownDatabase?: string } = {}): ServerSuite<N> {
  const { teams: count = 0, ownDatabase, ...start } = options;
  let server: TestServer | undefined;
  let teams: TeamFixture[] = [];
  let database: Awaited<ReturnType<typeof createMigratedDatabase>> | undefined;
  beforeAll(async () => {
    // job queues are global to a database: a suite whose jobs no other file's workers may take has its own
    if (ownDatabase) database = await createMigratedDatabase(ownDatabase);
    server = await startTestServer({ ...start, ...(database ? { databaseUrl: database.url } : {}) });
    teams = await Promise.all(Array.from({ length: count }, () => createTeam(server!)));
  });
  afterAll(async () => {
    await server?.close();
    await database?.drop();
  });
  return {
    server: late('the test server', () => server),
    teams: Array.from({ length: count }, (_, i) => late(`team ${i + 1}`, () => teams[i])) as Tuple<N, TeamFixture>,
  };
}
