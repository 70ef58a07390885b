// A space-bookings world: a team with Rooms, Bookings and People collections, a first-party
// OAuth client allowed for svc-spaces and its token (the only credential the source-connection
// routes take), a mapped connection and a channel with links. Times are picked on the next weeks'
// Mondays in the channel's zone, so the tests hold on any date.
import { Temporal } from 'temporal-polyfill';
import { oauthClientsFor } from '../../src/modules/oauth/index.ts';
import { createCollection, type CollectionFixture } from '../support/data-fixtures.ts';
import { createTeam, type TeamFixture } from '../support/fixtures.ts';
import { OAUTH_TEST_REDIRECT, oauthBed } from '../support/oauth-fixtures.ts';
import { createRecord } from '../support/record-fixtures.ts';
import type { TestServer } from '../support/server.ts';

export const ZONE = 'Europe/Berlin';
export const SCOPES = 'records:read records:write schema:read';

export interface SpacesWorld {
  team: TeamFixture;
  rooms: CollectionFixture;
  bookings: CollectionFixture;
  people: CollectionFixture;
  roomIds: string[];
  personId: string;
  /** a token of the svc-spaces first-party client, for the team's admin */
  spacesToken: string;
  mapping: Record<string, unknown>;
}

export async function spacesToken(server: TestServer, team: TeamFixture, who = { token: team.userToken, teamId: team.teamSimplyId }, allow = true): Promise<string> {
  const bed = await oauthBed(server);
  const client = await oauthClientsFor(server.app.services).registerClient({ name: allow ? 'Spaces app' : 'Other app', redirectUris: [OAUTH_TEST_REDIRECT], firstParty: true, allowances: allow ? ['svc-spaces'] : [] });
  return (await bed.tokensFor({ client_id: client.clientId, token_endpoint_auth_method: 'none' }, SCOPES, who)).access_token;
}

export async function spacesWorld(server: TestServer, roomCount = 3, given?: TeamFixture): Promise<SpacesWorld> {
  const team = given ?? (await createTeam(server));
  const rooms = await createCollection(server, team, { name: 'Rooms', formula: '{name}', fields: { name: 'PLAIN_TEXT', capacity: 'NUMBER', rate: 'PLAIN_TEXT', highlights: 'FORMATTED_TEXT' } });
  const people = await createCollection(server, team, { name: 'People', formula: '{name}', fields: { name: 'PLAIN_TEXT', email: 'EMAIL_ADDRESS' } });
  const bookings = await createCollection(server, team, {
    name: 'Bookings',
    formula: '{title}',
    fields: {
      title: 'PLAIN_TEXT',
      starts: 'DATE_TIME',
      ends: 'DATE_TIME',
      spaces: { dataType: 'MULTI_DATA_RECORD', config: { targetDataCollectionSimplyId: rooms.id } },
      notes: 'PLAIN_TEXT',
      status: 'PLAIN_TEXT',
      requester: { dataType: 'SINGLE_DATA_RECORD', config: { targetDataCollectionSimplyId: people.id } },
      amount: 'NUMBER',
    },
  });
  const roomIds: string[] = [];
  for (let i = 0; i < roomCount; i++) {
    const room = await createRecord(server, team.apiKey, rooms.id, { [rooms.fields.name!]: `Room ${i + 1}`, [rooms.fields.capacity!]: 4 + i, [rooms.fields.rate!]: '25 € / hour' });
    roomIds.push(room.id);
  }
  const person = await createRecord(server, team.apiKey, people.id, { [people.fields.name!]: 'Pat Booker', [people.fields.email!]: 'pat@example.test' });
  const mapping = {
    spaces: {
      dataCollectionSimplyId: rooms.id,
      displayNameFieldSimplyId: rooms.fields.name,
      capacityFieldSimplyId: rooms.fields.capacity,
      publicDetails: { rateLabelFieldSimplyId: rooms.fields.rate, highlightsFieldSimplyId: rooms.fields.highlights },
    },
    bookings: {
      dataCollectionSimplyId: bookings.id,
      startsAtFieldSimplyId: bookings.fields.starts,
      endsAtFieldSimplyId: bookings.fields.ends,
      spacesFieldSimplyId: bookings.fields.spaces,
      titleFieldSimplyId: bookings.fields.title,
      notesFieldSimplyId: bookings.fields.notes,
      statusFieldSimplyId: bookings.fields.status,
      requesterFieldSimplyId: bookings.fields.requester,
      amountFieldSimplyId: bookings.fields.amount,
    },
    people: { dataCollectionSimplyId: people.id, displayNameFieldSimplyId: people.fields.name, emailFieldSimplyId: people.fields.email },
  };
  return { team, rooms, bookings, people, roomIds, personId: person.id, spacesToken: await spacesToken(server, team), mapping };
}

/** Weekdays 08:00-20:00 Berlin time, 30-minute steps, 30 minutes to 4 hours, 1 hour lead time, 25.00 EUR an hour. */
export function channelBody(roomIds: string[], overrides: Record<string, unknown> = {}, links: unknown[] = []) {
  return {
    bookingChannel: {
      name: 'Rooms',
      spaceRecordSimplyIds: roomIds,
      availabilityPolicy: {
        timeZone: ZONE,
        leadTimeMinutes: 60,
        maximumAdvanceDays: 120,
        weeklyWindows: ['MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY'].map((dayOfWeek) => ({ dayOfWeek, start: '08:00', end: '20:00' })),
        slotIncrementMinutes: 30,
        bufferBeforeMinutes: 0,
        bufferAfterMinutes: 0,
        minimumDurationMinutes: 30,
        maximumDurationMinutes: 240,
        defaultDurationMinutes: 60,
        ...overrides,
      },
      pricing: { mode: 'PER_HOUR', currencyCode: 'EUR', amountMinorUnits: 2500 },
      bookingLinks: links,
    },
  };
}

/** The Monday `weeksAhead` weeks after this one, as a local date of the zone. */
export function monday(weeksAhead: number): Temporal.PlainDate {
  const today = Temporal.Now.plainDateISO(ZONE);
  return today.add({ days: 8 - today.dayOfWeek + 7 * (weeksAhead - 1) });
}

/** An ISO instant with the zone's offset for a local date and time. */
export function at(date: Temporal.PlainDate, time: string): string {
  return date.toZonedDateTime({ timeZone: ZONE, plainTime: Temporal.PlainTime.from(time) }).toString({ timeZoneName: 'never' });
}

export interface SpacesBed extends SpacesWorld {
  connection: string;
  channel: string;
  /** PUBLIC, anonymous availability allowed */
  link: { bookingLinkSimplyId: string; publicAccessToken: string };
}

/** A mapped connection and a channel over all rooms with one public link, in `team` (or a new team). */
export async function spacesBed(server: TestServer, team?: TeamFixture): Promise<SpacesBed> {
  const world = await spacesWorld(server, 2, team);
  const send = (method: string, path: string, body?: unknown) => server.request(method, path, { token: world.spacesToken, body });
  const created = await send('POST', '/v1/svc-spaces/source-connections', { name: 'Rooms', mapping: world.mapping });
  if (created.status !== 201) throw new Error(`connection: ${created.status} ${created.text}`);
  const connection = created.body.data.sourceConnectionSimplyId as string;
  const provisioned = await send('POST', `/v1/svc-spaces/source-connections/${connection}/booking-channels/provision`, channelBody(world.roomIds, {}, [{ name: 'Public', audience: 'PUBLIC', allowAnonymousAvailability: true }]));
  if (provisioned.status !== 201) throw new Error(`provision: ${provisioned.status} ${provisioned.text}`);
  return { ...world, connection, channel: provisioned.body.data.bookingChannel.bookingChannelSimplyId, link: provisioned.body.data.publicAccessTokens[0] };
}
