// Serving instances keep booking channels in memory (channel-cache.ts): a change to a channel or
// its connection, made by any code path, reaches the next request through the database's NOTIFY.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';
import { at, monday, type SpacesBed, spacesBed } from './space-bookings-fixtures.ts';

let server: TestServer;
let bed: SpacesBed;

const quote = () =>
  server.request('POST', `/v1/svc-spaces/source-connections/${bed.connection}/booking-quotes`, {
    token: bed.spacesToken,
    body: { bookingChannelSimplyId: bed.channel, startsAt: at(monday(2), '10:00'), endsAt: at(monday(2), '11:00'), spaceRecordSimplyIds: [bed.roomIds[0]] },
  });
const codes = async () => {
  const r = await quote();
  return r.status === 200 ? (r.body.data.diagnostics as { code: string }[]).map((d) => d.code) : `${r.status} ${r.body.error.code}`;
};

beforeAll(async () => {
  server = await startTestServer();
  bed = await spacesBed(server);
});
afterAll(async () => {
  await server?.close();
});

describe('the channels a server keeps in memory', () => {
  it('are read once, and dropped when the channel or its connection changes', async () => {
    expect(await codes()).toEqual([]);
    const cache = server.app.services.spaceChannels!;
    const team = (await server.app.services.prisma.team.findUniqueOrThrow({ where: { simplyId: bed.team.teamSimplyId } })).id;
    expect(cache.get(team, bed.connection, bed.channel)).not.toBeNull();

    // a change made behind the routes' back: only afternoons on Mondays
    const row = await server.app.services.prisma.spaceBookingChannel.findFirstOrThrow({ where: { simplyId: bed.channel } });
    const config = row.config as { availabilityPolicy: Record<string, unknown> };
    config.availabilityPolicy.weeklyWindows = [{ dayOfWeek: 'MONDAY', start: '14:00', end: '20:00' }];
    await server.app.services.prisma.spaceBookingChannel.update({ where: { id: row.id }, data: { config: config as never } });
    await expect.poll(codes, { timeout: 5_000 }).toContain('BOOKING_OUTSIDE_AVAILABILITY_WINDOW');

    await server.app.services.prisma.spaceBookingChannel.delete({ where: { id: row.id } });
    await expect.poll(codes, { timeout: 5_000 }).toBe('404 NOT_FOUND');
    expect(cache.get(team, bed.connection, bed.channel)).toBeNull();
  });
});
