// Space bookings in the route-table suites (test/support/area-kit.ts): a mapped connection, a
// channel with a public link and a booking in the route world, and the races of every write route.
// The source-connection routes take only the spaces app's OAuth token, so the races send that
// token (the suites' API key and user are refused before any id is looked at); the public routes
// take the link's token in X-SVC-Public-Token.
import { expectSame } from '../concurrency/race-checks.ts';
import { succeeded, type RaceCase, type RaceKit, type RaceTable } from '../concurrency/race-kit.ts';
import { PERSON_ONLY } from '../concurrency/race-person.ts';
import type { AreaTestKit } from '../support/area-kit.ts';
import { at, channelBody, monday, spacesBed, type SpacesBed } from './space-bookings-fixtures.ts';

const CONNECTIONS = '/v1/svc-spaces/source-connections';
const CONNECTION = `${CONNECTIONS}/{sourceConnectionSimplyId}`;
const LINK = '/v1/svc-spaces/booking-links/{bookingLinkSimplyId}';
const day = monday(3);

const range = (bed: Pick<SpacesBed, 'channel' | 'roomIds'>, from: string, to: string) => ({ bookingChannelSimplyId: bed.channel, startsAt: at(day, from), endsAt: at(day, to), spaceRecordSimplyIds: [bed.roomIds[0]] });

/** N requests at once as the spaces app */
function race(kit: RaceKit, bed: SpacesBed, method: string, path: string, body: unknown) {
  return kit.race({ method, path, body }, { token: bed.spacesToken });
}

/** N identical reads through a POST route: every answer 200 and the same */
function sameReads(what: string, path: (bed: SpacesBed) => string, body: (bed: SpacesBed) => unknown, pick: (data: any) => unknown, publicLink = false): RaceCase[] {
  return [
    {
      what,
      callers: PERSON_ONLY,
      async run(kit) {
        const bed = await spacesBed(kit.server, kit.team);
        const xs = publicLink
          ? await Promise.all(Array.from({ length: 8 }, async () => ({ sent: { method: 'POST', path: path(bed), body: body(bed) }, response: await kit.server.request('POST', path(bed), { body: body(bed), headers: { 'X-SVC-Public-Token': bed.link.publicAccessToken } }) })))
          : await race(kit, bed, 'POST', path(bed), body(bed));
        kit.expectAnswers(xs, ['200']);
        const answers = new Set(succeeded(xs).map((x) => JSON.stringify(pick(x.response.body.data))));
        expectSame(kit, 'distinct answers', answers.size, 1, xs);
      },
    },
  ];
}

const races: RaceTable = {
  [`POST ${CONNECTIONS}`]: [
    {
      what: 'N connections created at once',
      callers: PERSON_ONLY,
      async run(kit) {
        const bed = await spacesBed(kit.server, kit.team);
        const xs = await race(kit, bed, 'POST', CONNECTIONS, { name: 'Parallel', mapping: bed.mapping });
        kit.expectAnswers(xs, ['201']);
        const ids = new Set(succeeded(xs).map((x) => x.response.body.data.sourceConnectionSimplyId));
        expectSame(kit, 'distinct connections', ids.size, succeeded(xs).length, xs);
      },
    },
  ],
  [`PUT ${CONNECTION}/mapping`]: [
    {
      what: 'N identical mappings',
      callers: PERSON_ONLY,
      async run(kit) {
        const bed = await spacesBed(kit.server, kit.team);
        const xs = await race(kit, bed, 'PUT', `${CONNECTIONS}/${bed.connection}/mapping`, { mapping: bed.mapping });
        kit.expectAnswers(xs, ['200']);
        const read = await kit.server.request('GET', `${CONNECTIONS}/${bed.connection}`, { token: bed.spacesToken });
        expectSame(kit, 'mapping', read.body.data.mapping, bed.mapping, xs);
      },
    },
  ],
  [`POST ${CONNECTION}/booking-channels/provision`]: [
    {
      what: 'N channels provisioned at once, each link token its own',
      callers: PERSON_ONLY,
      async run(kit) {
        const bed = await spacesBed(kit.server, kit.team);
        const xs = await race(kit, bed, 'POST', `${CONNECTIONS}/${bed.connection}/booking-channels/provision`, channelBody(bed.roomIds, {}, [{ name: 'Link', audience: 'PUBLIC' }]));
        kit.expectAnswers(xs, ['201']);
        const tokens = new Set(succeeded(xs).map((x) => x.response.body.data.publicAccessTokens[0].publicAccessToken));
        expectSame(kit, 'distinct tokens', tokens.size, succeeded(xs).length, xs);
        const listed = await kit.server.request('GET', `${CONNECTIONS}/${bed.connection}/booking-channels`, { token: bed.spacesToken });
        expectSame(kit, 'channels', listed.body.data.bookingChannels.length, succeeded(xs).length + 1, xs);
      },
    },
  ],
  [`POST ${CONNECTION}/booking-availability`]: sameReads('N identical availability checks', (b) => `${CONNECTIONS}/${b.connection}/booking-availability`, (b) => range(b, '10:00', '11:00'), (d) => d.spaces),
  [`POST ${CONNECTION}/booking-quotes`]: sameReads('N identical quotes', (b) => `${CONNECTIONS}/${b.connection}/booking-quotes`, (b) => range(b, '10:00', '11:00'), (d) => [d.amountMinorUnits, d.lineItems]),
  [`POST ${CONNECTION}/booking-runs`]: [
    {
      what: 'N runs for one space and time: exactly one booking',
      callers: PERSON_ONLY,
      async run(kit) {
        const bed = await spacesBed(kit.server, kit.team);
        const xs = await race(kit, bed, 'POST', `${CONNECTIONS}/${bed.connection}/booking-runs`, { ...range(bed, '10:00', '11:00'), title: 'Race' });
        kit.expectAnswers(xs, ['201', '409 BOOKING_SPACE_UNAVAILABLE', '409 BOOKING_SLOT_CONTENTION']);
        expectSame(kit, 'bookings made', succeeded(xs).length, 1, xs);
      },
    },
  ],
  [`PATCH ${CONNECTION}/bookings/{bookingRecordSimplyId}`]: [
    {
      what: 'N approvals of one pending booking: one moves it',
      callers: PERSON_ONLY,
      async run(kit) {
        const bed = await spacesBed(kit.server, kit.team);
        const run = await kit.server.request('POST', `${CONNECTIONS}/${bed.connection}/booking-runs`, { token: bed.spacesToken, body: { ...range(bed, '12:00', '13:00'), title: 'To approve' } });
        if (run.status !== 201) throw new Error(`run: ${run.status} ${run.text}`);
        const xs = await race(kit, bed, 'PATCH', `${CONNECTIONS}/${bed.connection}/bookings/${run.body.data.bookingRecordSimplyId}`, { action: 'APPROVE', bookingChannelSimplyId: bed.channel });
        kit.expectAnswers(xs, ['200', '400 SVC_SPACES_BOOKING_REQUEST_INVALID']);
        expectSame(kit, 'approvals', succeeded(xs).length, 1, xs);
      },
    },
  ],
  [`POST ${CONNECTION}/webhook-subscriptions`]: [
    {
      what: 'N registrations at once: four subscriptions each, one secret each',
      callers: PERSON_ONLY,
      async run(kit) {
        const bed = await spacesBed(kit.server, kit.team);
        const host = kit.server.app.services.config.SVC_SPACES_WEBHOOK_HOST;
        const xs = await race(kit, bed, 'POST', `${CONNECTIONS}/${bed.connection}/webhook-subscriptions`, { targetUrl: `https://${host}/svc-spaces/webhooks/${bed.connection}` });
        kit.expectAnswers(xs, ['201']);
        const count = await kit.server.app.services.prisma.webhookSubscription.count({ where: { teamId: kit.team.teamId } });
        expectSame(kit, 'subscriptions', count, 4 * succeeded(xs).length, xs);
      },
    },
  ],
  [`POST ${LINK}/availability`]: sameReads('N identical public availability checks', (b) => `/v1/svc-spaces/booking-links/${b.link.bookingLinkSimplyId}/availability`, () => ({ startsAt: at(day, '10:00'), endsAt: at(day, '11:00') }), (d) => d.spaces, true),
  [`POST ${LINK}/slots`]: sameReads('N identical slot searches', (b) => `/v1/svc-spaces/booking-links/${b.link.bookingLinkSimplyId}/slots`, () => ({ startsAt: at(day, '08:00'), endsAt: at(day, '12:00') }), (d) => d.slots, true),
  [`POST ${LINK}/slot-grid`]: sameReads('N identical slot grids', (b) => `/v1/svc-spaces/booking-links/${b.link.bookingLinkSimplyId}/slot-grid`, (b) => ({ spaceRecordSimplyId: b.roomIds[0], fromDate: day.toString(), toDate: day.add({ days: 1 }).toString() }), (d) => d.days, true),
  [`POST ${LINK}/quote`]: sameReads('N identical public quotes', (b) => `/v1/svc-spaces/booking-links/${b.link.bookingLinkSimplyId}/quote`, (b) => ({ startsAt: at(day, '10:00'), endsAt: at(day, '11:00'), spaceRecordSimplyIds: [b.roomIds[0]] }), (d) => d.amountMinorUnits, true),
  [`POST ${LINK}/run`]: [
    {
      what: 'N anonymous runs: all refused, nothing booked',
      callers: ['anonymous'],
      async run(kit) {
        const bed = await spacesBed(kit.server, kit.team);
        const path = `/v1/svc-spaces/booking-links/${bed.link.bookingLinkSimplyId}/run`;
        const body = { startsAt: at(day, '10:00'), endsAt: at(day, '11:00'), spaceRecordSimplyIds: [bed.roomIds[0]], title: 'Anonymous', publicAccessToken: bed.link.publicAccessToken };
        const xs = await kit.race({ method: 'POST', path, body }, {});
        kit.expectAnswers(xs, ['403 BOOKING_LINK_VERIFICATION_REQUIRED']);
        const { rows } = await kit.server.app.services.pool.query(`SELECT count(*)::int AS n FROM space_bookings.claims WHERE "teamId" = $1`, [kit.team.teamId]);
        expectSame(kit, 'claims', rows[0].n, 0, xs);
      },
    },
  ],
};

export const kit: AreaTestKit = {
  races,
  idRouteBodies: {
    // the connection is looked up before the mapping is checked: another team's id is a 404 whatever the body
    [`PUT ${CONNECTION}/mapping`]: () => ({ mapping: {} }),
    [`POST ${CONNECTION}/booking-channels/provision`]: (own) => channelBody([own.spaceRecordSimplyId!]),
    [`POST ${CONNECTION}/booking-availability`]: (own) => range({ channel: own.bookingChannelSimplyId!, roomIds: [own.spaceRecordSimplyId!] }, '10:00', '11:00'),
    [`POST ${CONNECTION}/booking-quotes`]: (own) => range({ channel: own.bookingChannelSimplyId!, roomIds: [own.spaceRecordSimplyId!] }, '10:00', '11:00'),
    [`POST ${CONNECTION}/booking-runs`]: (own) => ({ ...range({ channel: own.bookingChannelSimplyId!, roomIds: [own.spaceRecordSimplyId!] }, '14:00', '15:00'), title: 'Tenancy' }),
    [`PATCH ${CONNECTION}/bookings/{bookingRecordSimplyId}`]: (own) => ({ action: 'EDIT', bookingChannelSimplyId: own.bookingChannelSimplyId, title: 'Renamed' }),
    [`POST ${CONNECTION}/webhook-subscriptions`]: (own) => ({ targetUrl: `https://spaces-hooks.localhost/svc-spaces/webhooks/${own.sourceConnectionSimplyId}` }),
    [`POST ${LINK}/availability`]: () => ({ startsAt: at(day, '10:00'), endsAt: at(day, '11:00') }),
    [`POST ${LINK}/slots`]: () => ({ startsAt: at(day, '08:00'), endsAt: at(day, '12:00') }),
    [`POST ${LINK}/slot-grid`]: (own) => ({ spaceRecordSimplyId: own.spaceRecordSimplyId, fromDate: day.toString(), toDate: day.toString() }),
    [`POST ${LINK}/quote`]: (own) => ({ startsAt: at(day, '10:00'), endsAt: at(day, '11:00'), spaceRecordSimplyIds: [own.spaceRecordSimplyId] }),
    [`POST ${LINK}/run`]: (own) => ({ startsAt: at(day, '10:00'), endsAt: at(day, '11:00'), spaceRecordSimplyIds: [own.spaceRecordSimplyId], title: 'Tenancy' }),
  },
  async world({ server, team }) {
    const bed = await spacesBed(server, team);
    const run = await server.request('POST', `${CONNECTIONS}/${bed.connection}/booking-runs`, { token: bed.spacesToken, body: { ...range(bed, '16:00', '17:00'), title: 'World booking' } });
    if (run.status !== 201) throw new Error(`route world: booking run answered ${run.status} ${run.text}`);
    return {
      ids: {
        sourceConnectionSimplyId: bed.connection,
        bookingLinkSimplyId: bed.link.bookingLinkSimplyId,
        bookingRecordSimplyId: run.body.data.bookingRecordSimplyId,
        bookingChannelSimplyId: bed.channel,
        spaceRecordSimplyId: bed.roomIds[0]!,
      },
    };
  },
};
