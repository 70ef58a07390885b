// The sign-in rate limits hold over several instances: two servers on one database share the
// counters (RateLimitCounter), so alternating between them gains nothing. Initiate 5 per 15 minutes
// per address, verify 10 per 15 minutes per address (POST and GET alike), refresh 30 per hour per
// token; beyond that 429 RATE_LIMIT_EXCEEDED with Retry-After.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTeam, type TeamFixture } from '../support/fixtures.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { deleteOldWindows } from '../../src/modules/constituent-auth/rate-limit-counters.ts';
import { caller, codeIn, createContacts, freshIp, mailOf, type Answer } from './constituent-fixtures.ts';

let a: TestServer;
let b: TestServer;
let team: TeamFixture;
let email: string;
const onA = caller(() => a);
const onB = caller(() => b);
const either = (i: number) => (i % 2 === 0 ? onA : onB);

const expectLimited = (answer: Answer, windowSeconds: number) => {
  expect(answer.status, JSON.stringify(answer.body)).toBe(429);
  expect(answer.body.error.code).toBe('RATE_LIMIT_EXCEEDED');
  const retry = Number(answer.headers.get('retry-after'));
  expect(retry).toBeGreaterThan(0);
  expect(retry).toBeLessThanOrEqual(windowSeconds);
};

beforeAll(async () => {
  a = await startTestServer({ env: { TRUST_PROXY: true } });
  // the same data folder: the same secrets key (codes are hashed under it), like replicas of one deployment
  b = await startTestServer({ env: { TRUST_PROXY: true }, dataDir: a.dataDir });
  team = await createTeam(a);
  const contacts = await createContacts(a, team);
  email = `limits-${Date.now()}@constituent.test`;
  expect((await onA.call('POST', '/v1/data-records', { token: team.apiKey, body: { dataCollectionSimplyId: contacts.id, fields: { [contacts.fields.email!]: email } } })).status).toBe(201);
});
afterAll(async () => {
  await b?.close();
  await a?.close();
});

describe('constituent-auth rate limits across two instances', () => {
  it('initiate: 5 per 15 minutes per address, whichever instance answers; other addresses are not affected', async () => {
    const ip = freshIp();
    const body = { teamSimplyId: team.teamSimplyId, contactValue: email, method: 'CODE' };
    for (let i = 0; i < 5; i++) expect((await either(i).call('POST', '/v1/constituent-auth/initiate', { ip, body })).status).toBe(200);
    expectLimited(await onB.call('POST', '/v1/constituent-auth/initiate', { ip, body }), 900);
    expectLimited(await onA.call('POST', '/v1/constituent-auth/initiate', { ip, body }), 900);
    // GraphQL counts on the same counter
    const gql = await onA.graphql('mutation($i: InitiateConstituentAuthInput!) { initiateConstituentAuth(input: $i) { verificationSimplyId } }', { i: body }, { ip });
    expect(gql.errors?.[0]?.extensions?.code).toBe('RATE_LIMIT_EXCEEDED');
    expect((await onB.call('POST', '/v1/constituent-auth/initiate', { body })).status).toBe(200);
    const { rows } = await a.app.services.pool.query(`SELECT count FROM "RateLimitCounter" WHERE bucket = $1`, [`constituent-auth:initiate:ip:${ip}`]);
    expect(rows).toEqual([{ count: 8 }]);
  });

  it('verify: 10 per 15 minutes per address over POST and GET; a right code from that address is refused too', async () => {
    const ip = freshIp();
    const v = (await onA.call('POST', '/v1/constituent-auth/initiate', { body: { teamSimplyId: team.teamSimplyId, contactValue: email, method: 'CODE' } })).body.data;
    const code = codeIn((await mailOf(a, v.verificationSimplyId))!.textBody);
    for (let i = 0; i < 10; i++) {
      const answer =
        i % 3 === 0
          ? await either(i).call('GET', '/v1/constituent-auth/verify?token=svc_cml_guess', { ip })
          : await either(i).call('POST', '/v1/constituent-auth/verify', { ip, body: { verificationSimplyId: 'cvf-ZZZZ-ZZZZ-ZZZZ', code: '123456' } });
      expect(answer.status).toBe(401);
    }
    expectLimited(await onA.call('POST', '/v1/constituent-auth/verify', { ip, body: { verificationSimplyId: v.verificationSimplyId, code } }), 900);
    expectLimited(await onB.call('GET', '/v1/constituent-auth/verify?token=svc_cml_guess', { ip }), 900);
    // from elsewhere the right code works
    expect((await onB.call('POST', '/v1/constituent-auth/verify', { body: { verificationSimplyId: v.verificationSimplyId, code } })).status).toBe(200);
  });

  it('refresh: 30 per hour per token chain, from any address and either instance', async () => {
    const v = (await onA.call('POST', '/v1/constituent-auth/initiate', { body: { teamSimplyId: team.teamSimplyId, contactValue: email, method: 'CODE' } })).body.data;
    const code = codeIn((await mailOf(a, v.verificationSimplyId))!.textBody);
    let tokens = (await onB.call('POST', '/v1/constituent-auth/verify', { body: { verificationSimplyId: v.verificationSimplyId, code } })).body.data;
    for (let i = 0; i < 30; i++) {
      const answer = await either(i).call('POST', '/v1/constituent-auth/refresh', { body: { refreshToken: tokens.refreshToken } });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      tokens = answer.body.data;
    }
    expectLimited(await onA.call('POST', '/v1/constituent-auth/refresh', { body: { refreshToken: tokens.refreshToken } }), 3600);
    // refused before anything changed: the latest pair still holds (the access token works)
    expect((await onB.call('GET', '/v1/constituent-auth/me', { token: tokens.accessToken })).status).toBe(200);
  });

  it('windows older than a day are deleted (the requests themselves do it now and then)', async () => {
    const { pool } = a.app.services;
    const bucket = `constituent-auth:initiate:ip:${freshIp()}`;
    await pool.query(`INSERT INTO "RateLimitCounter" (bucket, "windowStart", count) VALUES ($1, (now() AT TIME ZONE 'UTC') - interval '25 hours', 3), ($1, (now() AT TIME ZONE 'UTC') - interval '1 hour', 2)`, [bucket]);
    expect(await deleteOldWindows(pool)).toBeGreaterThanOrEqual(1);
    const { rows } = await pool.query(`SELECT count FROM "RateLimitCounter" WHERE bucket = $1`, [bucket]);
    expect(rows).toEqual([{ count: 2 }]);
  });
});
