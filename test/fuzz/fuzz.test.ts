// Every served REST route, fuzzed from its own zod schemas (inputs.ts) with a fixed seed: no 5xx,
// the documented envelope on every error, and no GET that answered before the fuzz fails after it.
// A route added to the table is fuzzed here without a new test. docs/fuzzing.md; `npm run fuzz` runs
// the same engine longer, with any seed, against a server in its own process.
import { expect, it } from 'vitest';
import { routeWorldServer } from '../support/route-world.ts';
import { useServer } from '../support/use-server.ts';
import { formatFailures, formatStatuses, httpClient, prepareFuzz, runFuzz } from './fuzz-run.ts';

const SEED = 20_261_122;
const PER_ROUTE_AND_CREDENTIAL = 16;

// the fuzz's own failed credential checks (twisted tokens) must not lock its address out
const suite = useServer({ teams: 2, ...routeWorldServer('fuzz', { RATE_LIMIT_PER_MINUTE: 1_000_000, RATE_LIMIT_ANONYMOUS_PER_MINUTE: 1_000_000 }) });

it('answers hostile requests on every route without a 5xx, with the error envelope, and without stored damage', async () => {
  const { server, teams } = suite;
  const setup = await prepareFuzz(server, teams[0], teams[1]);
  const client = httpClient(server.baseUrl, server.ca, 4);
  try {
    const report = await runFuzz(client, setup, { seed: SEED, count: PER_ROUTE_AND_CREDENTIAL, concurrency: 4, timeoutMs: 15_000 });
    console.log(`fuzz: ${formatStatuses(report)}`);
    expect(report.failures.length, formatFailures(report.failures)).toBe(0);
    // the damage check means something only when the GETs worked before
    expect(report.probes.before2xx).toBeGreaterThan(report.probes.total / 2);
  } finally {
    client.close();
  }
}, 240_000);
