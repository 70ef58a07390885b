// Signing requests in the route-table suites (test/support/area-kit.ts): the races of their write
// routes, the bodies of their id routes, and a signing request on the world's record.
//
// Races on signing requests: N creates are N requests each mailing its first signer once; N resends
// leave each signer exactly one working link; N voids void once (the others are refused as on a
// finished request); a void racing a signature ends in one terminal state; the last two signatures
// arriving together complete the request exactly once; N signatures with one link sign once; a
// decline racing a signature leaves one outcome. N writes of the team's default expiry: each
// applies whole, the last one wins; creates racing a change of the default each get one of the two
// defaults, never another.
import { randomBytes } from 'node:crypto';
import { expectOneOf, expectSame } from '../concurrency/race-checks.ts';
import { freshCollection, type FreshCollection } from '../concurrency/fresh-resources.ts';
import { N, succeeded, type RaceKit, type RaceTable } from '../concurrency/race-kit.ts';
import { fresh, ok, type AreaTestKit } from '../support/area-kit.ts';

const PATH = '/v1/signing-requests';
const REFUSED = '400 VALIDATION_ERROR';
const GONE = '404 NOT_FOUND';

let counter = 0;
const address = (role: string) => `${role}-${process.pid}-${++counter}-${Math.random().toString(36).slice(2, 8)}@signers.test`;

function body(c: FreshCollection, signers: { roleKey: string; signingOrder: number }[]) {
  return {
    sourceDataCollectionSimplyId: c.id,
    sourceDataRecordSimplyId: c.recordIds[0],
    reviewFieldSimplyIds: [c.fieldIds[0]],
    signatureFieldSimplyIds: [c.fieldIds[1]],
    signers: signers.map((s) => ({ ...s, name: s.roleKey, email: address(s.roleKey) })),
    expirationDays: 3,
  };
}

/** A sent request on a fresh record: signers `a` (order 1) and `b` (order `bOrder`). */
async function freshRequest(kit: RaceKit, bOrder = 2): Promise<{ id: string; signers: { signingRequestSignerSimplyId: string; email: string }[] }> {
  const c = await freshCollection(kit, { records: 1 });
  const created = await kit.admin('POST', PATH, body(c, [{ roleKey: 'a', signingOrder: 1 }, { roleKey: 'b', signingOrder: bOrder }]));
  return { id: created.id, signers: created.signers };
}

/** The signing tokens mailed for the request to `email`, oldest first (the mails are stored rows: the race server sends none). */
async function tokensOf(kit: RaceKit, requestId: string, email: string): Promise<string[]> {
  const mails = await kit.server.app.services.prisma.mailMessage.findMany({ where: { teamId: kit.team.teamId, source: 'SIGNING', sourceId: requestId }, orderBy: { id: 'asc' } });
  return mails.filter((m) => m.toAddresses.includes(email)).flatMap((m) => [...m.textBody.matchAll(/svc_sgn_[A-Za-z0-9_-]{20,}/g)].map((x) => x[0]));
}

const sign = (token: string) => ({ method: 'POST', path: '/v1/signing/sign', body: { token, typedName: 'Racer', consentAccepted: true } });
const status = async (kit: RaceKit, id: string) => (await kit.admin('GET', `${PATH}/${id}`)).status as string;

const signingRaces: RaceTable = {
  [`POST ${PATH}`]: [
    {
      what: 'N creates on one record: N requests, each mailing its first signer once',
      async run(kit) {
        const c = await freshCollection(kit, { records: 1 });
        const xs = await kit.race(Array.from({ length: N }, () => ({ method: 'POST', path: PATH, body: body(c, [{ roleKey: 'a', signingOrder: 1 }, { roleKey: 'b', signingOrder: 2 }]) })));
        kit.expectAnswers(xs, ['201']);
        const ids = succeeded(xs).map((x) => x.response.body.data.id as string);
        const mails = await kit.server.app.services.prisma.mailMessage.count({ where: { teamId: kit.team.teamId, source: 'SIGNING', sourceId: { in: ids } } });
        expectSame(kit, 'invitation mails', mails, ids.length, xs);
      },
    },
  ],
  [`POST ${PATH}/{signingRequestSimplyId}/resend`]: [
    {
      what: 'N resends at once: the signer holds exactly one working link, the last one mailed',
      async run(kit) {
        const { id, signers } = await freshRequest(kit);
        const xs = await kit.race({ method: 'POST', path: `${PATH}/${id}/resend`, body: {} });
        kit.expectAnswers(xs, ['200']);
        const tokens = await tokensOf(kit, id, signers[0]!.email);
        expectSame(kit, 'links mailed', tokens.length, 1 + succeeded(xs).length, xs);
        const working = [];
        for (const token of tokens) if ((await kit.server.request('GET', `/v1/signing?token=${token}`)).status === 200) working.push(token);
        expectSame(kit, 'working links', working.length, 1, xs);
      },
    },
  ],
  [`POST ${PATH}/{signingRequestSimplyId}/void`]: [
    {
      what: 'N voids at once: one voids, the others are refused as on a finished request',
      async run(kit) {
        const { id } = await freshRequest(kit);
        const xs = await kit.race({ method: 'POST', path: `${PATH}/${id}/void`, body: { reason: 'race' } });
        kit.expectAnswers(xs, ['200', REFUSED]);
        expectSame(kit, 'successful voids', succeeded(xs).length, 1, xs);
        const events = await kit.server.app.services.pool.query(`SELECT count(*)::int AS n FROM "SigningRequestEvent" e JOIN "SigningRequest" r ON r.id = e."signingRequestId" WHERE r."simplyId" = $1 AND e."eventType" = 'VOIDED'`, [id]);
        expectSame(kit, 'VOIDED events', events.rows[0].n, 1, xs);
      },
    },
    {
      what: 'a void racing the signatures: one terminal state, never completed after voided',
      async run(kit) {
        const { id, signers } = await freshRequest(kit, 1);
        const tokens = [(await tokensOf(kit, id, signers[0]!.email))[0]!, (await tokensOf(kit, id, signers[1]!.email))[0]!];
        // the signer routes are public: the team's credential racing the void is simply not needed there
        const xs = await kit.race([{ method: 'POST', path: `${PATH}/${id}/void`, body: {} }, sign(tokens[0]!), sign(tokens[1]!)]);
        kit.expectAnswers(xs.slice(0, 1), ['200', REFUSED]);
        const final = await status(kit, id);
        const voided = xs[0]!.response.status === 200;
        expectSame(kit, 'final state', final, voided ? 'voided' : 'completed', xs);
      },
    },
  ],
  'PUT /v1/signing-settings': [
    {
      what: 'N settings writes: each answers its own value, one of them stays',
      async run(kit) {
        const bodies = Array.from({ length: N }, (_, i) => ({ defaultExpirationDays: i % 3 === 0 ? null : i + 1 }));
        const xs = await kit.race(bodies.map((body) => ({ method: 'PUT', path: '/v1/signing-settings', body })));
        kit.expectAnswers(xs, ['200']);
        for (const [i, x] of xs.entries()) {
          if (x.response.status === 200 && x.response.body.data.defaultExpirationDays !== bodies[i]!.defaultExpirationDays) kit.problem('a write answered with another value than its own', [x]);
        }
        const settings = await kit.admin('GET', '/v1/signing-settings');
        expectOneOf(kit, 'the settings', { defaultExpirationDays: settings.defaultExpirationDays }, bodies, xs);
      },
    },
    {
      what: 'a change of the default racing creates without an expiry: each create expires after the old or the new default',
      async run(kit) {
        await kit.admin('PUT', '/v1/signing-settings', { defaultExpirationDays: 10 });
        const c = await freshCollection(kit, { records: 1 });
        const { expirationDays: _none, ...noExpiry } = body(c, [{ roleKey: 'a', signingOrder: 1 }]);
        const before = Date.now();
        const xs = await kit.race([{ method: 'PUT', path: '/v1/signing-settings', body: { defaultExpirationDays: 20 } }, ...Array.from({ length: N - 1 }, () => ({ method: 'POST', path: PATH, body: noExpiry }))]);
        const after = Date.now();
        kit.expectAnswers(xs.slice(0, 1), ['200']);
        kit.expectAnswers(xs.slice(1), ['201']);
        for (const x of succeeded(xs.slice(1))) {
          const days = (Date.parse(x.response.body.data.expiresAt) - before) / 86_400_000;
          const slack = (after - before) / 86_400_000 + 0.01;
          if (!((days > 10 - slack && days < 10 + slack) || (days > 20 - slack && days < 20 + slack))) kit.problem(`a create expires after ${days.toFixed(3)} days, neither the old (10) nor the new (20) default`, [x]);
        }
      },
    },
  ],
  'POST /v1/signing/sign': [
    {
      what: 'one link presented N times at once: one signature, the others refused',
      callers: ['anonymous'],
      async run(kit) {
        const { id, signers } = await freshRequest(kit);
        const [token] = await tokensOf(kit, id, signers[0]!.email);
        const xs = await kit.race(sign(token!), {});
        kit.expectAnswers(xs, ['200', REFUSED]);
        expectSame(kit, 'signatures', succeeded(xs).length, 1, xs);
        // the second signer is invited once
        expectSame(kit, "the next signer's invitations", (await tokensOf(kit, id, signers[1]!.email)).length, 1, xs);
      },
    },
    {
      what: 'the last two signatures at once: the request completes exactly once',
      callers: ['anonymous'],
      async run(kit) {
        const { id, signers } = await freshRequest(kit, 1);
        const tokens = [(await tokensOf(kit, id, signers[0]!.email))[0]!, (await tokensOf(kit, id, signers[1]!.email))[0]!];
        const xs = await kit.race([sign(tokens[0]!), sign(tokens[1]!)], {});
        kit.expectAnswers(xs, ['200']);
        expectSame(kit, 'final state', await status(kit, id), 'completed', xs);
        const events = await kit.server.app.services.pool.query(`SELECT count(*)::int AS n FROM "SigningRequestEvent" e JOIN "SigningRequest" r ON r.id = e."signingRequestId" WHERE r."simplyId" = $1 AND e."eventType" = 'COMPLETED'`, [id]);
        expectSame(kit, 'COMPLETED events', events.rows[0].n, 1, xs);
      },
    },
  ],
  'POST /v1/signing/decline': [
    {
      what: 'a decline racing a signature with the same link: one outcome',
      callers: ['anonymous'],
      async run(kit) {
        const { id, signers } = await freshRequest(kit);
        const [token] = await tokensOf(kit, id, signers[0]!.email);
        const xs = await kit.race([{ method: 'POST', path: '/v1/signing/decline', body: { token, reason: 'race' } }, sign(token!)], {});
        kit.expectAnswers(xs, ['200', REFUSED, GONE]);
        expectSame(kit, 'successes', succeeded(xs).length, 1, xs);
        expectSame(kit, 'final state', await status(kit, id), xs[0]!.response.status === 200 ? 'declined' : 'partiallySigned', xs);
      },
    },
  ],
};

export const kit: AreaTestKit = {
  races: signingRaces,
  idRouteBodies: {
    'POST /v1/signing-requests/{signingRequestSimplyId}/resend': () => ({}),
    'POST /v1/signing-requests/{signingRequestSimplyId}/void': () => ({ reason: fresh('voided') }),
  },
  // its invitation is a stored mail: the world sends none
  async world({ call, name, ids }) {
    const signingRequest = await ok(
      await call('POST', '/v1/signing-requests', {
        sourceDataCollectionSimplyId: ids.dataCollectionSimplyId,
        sourceDataRecordSimplyId: ids.dataRecordSimplyId,
        reviewFieldSimplyIds: [ids.dataFieldSimplyId],
        signers: [{ roleKey: 'signer', name: name('Signer'), email: `signer-${randomBytes(4).toString('hex')}@example.org` }],
        expirationDays: 30,
      }),
      'create signing request',
    );
    return { ids: { signingRequestSimplyId: signingRequest.id }, names: ['Signer'] };
  },
};
