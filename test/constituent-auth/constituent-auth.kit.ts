// Constituent sign-in in the route-table suites (test/support/area-kit.ts): the races of its write
// routes and how its magic-link route is read.
//
// Races on constituent sign-in: the shared rate-limit counter holds under concurrency, a code signs
// in once, a refresh token rotates once (the others are reuse and end the session), and a session
// ends once. Races come from the loopback address, whose per-address limits other suites spend
// too: 429 RATE_LIMIT_EXCEEDED is an allowed answer, and the checks hold whatever mix arrives.
import { expectSame } from '../concurrency/race-checks.ts';
import { succeeded, type RaceKit, type RaceTable } from '../concurrency/race-kit.ts';
import { createContacts, pendingVerification, signedInConstituent } from './constituent-fixtures.ts';
import { INITIATE_PER_IP } from '../../src/modules/constituent-auth/limits.ts';
import type { AreaTestKit } from '../support/area-kit.ts';

const LIMITED = '429 RATE_LIMIT_EXCEEDED';

async function constituent(kit: RaceKit): Promise<{ email: string; recordId: string }> {
  const contacts = await createContacts(kit.server, kit.team);
  const email = `race-${Math.random().toString(36).slice(2, 10)}@constituent.test`;
  const record = await kit.admin('POST', '/v1/data-records', { dataCollectionSimplyId: contacts.id, fields: { [contacts.fields.email!]: email } });
  return { email, recordId: record.id };
}

const sessionsOf = async (kit: RaceKit, recordSimplyId: string) =>
  Number(
    (
      await kit.server.app.services.pool.query(
        `SELECT count(*) AS n FROM "ConstituentSession" s JOIN "DataRecord" r ON r.id = s."dataRecordId" WHERE r."teamId" = $1 AND r."simplyId" = $2`,
        [kit.team.teamId, recordSimplyId],
      )
    ).rows[0].n,
  );

const constituentAuthRaces: RaceTable = {
  'POST /v1/constituent-auth/initiate': [
    {
      what: 'N initiates from one address at once: never more than the limit succeed, each success is one verification with its mail',
      callers: ['anonymous'],
      async run(kit) {
        const { email } = await constituent(kit);
        const xs = await kit.race({ method: 'POST', path: '/v1/constituent-auth/initiate', body: { teamSimplyId: kit.team.teamSimplyId, contactValue: email, method: 'CODE' } }, {});
        kit.expectAnswers(xs, ['200', LIMITED]);
        const ok = succeeded(xs);
        if (ok.length > INITIATE_PER_IP.limit) kit.problem(`${ok.length} initiates from one address succeeded; the limit is ${INITIATE_PER_IP.limit}`, xs);
        const ids = ok.map((x) => x.response.body.data.verificationSimplyId as string);
        const { prisma } = kit.server.app.services;
        expectSame(kit, 'verifications stored', await prisma.constituentVerification.count({ where: { simplyId: { in: ids } } }), ids.length, xs);
        expectSame(kit, 'mails stored', await prisma.mailMessage.count({ where: { source: 'CONSTITUENT_AUTHENTICATION', sourceId: { in: ids } } }), ids.length, xs);
      },
    },
  ],
  'POST /v1/constituent-auth/verify': [
    {
      what: 'one right code presented N times at once: one session at most',
      callers: ['anonymous'],
      async run(kit) {
        const { email, recordId } = await constituent(kit);
        const pending = await pendingVerification(kit.server, kit.team, email);
        const xs = await kit.race({ method: 'POST', path: '/v1/constituent-auth/verify', body: pending }, {});
        kit.expectAnswers(xs, ['200', '401 UNAUTHENTICATED', LIMITED]);
        const ok = succeeded(xs).length;
        if (ok > 1) kit.problem(`${ok} sign-ins with one code`, xs);
        expectSame(kit, 'sessions opened', await sessionsOf(kit, recordId), ok, xs);
      },
    },
  ],
  'POST /v1/constituent-auth/refresh': [
    {
      what: 'one refresh token presented N times at once: one rotation at most; the others are reuse and end the session',
      callers: ['anonymous'],
      async run(kit) {
        const { email } = await constituent(kit);
        const tokens = await signedInConstituent(kit.server, kit.team, email);
        const xs = await kit.race({ method: 'POST', path: '/v1/constituent-auth/refresh', body: { refreshToken: tokens.refreshToken } }, {});
        kit.expectAnswers(xs, ['200', '401 UNAUTHENTICATED']);
        const ok = succeeded(xs);
        if (ok.length > 1) kit.problem(`${ok.length} rotations of one refresh token`, xs);
        // every loser presented a used token: the winner's pair is dead too
        for (const x of ok) {
          const me = await kit.server.request('GET', '/v1/constituent-auth/me', { token: x.response.body.data.accessToken });
          if (me.status !== 401) kit.problem(`the winner's new access token still works (${me.status}) after the used refresh token was presented again`, xs);
        }
      },
    },
  ],
  'POST /v1/constituent-auth/logout': [
    {
      what: 'one session signed out N times at once',
      callers: ['anonymous'],
      async run(kit) {
        const { email } = await constituent(kit);
        const tokens = await signedInConstituent(kit.server, kit.team, email);
        const xs = await kit.race({ method: 'POST', path: '/v1/constituent-auth/logout' }, { token: tokens.accessToken });
        kit.expectAnswers(xs, ['200', '401 UNAUTHENTICATED']);
        if (succeeded(xs).length === 0) kit.problem('no logout succeeded', xs);
        expectSame(kit, 'me after sign-out: status', (await kit.server.request('GET', '/v1/constituent-auth/me', { token: tokens.accessToken })).status, 401, xs);
        expectSame(kit, 'refresh after sign-out: status', (await kit.server.request('POST', '/v1/constituent-auth/refresh', { body: { refreshToken: tokens.refreshToken } })).status, 401, xs);
      },
    },
  ],
};

export const kit: AreaTestKit = {
  teamless: true,
  races: constituentAuthRaces,
  readQueries: {
    // the magic link: no link of the team exists, so this is a 401 for every reader
    'GET /v1/constituent-auth/verify': () => 'token=svc_cml_tenancy-probe',
  },
};
