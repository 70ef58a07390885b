// The initiate answer must not tell whether an address belongs to a constituent of the team (or
// whether the team exists): the body differs only in the verification's id and expiry time, and the
// response times of matched, unmatched and unknown-team requests agree within noise. Samples are
// interleaved (so load on the machine hits all kinds alike) and compared by their medians.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTeam, type TeamFixture } from '../support/fixtures.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { INITIATE_MIN_DURATION_MS } from '../../src/modules/constituent-auth/limits.ts';
import { caller, createContacts, mailOf } from './constituent-fixtures.ts';

let server: TestServer;
let team: TeamFixture;
let email: string;
const { call } = caller(() => server);

beforeAll(async () => {
  server = await startTestServer({ env: { TRUST_PROXY: true } });
  team = await createTeam(server);
  const contacts = await createContacts(server, team);
  email = `timing-${Date.now()}@constituent.test`;
  const created = await call('POST', '/v1/data-records', { token: team.apiKey, body: { dataCollectionSimplyId: contacts.id, fields: { [contacts.fields.email!]: email } } });
  expect(created.status).toBe(201);
});
afterAll(async () => {
  await server?.close();
});

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

type Kind = 'matched' | 'unmatched' | 'unknownTeam';

describe('decoy indistinguishability', () => {
  it('matched, unmatched and unknown-team initiates answer the same body and take the same time', async () => {
    const bodyOf: Record<Kind, unknown> = {
      matched: { teamSimplyId: team.teamSimplyId, contactValue: email, method: 'CODE' },
      unmatched: { teamSimplyId: team.teamSimplyId, contactValue: `nobody-${Date.now()}@constituent.test`, method: 'CODE' },
      unknownTeam: { teamSimplyId: 'tm-ZZZZ-ZZZZ-ZZZZ', contactValue: email, method: 'CODE' },
    };
    const kinds = Object.keys(bodyOf) as Kind[];
    const times: Record<Kind, number[]> = { matched: [], unmatched: [], unknownTeam: [] };
    const shapes = new Set<string>();
    const ids: Record<Kind, string[]> = { matched: [], unmatched: [], unknownTeam: [] };
    // warm up the connection and the team's schema, so the first samples measure the same path
    for (const kind of kinds) await call('POST', '/v1/constituent-auth/initiate', { body: bodyOf[kind] });
    const ROUNDS = 20;
    for (let round = 0; round < ROUNDS; round++) {
      // a different order each round: neither kind always follows the other
      const order = [...kinds].sort(() => Math.random() - 0.5);
      for (const kind of order) {
        const started = performance.now();
        const answer = await call('POST', '/v1/constituent-auth/initiate', { body: bodyOf[kind] });
        times[kind].push(performance.now() - started);
        expect(answer.status).toBe(200);
        ids[kind].push(answer.body.data.verificationSimplyId);
        // everything but the ids (verification, request) and the time: header names, envelope keys, expiry distance in minutes
        shapes.add(
          JSON.stringify({
            status: answer.status,
            contentType: answer.headers.get('content-type'),
            headers: [...answer.headers.keys()].filter((h) => !['date', 'x-request-id', 'content-length'].includes(h)).sort(),
            body: { ...answer.body, meta: { requestId: typeof answer.body.meta?.requestId }, data: { verificationSimplyId: answer.body.data.verificationSimplyId.replace(/[2-9A-Z]{4}/g, 'XXXX'), expiresAt: Math.round((Date.parse(answer.body.data.expiresAt) - Date.now()) / 60_000) } },
          }),
        );
      }
    }
    expect([...shapes]).toHaveLength(1);
    // the matched ones really were sent, the others not (the comparison compares a real send with decoys)
    expect(await mailOf(server, ids.matched[0]!)).not.toBeNull();
    expect(await mailOf(server, ids.unmatched[0]!)).toBeNull();

    const medians = Object.fromEntries(kinds.map((k) => [k, median(times[k])])) as Record<Kind, number>;
    for (const kind of kinds) expect(medians[kind]).toBeGreaterThanOrEqual(INITIATE_MIN_DURATION_MS);
    // noise allowance: 15% of the floor or 30 ms, whichever is more (a shared 2-core machine)
    const tolerance = Math.max(30, 0.15 * INITIATE_MIN_DURATION_MS);
    expect(Math.abs(medians.matched - medians.unmatched), JSON.stringify(medians)).toBeLessThan(tolerance);
    expect(Math.abs(medians.matched - medians.unknownTeam), JSON.stringify(medians)).toBeLessThan(tolerance);
  }, 60_000);
});
