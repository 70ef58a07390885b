// Booking records written through the records API claim their time like runs do: an overlapping
// one is refused (409 BOOKING_SPACE_UNAVAILABLE, nothing written), availability counts the others,
// a cancelled, denied or deleted one frees its time at once, and a batch holding an overlap is
// refused whole. A connection mapped after a team's records were first written is heard of by
// the serving instance (the connection's NOTIFY), and the bookings its collection already held
// claim their time, the older of two overlapping ones winning.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCollection } from '../support/data-fixtures.ts';
import { gqlData } from '../support/expect-envelope.ts';
import { createRecord } from '../support/record-fixtures.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { until } from '../support/until.ts';
import { at, monday, spacesBed, spacesToken, type SpacesBed } from './space-bookings-fixtures.ts';

let server: TestServer;
let bed: SpacesBed;

beforeAll(async () => {
  server = await startTestServer();
  bed = await spacesBed(server);
});
afterAll(async () => {
  await server?.close();
});

const day = monday(3);
const BASE = '/v1/svc-spaces/source-connections';
const f = () => bed.bookings.fields;
const booking = (from: string, to: string, room = bed.roomIds[0]!, extra: Record<string, unknown> = {}) => ({
  [f().title!]: `Booking ${from}`,
  [f().starts!]: at(day, from),
  [f().ends!]: at(day, to),
  [f().spaces!]: [room],
  [f().status!]: 'CONFIRMED',
  ...extra,
});
const post = (fields: Record<string, unknown>) => server.request('POST', '/v1/data-records', { token: bed.team.apiKey, body: { dataCollectionSimplyId: bed.bookings.id, fields } });
const patch = (id: string, fields: Record<string, unknown>) => server.request('PATCH', `/v1/data-records/${id}`, { token: bed.team.apiKey, body: { fields } });
const claimsOf = async (id: string) => (await server.app.services.pool.query(`SELECT "channelId" FROM space_bookings.claims WHERE "bookingRecordSimplyId" = $1`, [id])).rows;
const takenAt = async (from: string, to: string, room = bed.roomIds[0]!) => {
  const answer = await server.request('POST', `${BASE}/${bed.connection}/booking-availability`, { token: bed.spacesToken, body: { bookingChannelSimplyId: bed.channel, startsAt: at(day, from), endsAt: at(day, to), spaceRecordSimplyIds: [room] } });
  expect(answer.status, answer.text).toBe(200);
  return answer.body.data.spaces[0].conflicts.map((c: any) => c.bookingRecordSimplyId);
};

describe('booking records written through the records API', () => {
  it('claim their time: availability counts them, and overlapping ones are refused with nothing written', async () => {
    const first = await createRecord(server, bed.team.apiKey, bed.bookings.id, booking('10:00', '11:00'));
    expect(await takenAt('10:30', '11:30')).toEqual([first.id]);
    const overlap = await post(booking('10:30', '11:30'));
    expect(overlap.status, overlap.text).toBe(409);
    expect(overlap.body.error.code).toBe('BOOKING_SPACE_UNAVAILABLE');
    const listed = await server.request('GET', `/v1/data-records?dataCollectionSimplyId=${bed.bookings.id}`, { token: bed.team.apiKey });
    expect(listed.body.data.map((r: any) => r.id)).toEqual([first.id]);
    // a run through the booking routes meets the record's claim too
    const run = await server.request('POST', `${BASE}/${bed.connection}/booking-runs`, {
      token: bed.spacesToken,
      body: { bookingChannelSimplyId: bed.channel, startsAt: at(day, '10:00'), endsAt: at(day, '11:00'), spaceRecordSimplyIds: [bed.roomIds[0]], title: 'Run' },
    });
    expect(run.status, run.text).toBe(409);
    // touching is not overlapping; another room is free
    await createRecord(server, bed.team.apiKey, bed.bookings.id, booking('11:00', '12:00'));
    await createRecord(server, bed.team.apiKey, bed.bookings.id, booking('10:00', '11:00', bed.roomIds[1]));
  });

  it('move, free and refuse on update, and keep drafts without times unclaimed', async () => {
    const draft = await createRecord(server, bed.team.apiKey, bed.bookings.id, { [f().title!]: 'Draft', [f().spaces!]: [bed.roomIds[0]] });
    expect(await claimsOf(draft.id)).toEqual([]);
    const moved = await patch(draft.id, { [f().starts!]: at(day, '14:00'), [f().ends!]: at(day, '15:00'), [f().status!]: 'PENDING_APPROVAL' });
    expect(moved.status, moved.text).toBe(200);
    expect(await takenAt('14:00', '15:00')).toEqual([draft.id]);
    // a title change claims nothing anew; a move onto a taken time is refused and changes nothing
    expect((await patch(draft.id, { [f().title!]: 'Renamed' })).status).toBe(200);
    const clash = await patch(draft.id, { [f().starts!]: at(day, '10:30'), [f().ends!]: at(day, '11:30') });
    expect(clash.status, clash.text).toBe(409);
    expect(clash.body.error.code).toBe('BOOKING_SPACE_UNAVAILABLE');
    expect(await takenAt('14:00', '15:00')).toEqual([draft.id]);
    const inverted = await patch(draft.id, { [f().ends!]: at(day, '13:00') });
    expect(inverted.status, inverted.text).toBe(400);
    expect(inverted.body.error.code).toBe('INVALID_BOOKING_TIME_RANGE');
    // cancelling frees the time, and so does deleting, at once
    expect((await patch(draft.id, { [f().status!]: 'CANCELLED' })).status).toBe(200);
    expect(await takenAt('14:00', '15:00')).toEqual([]);
    const again = await createRecord(server, bed.team.apiKey, bed.bookings.id, booking('14:00', '15:00'));
    expect((await server.request('DELETE', `/v1/data-records/${again.id}`, { token: bed.team.apiKey })).status).toBe(200);
    expect(await takenAt('14:00', '15:00')).toEqual([]);
  });

  it('refuse a batch holding an overlap as a whole', async () => {
    const batch = await server.request('POST', '/v1/data-records/batch', {
      token: bed.team.apiKey,
      body: { dataCollectionSimplyId: bed.bookings.id, records: [{ fields: booking('16:00', '17:00') }, { fields: booking('16:30', '17:30') }] },
    });
    expect(batch.status, batch.text).toBe(409);
    expect(await takenAt('16:00', '17:30')).toEqual([]);
  });

  it('count once a connection maps their collection, on a serving instance that had read the team before', async () => {
    const other = await spacesBed(server);
    const desks = await createCollection(server, other.team, {
      name: 'Desk bookings',
      formula: '{title}',
      fields: { title: 'PLAIN_TEXT', starts: 'DATE_TIME', ends: 'DATE_TIME', desk: { dataType: 'SINGLE_DATA_RECORD', config: { targetDataCollectionSimplyId: other.rooms.id } }, status: 'PLAIN_TEXT' },
    });
    const desk = (from: string, to: string) => ({ [desks.fields.title!]: 'Desk', [desks.fields.starts!]: at(day, from), [desks.fields.ends!]: at(day, to), [desks.fields.desk!]: other.roomIds[0] });
    // unmapped: overlapping records are the team's business
    const older = await createRecord(server, other.team.apiKey, desks.id, desk('09:00', '10:00'));
    const newer = await createRecord(server, other.team.apiKey, desks.id, desk('09:30', '10:30'));
    const elsewhere = await createRecord(server, other.team.apiKey, desks.id, { ...desk('09:00', '10:00'), [desks.fields.desk!]: other.roomIds[1] });
    await createRecord(server, other.team.apiKey, desks.id, { ...desk('09:00', '10:00'), [desks.fields.status!]: 'CANCELLED' });
    const mapping = {
      ...other.mapping,
      bookings: { dataCollectionSimplyId: desks.id, startsAtFieldSimplyId: desks.fields.starts, endsAtFieldSimplyId: desks.fields.ends, spacesFieldSimplyId: desks.fields.desk, titleFieldSimplyId: desks.fields.title, statusFieldSimplyId: desks.fields.status },
    };
    const token = await spacesToken(server, other.team);
    const created = await server.request('POST', BASE, { token, body: { name: 'Desks', mapping } });
    expect(created.status, created.text).toBe(201);
    // the bookings already there claim their time: the older of two overlapping ones wins
    expect(created.body.data.existingBookings).toEqual({ claimed: 2, overlapping: [newer.id], overlappingTotal: 1 });
    expect(await claimsOf(older.id)).toEqual([{ channelId: null }]);
    expect(await claimsOf(elsewhere.id)).toEqual([{ channelId: null }]);
    expect(await claimsOf(newer.id)).toEqual([]);
    // mapping again leaves what holds time as it is
    const again = await server.request('PUT', `${BASE}/${created.body.data.sourceConnectionSimplyId}/mapping`, { token, body: { mapping } });
    expect(again.body.data.existingBookings, again.text).toEqual({ claimed: 0, overlapping: [newer.id], overlappingTotal: 1 });
    // the GraphQL twin, for a signed-in admin of the team
    const twin = gqlData(await server.graphql(
      'mutation($id: String!, $input: JSON!) { setSvcSpacesSourceConnectionMapping(sourceConnectionSimplyId: $id, input: $input) { sourceConnectionSimplyId existingBookings } }',
      { id: created.body.data.sourceConnectionSimplyId, input: { mapping } },
      { token: other.team.userToken, teamId: other.team.teamSimplyId },
    ));
    expect(twin.setSvcSpacesSourceConnectionMapping.existingBookings).toEqual({ claimed: 0, overlapping: [newer.id], overlappingTotal: 1 });
    // the instance hears of the new connection moments after its commit
    const first = await until('the desk booking to claim its time', async () => {
      const record = await createRecord(server, other.team.apiKey, desks.id, desk('12:00', '13:00'));
      if ((await claimsOf(record.id)).length > 0) return record;
      await server.request('DELETE', `/v1/data-records/${record.id}`, { token: other.team.apiKey });
      return null;
    });
    expect(await claimsOf(first.id)).toEqual([{ channelId: null }]);
    const refused = await server.request('POST', '/v1/data-records', { token: other.team.apiKey, body: { dataCollectionSimplyId: desks.id, fields: desk('12:30', '13:30') } });
    expect(refused.status, refused.text).toBe(409);
  });
});
