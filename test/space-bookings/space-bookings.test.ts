// Space bookings end to end over REST: the OAuth-only source-connection routes, mapping checks and
// the snapshot, provisioning with tokens shown once, each booking diagnostic from a crafted request,
// runs that are records of the mapped collection, edits and status moves, public links with their
// audiences and token sources, and cross-team ids answered 404.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTeam } from '../support/fixtures.ts';
import { readRecord } from '../support/record-fixtures.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { signedInConstituent } from '../constituent-auth/constituent-fixtures.ts';
import { at, channelBody, monday, spacesToken, spacesWorld, type SpacesWorld } from './space-bookings-fixtures.ts';

let server: TestServer;
let w: SpacesWorld;
let connection: string;
let channel: string;
let links: Record<string, { bookingLinkSimplyId: string; publicAccessToken: string }>;

const BASE = '/v1/svc-spaces/source-connections';
const as = (token: string) => ({
  get: (path: string) => server.request('GET', path, { token }),
  post: (path: string, body: unknown) => server.request('POST', path, { token, body }),
  put: (path: string, body: unknown) => server.request('PUT', path, { token, body }),
  patch: (path: string, body: unknown) => server.request('PATCH', path, { token, body }),
});
const spaces = () => as(w.spacesToken);
const ok = (response: { status: number; body: any }, status = 200) => {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  return response.body.data;
};
const refused = (response: { status: number; body: any }, status: number, code: string) => {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(response.body.error.code).toBe(code);
  return response.body.error;
};
const publicCall = (suffix: string, link: { bookingLinkSimplyId: string; publicAccessToken: string }, body: unknown, headers: Record<string, string> = { 'X-SVC-Public-Token': link.publicAccessToken }) =>
  server.request('POST', `/v1/svc-spaces/booking-links/${link.bookingLinkSimplyId}/${suffix}`, { body, headers });

const day = monday(2);
const range = (from: string, to: string, extra: Record<string, unknown> = {}) => ({ bookingChannelSimplyId: channel, startsAt: at(day, from), endsAt: at(day, to), ...extra });

beforeAll(async () => {
  server = await startTestServer();
  w = await spacesWorld(server);
  const created = ok(await spaces().post(BASE, { name: 'Rooms and bookings' }), 201);
  connection = created.sourceConnectionSimplyId;
  ok(await spaces().put(`${BASE}/${connection}/mapping`, { mapping: w.mapping }));
  const provisioned = ok(
    await spaces().post(
      `${BASE}/${connection}/booking-channels/provision`,
      channelBody(w.roomIds, {}, [
        { name: 'Public', audience: 'PUBLIC', allowAnonymousAvailability: true },
        { name: 'Members', audience: 'AUTHORIZED_CONSTITUENT' },
        { name: 'Staff', audience: 'INTERNAL_TEAM' },
        { name: 'Closed browsing', audience: 'PUBLIC', allowAnonymousAvailability: false },
        { name: 'Paid', audience: 'PUBLIC', allowAnonymousAvailability: true, paymentPolicy: 'PAY_ONLINE' },
      ]),
    ),
    201,
  );
  channel = provisioned.bookingChannel.bookingChannelSimplyId;
  const names = ['public', 'members', 'staff', 'closed', 'paid'];
  links = Object.fromEntries(provisioned.publicAccessTokens.map((t: any, i: number) => [names[i], t]));
});
afterAll(async () => {
  await server?.close();
});

describe('source connections', () => {
  it('take only OAuth tokens of a first-party svc-spaces client', async () => {
    refused(await as(w.team.apiKey).get(`${BASE}/${connection}/booking-channels`), 403, 'SVC_SPACES_OAUTH_CLIENT_REQUIRED');
    refused(await server.request('GET', BASE, { token: w.team.userToken, teamId: w.team.teamSimplyId }), 403, 'SVC_SPACES_OAUTH_CLIENT_REQUIRED');
    const other = await spacesToken(server, w.team, undefined, false);
    refused(await as(other).get(`${BASE}/${connection}/snapshot`), 403, 'SVC_SPACES_OAUTH_CLIENT_REQUIRED');
    refused(await server.request('GET', `${BASE}/${connection}/snapshot`), 401, 'UNAUTHENTICATED');
    // GraphQL lets a signed-in team admin set connections up
    const listed = await server.graphql('{ svcSpacesSourceConnections { sourceConnectionSimplyId isConfigured } }', {}, { token: w.team.userToken, teamId: w.team.teamSimplyId });
    expect(listed.data.svcSpacesSourceConnections).toEqual([{ sourceConnectionSimplyId: connection, isConfigured: true }]);
  });

  it('check the mapping against the team schema, and answer the snapshot once mapped', async () => {
    const fresh = ok(await spaces().post(BASE, { name: 'Unmapped' }), 201);
    refused(await spaces().get(`${BASE}/${fresh.sourceConnectionSimplyId}/snapshot`), 400, 'SVC_SPACES_MAPPING_NOT_CONFIGURED');
    const bad = {
      ...w.mapping,
      bookings: { ...(w.mapping.bookings as object), startsAtFieldSimplyId: w.bookings.fields.title, endsAtFieldSimplyId: 'fld-ZZZZ-ZZZZ-ZZZZ' },
    };
    const error = refused(await spaces().put(`${BASE}/${fresh.sourceConnectionSimplyId}/mapping`, { mapping: bad }), 400, 'SVC_SPACES_BOOKING_REQUEST_INVALID');
    expect(error.details).toEqual(
      expect.arrayContaining([
        { field: 'mapping.bookings.startsAtFieldSimplyId', message: 'is a PLAIN_TEXT field; this role needs DATE_TIME' },
        { field: 'mapping.bookings.endsAtFieldSimplyId', message: `fld-ZZZZ-ZZZZ-ZZZZ is not a field of collection ${w.bookings.id}` },
      ]),
    );
    refused(await spaces().post(BASE, { name: '' }), 400, 'SVC_SPACES_BOOKING_REQUEST_INVALID');
    const snapshot = ok(await spaces().get(`${BASE}/${connection}/snapshot`));
    expect(snapshot.spaces.map((s: any) => s.displayName)).toEqual(expect.arrayContaining(['Room 1', 'Room 2', 'Room 3']));
    expect(snapshot.spaces.find((s: any) => s.displayName === 'Room 1')).toMatchObject({ capacity: 4, publicDetails: { rateLabel: '25 € / hour', highlights: null } });
    expect(snapshot.bookingChannels).toEqual([{ bookingChannelSimplyId: channel, name: 'Rooms' }]);
    expect(ok(await spaces().get(`${BASE}/${connection}`)).mapping).toEqual(w.mapping);
  });

  it('answer another team its ids as not found', async () => {
    const other = await createTeam(server);
    const theirs = await spacesToken(server, other);
    refused(await as(theirs).get(`${BASE}/${connection}/snapshot`), 404, 'NOT_FOUND');
    refused(await as(theirs).post(`${BASE}/${connection}/booking-availability`, range('10:00', '11:00')), 404, 'NOT_FOUND');
  });
});

describe('booking channels', () => {
  it('store link tokens hashed and list channels without them', async () => {
    const listed = ok(await spaces().get(`${BASE}/${connection}/booking-channels`));
    expect(listed.validation).toEqual({ isValid: true, problems: [] });
    expect(listed.bookingChannels[0].bookingLinks.map((l: any) => l.audience)).toEqual(['PUBLIC', 'AUTHORIZED_CONSTITUENT', 'INTERNAL_TEAM', 'PUBLIC', 'PUBLIC']);
    expect(JSON.stringify(listed)).not.toContain(links.public!.publicAccessToken);
    const row = await server.app.services.prisma.spaceBookingLink.findUnique({ where: { simplyId: links.public!.bookingLinkSimplyId } });
    expect(row!.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(row!.tokenHash).not.toContain(links.public!.publicAccessToken);
  });

  it('refuse spaces outside the mapped collection and malformed policies', async () => {
    const error = refused(await spaces().post(`${BASE}/${connection}/booking-channels/provision`, channelBody([w.personId])), 400, 'SVC_SPACES_BOOKING_REQUEST_INVALID');
    expect(error.details[0].field).toBe('bookingChannel.spaceRecordSimplyIds[0]');
    const zone = refused(await spaces().post(`${BASE}/${connection}/booking-channels/provision`, channelBody(w.roomIds, { timeZone: 'Mars/Olympus' })), 400, 'SVC_SPACES_BOOKING_REQUEST_INVALID');
    expect(zone.details[0].field).toBe('bookingChannel.availabilityPolicy.timeZone');
  });
});

describe('the rules', () => {
  const diagnostic = async (body: Record<string, unknown>) => ok(await spaces().post(`${BASE}/${connection}/booking-quotes`, body)).diagnostics.map((d: any) => d.code);

  it('report each diagnostic from a crafted request', async () => {
    const room = [w.roomIds[0]];
    expect(await diagnostic(range('10:00', '11:00', { spaceRecordSimplyIds: room }))).toEqual([]);
    expect(await diagnostic(range('11:00', '10:00', { spaceRecordSimplyIds: room }))).toEqual(['INVALID_BOOKING_TIME_RANGE']);
    const soon = new Date(Date.now() + 5 * 60_000);
    expect(await diagnostic({ bookingChannelSimplyId: channel, startsAt: soon.toISOString(), endsAt: new Date(soon.getTime() + 3_600_000).toISOString(), spaceRecordSimplyIds: room })).toContain('BOOKING_LEAD_TIME_VIOLATION');
    const far = monday(30);
    expect(await diagnostic({ bookingChannelSimplyId: channel, startsAt: at(far, '10:00'), endsAt: at(far, '11:00'), spaceRecordSimplyIds: room })).toEqual(['BOOKING_ADVANCE_LIMIT_EXCEEDED']);
    expect(await diagnostic(range('06:00', '07:00', { spaceRecordSimplyIds: room }))).toEqual(['BOOKING_OUTSIDE_AVAILABILITY_WINDOW']);
    const sunday = day.subtract({ days: 1 });
    expect(await diagnostic({ bookingChannelSimplyId: channel, startsAt: at(sunday, '10:00'), endsAt: at(sunday, '11:00'), spaceRecordSimplyIds: room })).toEqual(['BOOKING_OUTSIDE_AVAILABILITY_WINDOW']);
    expect(await diagnostic(range('10:00', '15:00', { spaceRecordSimplyIds: room }))).toEqual(['BOOKING_DURATION_OUT_OF_RANGE']);
    expect(await diagnostic(range('10:10', '11:10', { spaceRecordSimplyIds: room }))).toEqual(['BOOKING_SLOT_INCREMENT_MISMATCH']);
    expect(await diagnostic(range('10:00', '11:00', { spaceRecordSimplyIds: [w.personId] }))).toEqual(['BOOKING_SPACE_OUT_OF_SCOPE']);
    const closed = await spaces().post(`${BASE}/${connection}/booking-quotes`, range('10:00', '11:00', { spaceRecordSimplyIds: room }));
    expect(closed.body.data.amountMinorUnits).toBe(2500);
    expect(closed.body.data.lineItems).toEqual([{ label: 'Room 1: 60 minutes at 2500 per hour', amountMinorUnits: 2500 }]);
  });

  it('refuse times without an offset and malformed bodies with issue details', async () => {
    const error = refused(await spaces().post(`${BASE}/${connection}/booking-quotes`, { bookingChannelSimplyId: channel, startsAt: '2026-03-30T10:00:00', endsAt: at(day, '11:00'), spaceRecordSimplyIds: [w.roomIds[0]] }), 400, 'SVC_SPACES_BOOKING_REQUEST_INVALID');
    expect(error.details[0].field).toBe('startsAt');
    refused(await spaces().post(`${BASE}/${connection}/booking-quotes`, range('10:00', '11:00', { spaceRecordSimplyIds: [] })), 400, 'SVC_SPACES_BOOKING_REQUEST_INVALID');
    refused(await spaces().post(`${BASE}/${connection}/booking-availability`, { ...range('10:00', '11:00'), bookingChannelSimplyId: 'bch-ZZZZ-ZZZZ-ZZZZ' }), 404, 'NOT_FOUND');
  });
});

describe('runs', () => {
  it('create a record of the booking collection with the quoted amount, and the space is then unavailable', async () => {
    const quote = ok(await spaces().post(`${BASE}/${connection}/booking-quotes`, range('12:00', '13:30', { spaceRecordSimplyIds: [w.roomIds[1]] })));
    const run = ok(await spaces().post(`${BASE}/${connection}/booking-runs`, range('12:00', '13:30', { spaceRecordSimplyIds: [w.roomIds[1]], title: 'Board meeting', requesterRecordSimplyId: w.personId, expectedAmountMinorUnits: quote.amountMinorUnits })), 201);
    expect(run).toMatchObject({ status: 'PENDING_APPROVAL', quote: { amountMinorUnits: 3750, currencyCode: 'EUR' }, diagnostics: [] });
    const record = await readRecord(server, w.team.apiKey, run.bookingRecordSimplyId);
    expect(record.fields[w.bookings.fields.amount!]).toBe(3750);
    expect(record.fields[w.bookings.fields.title!]).toBe('Board meeting');
    expect(record.fields[w.bookings.fields.status!]).toBe('PENDING_APPROVAL');
    expect(Date.parse(record.fields[w.bookings.fields.starts!])).toBe(Date.parse(at(day, '12:00')));
    const again = refused(await spaces().post(`${BASE}/${connection}/booking-runs`, range('13:00', '14:00', { spaceRecordSimplyIds: [w.roomIds[1]], title: 'Overlap' })), 409, 'BOOKING_SPACE_UNAVAILABLE');
    expect(again.details[0]).toMatchObject({ field: 'spaceRecordSimplyIds[0]', code: 'BOOKING_SPACE_UNAVAILABLE' });
    const availability = ok(await spaces().post(`${BASE}/${connection}/booking-availability`, range('13:00', '14:00')));
    const taken = availability.spaces.find((s: any) => s.spaceRecordSimplyId === w.roomIds[1]);
    expect(taken).toMatchObject({ isAvailable: false, conflicts: [{ bookingRecordSimplyId: run.bookingRecordSimplyId }] });
    refused(await spaces().post(`${BASE}/${connection}/booking-runs`, range('15:00', '16:00', { spaceRecordSimplyIds: [w.roomIds[1]], title: 'Stale', expectedAmountMinorUnits: 1 })), 400, 'SVC_SPACES_BOOKING_REQUEST_INVALID');
  });

  it('let exactly one of many concurrent runs for overlapping times win', async () => {
    const attempts = await Promise.all(
      Array.from({ length: 16 }, (_, i) => spaces().post(`${BASE}/${connection}/booking-runs`, range(i % 2 ? '16:00' : '16:30', i % 2 ? '17:00' : '17:30', { spaceRecordSimplyIds: [w.roomIds[2]], title: `Race ${i}` }))),
    );
    expect(attempts.filter((a) => a.status === 201)).toHaveLength(1);
    for (const lost of attempts.filter((a) => a.status !== 201)) {
      expect(lost.status, JSON.stringify(lost.body)).toBe(409);
      expect(['BOOKING_SPACE_UNAVAILABLE', 'BOOKING_SLOT_CONTENTION']).toContain(lost.body.error.code);
    }
    const { rows } = await server.app.services.pool.query(`SELECT count(*)::int AS n FROM space_bookings.claims WHERE "spaceRecordSimplyId" = $1`, [w.roomIds[2]]);
    expect(rows[0].n).toBe(1);
  });

  it('are backed by the exclusion constraint', async () => {
    const row = await server.app.services.prisma.spaceBookingChannel.findFirstOrThrow({ where: { simplyId: channel } });
    const insert = (key: string, from: string, to: string) =>
      server.app.services.pool.query(`INSERT INTO space_bookings.claims ("teamId", "channelId", "spaceRecordSimplyId", "claimKey", "startsAt", "endsAt") VALUES ($1, $2, 'ZZZZ-ZZZZ-ZZZZ', $3, $4, $5)`, [w.team.teamId, row.id, key, from, to]);
    await insert('probe-1', '2030-01-01T10:00:00Z', '2030-01-01T11:00:00Z');
    await insert('probe-2', '2030-01-01T11:00:00Z', '2030-01-01T12:00:00Z');
    await expect(insert('probe-3', '2030-01-01T10:30:00Z', '2030-01-01T11:30:00Z')).rejects.toMatchObject({ constraint: 'claims_no_overlap' });
    await server.app.services.pool.query(`DELETE FROM space_bookings.claims WHERE "claimKey" LIKE 'probe-%'`);
  });

  it('need permission to create records and write every mapped field', async () => {
    const { addMember, createRole } = await import('../support/fixtures.ts');
    const role = await createRole(server, w.team, { name: 'Readers', dataPermissions: [{ dataCollectionSimplyId: w.bookings.id, level: 'READ' }, { dataCollectionSimplyId: w.rooms.id, level: 'READ' }], featurePermissions: [{ name: 'SVC_SPACES_VIEW', level: 'VIEW' }] });
    const reader = await addMember(server, w.team, { teamRoleSimplyId: role });
    const token = await spacesToken(server, w.team, { token: reader.token, teamId: w.team.teamSimplyId });
    ok(await as(token).post(`${BASE}/${connection}/booking-availability`, range('10:00', '11:00')));
    refused(await as(token).post(`${BASE}/${connection}/booking-runs`, range('10:00', '11:00', { spaceRecordSimplyIds: [w.roomIds[0]], title: 'Nope' })), 403, 'SVC_SPACES_BOOKING_UNAUTHORIZED');
    refused(await as(token).post(`${BASE}/${connection}/booking-channels/provision`, channelBody(w.roomIds)), 403, 'PERMISSION_DENIED');
  });
});

describe('PATCH bookings', () => {
  it('edits re-check and re-quote; status actions move the booking and free its time', async () => {
    const run = ok(await spaces().post(`${BASE}/${connection}/booking-runs`, range('08:00', '09:00', { spaceRecordSimplyIds: [w.roomIds[0]], title: 'Standup' })), 201);
    const path = `${BASE}/${connection}/bookings/${run.bookingRecordSimplyId}`;
    refused(await spaces().patch(path, { action: 'EDIT', bookingChannelSimplyId: channel }), 400, 'SVC_SPACES_BOOKING_REQUEST_INVALID');
    refused(await spaces().patch(path, { action: 'EDIT', bookingChannelSimplyId: channel, startsAt: at(day, '08:30') }), 400, 'SVC_SPACES_BOOKING_REQUEST_INVALID');
    refused(await spaces().patch(path, { action: 'APPROVE', bookingChannelSimplyId: channel, title: 'x' }), 400, 'SVC_SPACES_BOOKING_REQUEST_INVALID');
    const moved = ok(await spaces().patch(path, { action: 'EDIT', bookingChannelSimplyId: channel, startsAt: at(day, '08:30'), endsAt: at(day, '10:30') }));
    expect(moved.quote.amountMinorUnits).toBe(5000);
    expect(moved.updatedFieldSimplyIds).toEqual(expect.arrayContaining([w.bookings.fields.starts, w.bookings.fields.ends, w.bookings.fields.amount]));
    // the old time is free, the new one taken
    ok(await spaces().post(`${BASE}/${connection}/booking-runs`, range('08:00', '08:30', { spaceRecordSimplyIds: [w.roomIds[0]], title: 'Early' })), 201);
    refused(await spaces().patch(path, { action: 'EDIT', bookingChannelSimplyId: channel, startsAt: at(day, '08:00'), endsAt: at(day, '09:00') }), 409, 'BOOKING_SPACE_UNAVAILABLE');
    expect(ok(await spaces().patch(path, { action: 'APPROVE', bookingChannelSimplyId: channel })).status).toBe('CONFIRMED');
    refused(await spaces().patch(path, { action: 'DENY', bookingChannelSimplyId: channel }), 400, 'SVC_SPACES_BOOKING_REQUEST_INVALID');
    expect(ok(await spaces().patch(path, { action: 'CANCEL', bookingChannelSimplyId: channel })).status).toBe('CANCELLED');
    const after = ok(await spaces().post(`${BASE}/${connection}/booking-runs`, range('09:00', '10:00', { spaceRecordSimplyIds: [w.roomIds[0]], title: 'After cancel' })), 201);
    // a booking record deleted through the records API frees its time too, with the delete
    ok(await server.request('DELETE', `/v1/data-records/${after.bookingRecordSimplyId}`, { token: w.team.apiKey }));
    ok(await spaces().post(`${BASE}/${connection}/booking-runs`, range('09:00', '10:00', { spaceRecordSimplyIds: [w.roomIds[0]], title: 'After delete' })), 201);
    refused(await spaces().patch(`${BASE}/${connection}/bookings/${w.personId}`, { action: 'CANCEL', bookingChannelSimplyId: channel }), 404, 'NOT_FOUND');
  });
});

describe('public links', () => {
  const body = { startsAt: at(day, '14:00'), endsAt: at(day, '15:00') };

  it('show availability anonymously where allowed, without conflict details', async () => {
    const answer = ok(await publicCall('availability', links.public!, body));
    expect(answer.bookingLinkSimplyId).toBe(links.public!.bookingLinkSimplyId);
    expect(answer.spaces).toHaveLength(3);
    for (const s of answer.spaces) expect(s.conflicts).toEqual([]);
    // every documented place for the token
    ok(await publicCall('availability', links.public!, body, { 'x-booking-public-token': links.public!.publicAccessToken }));
    ok(await publicCall('availability', links.public!, { ...body, publicAccessToken: links.public!.publicAccessToken }, {}));
    ok(await server.request('POST', `/v1/svc-spaces/booking-links/${links.public!.bookingLinkSimplyId}/availability?publicAccessToken=${links.public!.publicAccessToken}`, { body }));
  });

  it('answer slots, a slot grid and quotes by the same rules', async () => {
    const slots = ok(await publicCall('slots', links.public!, { startsAt: at(day, '08:00'), endsAt: at(day, '20:00'), durationMinutes: 60, spaceRecordSimplyIds: [w.roomIds[2]] }));
    const starts = slots.slots.map((s: any) => Date.parse(s.startsAt));
    expect(starts).not.toContain(Date.parse(at(day, '16:00')));
    expect(starts).toContain(Date.parse(at(day, '08:00')));
    const grid = ok(await publicCall('slot-grid', links.public!, { spaceRecordSimplyId: w.roomIds[2], fromDate: day.subtract({ days: 1 }).toString(), toDate: day.toString(), durationMinutes: 60 }));
    expect(grid).toMatchObject({ timezone: 'Europe/Berlin', slotIncrementMinutes: 30, pricingMode: 'PER_HOUR', maximumAdvanceDays: 120 });
    expect(grid.days[0].slots).toEqual([]);
    expect(grid.days[1].slots.map((s: any) => Date.parse(s.startsAt))).toEqual(starts);
    refused(await publicCall('slot-grid', links.public!, { fromDate: day.toString(), toDate: day.subtract({ days: 1 }).toString(), spaceRecordSimplyId: w.roomIds[2] }), 400, 'SVC_SPACES_BOOKING_REQUEST_INVALID');
    const quote = ok(await publicCall('quote', links.public!, { ...body, spaceRecordSimplyIds: [w.roomIds[0], w.roomIds[1]] }));
    expect(quote.amountMinorUnits).toBe(5000);
  });

  it('let a verified constituent of the team see constituent links and book, as themselves', async () => {
    await server.app.services.prisma.dataCollection.update({ where: { id: w.people.internalId }, data: { archetype: 'PERSON' } });
    server.app.services.schemas.invalidate(w.team.teamId);
    const session = await signedInConstituent(server, w.team, 'pat@example.test');
    const verified = { 'X-SVC-Public-Token': links.members!.publicAccessToken, authorization: `Bearer ${session.accessToken}` };
    expect(ok(await publicCall('availability', links.members!, body, verified)).spaces).toHaveLength(3);
    const booked = ok(await publicCall('run', links.members!, { ...body, spaceRecordSimplyIds: [w.roomIds[0]], title: 'Member booking', requesterRecordSimplyId: w.roomIds[1] }, verified), 201);
    expect(booked).toMatchObject({ status: 'PENDING_APPROVAL', quote: { amountMinorUnits: 2500 } });
    const record = await readRecord(server, w.team.apiKey, booked.bookingRecordSimplyId);
    expect(record.fields[w.bookings.fields.requester!]).toBe(w.personId);
    refused(await publicCall('run', links.members!, { ...body, spaceRecordSimplyIds: [w.roomIds[0]], title: 'Again' }, verified), 409, 'BOOKING_SPACE_UNAVAILABLE');
    // another team's constituent is no verified session for this link
    const other = await createTeam(server);
    const { createContacts } = await import('../constituent-auth/constituent-fixtures.ts');
    const contacts = await createContacts(server, other);
    await server.request('POST', '/v1/data-records', { token: other.apiKey, body: { dataCollectionSimplyId: contacts.id, fields: { [contacts.fields.name!]: 'Sam', [contacts.fields.email!]: 'sam@example.test' } } });
    const stranger = await signedInConstituent(server, other, 'sam@example.test');
    refused(await publicCall('availability', links.members!, body, { 'X-SVC-Public-Token': links.members!.publicAccessToken, authorization: `Bearer ${stranger.accessToken}` }), 403, 'BOOKING_LINK_VERIFICATION_REQUIRED');
  });

  it('follow the audience rules', async () => {
    refused(await publicCall('availability', links.staff!, body), 404, 'BOOKING_LINK_NOT_FOUND');
    refused(await publicCall('availability', { ...links.public!, publicAccessToken: 'svc_book_wrong' }, body), 404, 'BOOKING_LINK_NOT_FOUND');
    refused(await publicCall('availability', links.members!, body), 403, 'BOOKING_LINK_VERIFICATION_REQUIRED');
    refused(await publicCall('quote', links.closed!, { ...body, spaceRecordSimplyIds: [w.roomIds[0]] }), 403, 'BOOKING_LINK_VERIFICATION_REQUIRED');
    refused(await publicCall('run', links.public!, { ...body, spaceRecordSimplyIds: [w.roomIds[0]], title: 'Anonymous' }), 403, 'BOOKING_LINK_VERIFICATION_REQUIRED');
    refused(await publicCall('run', links.paid!, { ...body, spaceRecordSimplyIds: [w.roomIds[0]], title: 'Paid' }), 409, 'BOOKING_PAYMENT_NOT_SUPPORTED');
  });
});
